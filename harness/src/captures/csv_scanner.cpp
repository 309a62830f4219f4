#include "captures/csv_scanner.hpp"

#include "bounded_input.hpp"

#include <unistd.h>
#include <optional>

#include "aorta/error.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <optional>

namespace aorta::detail {

namespace {

constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";

}  // namespace

csv_scanner::csv_scanner(const std::filesystem::path& file, std::size_t chunk_size,
                         std::size_t max_row_bytes)
    : m_path(file), m_chunk_size(std::max<std::size_t>(chunk_size, 64)),
      m_max_row_bytes(max_row_bytes) {
  std::optional<input_file> opened;
  try {
    opened.emplace(open_input_file(file));
  } catch (const input_error& e) {
    throw capture_error(e.what());
  }
  const int fd = ::dup(opened->fd());
  if (fd >= 0) m_file.reset(::fdopen(fd, "rb"));
  if (!m_file) {
    if (fd >= 0) ::close(fd);
    throw capture_error(
        fmt::format("cannot open {}: {}; check that the file exists and is readable", file.string(),
                    std::strerror(errno)));
  }
  // A small file gets a buffer of its size, not a whole chunk; refill() doubles it as needed.
  m_capacity = static_cast<std::size_t>(
      std::min<std::uintmax_t>(m_chunk_size, std::max<std::uintmax_t>(opened->size() + 1, 64)));
  m_buffer.resize(m_capacity + csv_block_bytes);
  size_masks();
}

csv_scanner::csv_scanner(const std::filesystem::path& file, csv_byte_range part,
                         std::size_t chunk_size)
    : csv_scanner(file, chunk_size) {
  if (part.begin > part.end || part.begin > static_cast<std::uint64_t>(INT64_MAX) ||
      ::fseeko(m_file.get(), static_cast<off_t>(part.begin), SEEK_SET) != 0) {
    throw capture_error(fmt::format("cannot read {} from byte {}: {}", file.string(), part.begin,
                                    std::strerror(errno)));
  }
  m_part = part;
}

bool csv_scanner::refill() {
  if (m_eof) return false;
  const std::size_t tail = m_end - m_pos;
  if (m_pos > 0 && tail > 0) std::memmove(m_buffer.data(), m_buffer.data() + m_pos, tail);
  m_pos = 0;
  m_end = tail;
  if (tail > m_max_row_bytes) {
    throw capture_error(fmt::format(
        "{}: row {} is longer than {} bytes (csv_max_row_bytes), aorta's limit on one CSV row; "
        "a profiler's rows are a few KiB, so the file is damaged or not the profiler's CSV: "
        "check what wrote it",
        m_path.string(), m_row_number + 1, m_max_row_bytes));
  }
  // A row longer than half the buffer: double it, so memory follows the longest row and an
  // unfinished row is re-scanned O(1) times per byte (growing by a fixed chunk is quadratic).
  if (tail > m_capacity / 2) {
    m_capacity *= 2;
    m_buffer.resize(m_capacity + csv_block_bytes);
    size_masks();
  }
  const bool at_start = m_bytes_read == 0 && m_part.begin == 0;
  const std::size_t room = static_cast<std::size_t>(
      std::min<std::uint64_t>(m_capacity - m_end, m_part.end - m_part.begin - m_bytes_read));
  const std::size_t got = room == 0 ? 0 : std::fread(m_buffer.data() + m_end, 1, room, m_file.get());
  if (got == 0) {
    if (std::ferror(m_file.get()) != 0) {
      throw capture_error(fmt::format("error reading {} after {} bytes: {}", m_path.string(),
                                      m_bytes_read, std::strerror(errno)));
    }
    m_eof = true;
    start_cursor();
    return false;
  }
  m_end += got;
  m_bytes_read += got;
  start_cursor();
  if (at_start && std::string_view(m_buffer.data(), m_end).starts_with(utf8_bom)) m_pos = 3;
  return true;
}

void csv_scanner::size_masks() {
  // Sized with the buffer, not grown block by block: a vector grown on each read of a long row
  // went back to the system and faulted its pages in again on every scanner.
  const std::size_t blocks = (m_capacity + csv_block_bytes - 1) / csv_block_bytes;
  m_block_masks.resize(blocks);
  if (m_plain_masks_wanted) m_plain_masks.resize(blocks);
}

void csv_scanner::start_cursor() {
  // The bytes after the data may be those of an earlier fill; a block read past the end must
  // not find a delimiter or quote in them.
  std::memset(m_buffer.data() + m_end, 0, csv_block_bytes);
  const std::size_t blocks = (m_end + csv_block_bytes - 1) / csv_block_bytes;
  m_plain_masks_taken = false;
#if defined(AORTA_CSV_AVX2)
  if (m_plain_masks_wanted && csv_has_avx2_clmul) {
    csv_masks_fill_both_avx2(m_buffer.data(), blocks, m_block_masks.data(), m_plain_masks.data());
    m_plain_masks_taken = true;
  }
#endif
  if (!m_plain_masks_taken) csv_block_masks_fill(m_buffer.data(), blocks, m_block_masks.data());
  m_cursor = csv_block_cursor(m_block_masks.data(), m_end);
}

bool csv_scanner::next_row_any(std::vector<std::string_view>& fields,
                               const csv_columns& wanted) {
  const bool plain_rows_possible = wanted.kept() != csv_columns::none;
  if (plain_rows_possible && fields.size() != wanted.kept()) {
    fields.assign(wanted.kept(), std::string_view{});
  }
  for (;;) {
    if (m_pos == m_end && m_eof) return false;
    if (m_pos < m_end && ((plain_rows_possible && parse_plain_row(fields, wanted)) ||
                          parse_row(fields, wanted, m_eof))) {
      ++m_row_number;
      return true;
    }
    if (!refill() && m_pos == m_end) return false;
  }
}

namespace {

// Where a quoted field's closing quote is (`end` when the file ends first), and whether it holds
// doubled quotes; nullopt when the buffered bytes end before that is known.
struct closing_quote {
  std::size_t at;
  bool doubled;
};

std::optional<closing_quote> find_closing_quote(csv_block_cursor& cursor, const char* buf,
                                                std::size_t open, std::size_t end, bool at_eof) {
  closing_quote found{end, false};
  std::size_t scan = open + 1;
  for (;;) {
    const std::size_t r = cursor.next<true>(scan);
    if (r == end) break;
    if (r + 1 == end && !at_eof) return std::nullopt;  // the next byte decides; wait for it
    if (r + 1 < end && buf[r + 1] == '"') {
      found.doubled = true;
      scan = r + 2;
      continue;
    }
    found.at = r;
    break;
  }
  if (found.at == end && !at_eof) return std::nullopt;
  return found;
}

}  // namespace

std::string_view csv_scanner::unescape(std::string_view quoted, std::size_t& unescaped_used) {
  if (unescaped_used == m_unescaped.size()) m_unescaped.emplace_back();
  std::string& out = m_unescaped[unescaped_used++];
  out.clear();
  for (std::size_t i = 0; i < quoted.size(); ++i) {
    out.push_back(quoted[i]);
    if (quoted[i] == '"' && i + 1 < quoted.size() && quoted[i + 1] == '"') ++i;
  }
  return out;
}

bool csv_scanner::parse_row(std::vector<std::string_view>& fields, const csv_columns& wanted,
                            bool at_eof) {
  const char* const buf = m_buffer.data();
  std::size_t p = m_pos;
  const std::size_t end = m_end;
  const std::size_t kept = wanted.kept();
  const bool every_column = kept == csv_columns::none;
  std::size_t unescaped_used = 0;
  // A local copy the stores into `fields` cannot alias; written back once the row is whole.
  csv_block_cursor cursor = m_cursor;
  std::size_t count = 0;  // fields of this row so far
  bool unterminated = false;
  if (every_column) {
    fields.clear();
  } else if (fields.size() != kept) {
    fields.assign(kept, std::string_view{});
  }
  for (;;) {
    bool keep = wanted.wants(count);
    if (!keep && (p == end || buf[p] != '"')) {
      const std::size_t next = wanted.next_after(count);
      const csv_block_cursor::skipped_fields skipped =
          cursor.skip_unquoted(p, next == csv_columns::none ? next : next - count);
      p = skipped.field_start;
      count += skipped.commas;
      keep = wanted.wants(count);
    }
    std::string_view field;
    std::size_t q = p;
    if (q < end && buf[q] == '"') {
      const std::optional<closing_quote> close = find_closing_quote(cursor, buf, q, end, at_eof);
      if (!close) return false;
      unterminated = close->at == end;  // an open quote at end of file
      field = std::string_view(buf + q + 1, close->at - q - 1);
      if (close->doubled && keep) field = unescape(field, unescaped_used);
      // Stray bytes between a closing quote and the delimiter are dropped, as spreadsheets do.
      q = cursor.next<false>(close->at == end ? end : close->at + 1);
    } else {
      q = cursor.next<false>(q);
      field = std::string_view(buf + p, q - p);
    }
    if (q == end && !at_eof) return false;
    if (every_column) {
      fields.push_back(field);
    } else if (keep && count < kept) {
      fields[count] = field;
    }
    ++count;
    std::size_t next_row = end;
    if (q == end) {
      unterminated = true;
    } else if (buf[q] == ',') {
      p = q + 1;
      if (p != end || !at_eof) continue;
      // A trailing comma at end of file: an empty last field.
      if (every_column) {
        fields.emplace_back();
      } else if (count < kept) {
        fields[count] = std::string_view{};
      }
      ++count;
      unterminated = true;
    } else if (buf[q] == '\r') {
      if (q + 1 == end && !at_eof) return false;
      next_row = (q + 1 < end && buf[q + 1] == '\n') ? q + 2 : q + 1;
    } else {
      next_row = q + 1;  // '\n'
    }
    // A short row: the wanted fields it lacks must not keep the last row's text.
    for (std::size_t missing = count; !every_column && missing < kept; ++missing) {
      fields[missing] = std::string_view{};
    }
    m_cursor = cursor;
    m_field_count = count;
    m_row_unterminated = unterminated;
    m_pos = next_row;
    return true;
  }
}

void csv_scanner::take_plain_masks() {
  // Taken only by readers that want some columns: a scanner of every column needs none.
  const std::size_t blocks = (m_end + csv_block_bytes - 1) / csv_block_bytes;
  // From the next read on, taken in the same pass as the block masks where it can be.
  m_plain_masks_wanted = true;
  if (m_plain_masks.size() < m_block_masks.size()) m_plain_masks.resize(m_block_masks.size());
  csv_plain_masks_fill(m_block_masks.data(), blocks, m_plain_masks.data());
  m_plain_masks_taken = true;
}

template <class Bits>
[[gnu::always_inline]] inline bool
csv_scanner::parse_plain_row_with(std::vector<std::string_view>& fields,
                                  const csv_columns& wanted) {
  if (!m_plain_masks_taken) take_plain_masks();
  // The plain reading holds from an outside line end on (or from the buffer's start).
  const auto ends_outside_line = [this](std::size_t at) {
    return ((m_plain_masks[at / csv_block_bytes].line_ends >> (at % csv_block_bytes)) & 1) != 0;
  };
  if (m_pos != 0 && !ends_outside_line(m_pos - 1)) return false;
  const char* const buf = m_buffer.data();
  const csv_plain_row_result row = csv_read_plain_row<Bits>(
      csv_plain_row_input{m_plain_masks.data(), buf, m_pos, m_end, wanted.bits()}, fields.data());
  if (row.field_count == 0) return false;
  std::size_t next_row = row.line_end + 1;
  if (buf[row.line_end] == '\r') {
    if (next_row == m_end) return false;  // a '\n' may follow in the next read
    if (buf[next_row] == '\n') ++next_row;
  }
  // A short row: the wanted fields it lacks must not keep the last row's text.
  for (std::size_t missing = row.field_count; missing < fields.size(); ++missing) {
    fields[missing] = std::string_view{};
  }
  m_field_count = row.field_count;
  m_row_unterminated = false;
  m_pos = next_row;
  return true;
}

bool csv_scanner::parse_plain_row_portable(std::vector<std::string_view>& fields,
                                           const csv_columns& wanted) {
  return parse_plain_row_with<csv_portable_bits>(fields, wanted);
}

#if defined(AORTA_CSV_AVX2)
__attribute__((target("popcnt,bmi,bmi2"))) bool
csv_scanner::parse_plain_row_bmi2(std::vector<std::string_view>& fields,
                                  const csv_columns& wanted) {
  return parse_plain_row_with<csv_bmi2_bits>(fields, wanted);
}
#endif

bool csv_scanner::skip_lines_until(const std::function<bool(std::string_view line)>& is_header) {
  for (;;) {
    if (m_pos == m_end && !refill()) return false;
    const void* hit = std::memchr(m_buffer.data() + m_pos, '\n', m_end - m_pos);
    if (hit == nullptr && !m_eof) {
      refill();  // a longer line, or the end of the file: look again either way
      continue;
    }
    const std::size_t stop =
        hit != nullptr ? static_cast<std::size_t>(static_cast<const char*>(hit) - m_buffer.data())
                       : m_end;
    std::string_view line(m_buffer.data() + m_pos, stop - m_pos);
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (is_header(line)) return true;
    m_pos = hit != nullptr ? stop + 1 : m_end;
    ++m_row_number;
    if (m_pos == m_end && m_eof) return false;
  }
}

csv_header::csv_header(const std::vector<std::string_view>& fields) {
  m_names.reserve(fields.size());
  for (std::string_view f : fields) m_names.emplace_back(trim(f, blanks));
}

std::size_t csv_header::find(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < m_names.size(); ++i) {
    if (m_names[i] == name) return i;
  }
  return npos;
}

}  // namespace aorta::detail
