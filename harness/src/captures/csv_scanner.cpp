#include "captures/csv_scanner.hpp"

#include "bounded_input.hpp"

#include <unistd.h>
#include <optional>

#include "aorta/error.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace aorta::detail {

namespace {

constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";

// The bytes that end an unquoted field.
constexpr bool is_field_end(char c) noexcept {
  return c == ',' || c == '\n' || c == '\r';
}

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
  m_buffer.resize(static_cast<std::size_t>(std::min<std::uintmax_t>(
      m_chunk_size, std::max<std::uintmax_t>(opened->size() + 1, 64))));
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
  if (tail > m_buffer.size() / 2) m_buffer.resize(m_buffer.size() * 2);
  const bool at_start = m_bytes_read == 0;
  const std::size_t got =
      std::fread(m_buffer.data() + m_end, 1, m_buffer.size() - m_end, m_file.get());
  if (got == 0) {
    if (std::ferror(m_file.get()) != 0) {
      throw capture_error(fmt::format("error reading {} after {} bytes: {}", m_path.string(),
                                      m_bytes_read, std::strerror(errno)));
    }
    m_eof = true;
    return false;
  }
  m_end += got;
  m_bytes_read += got;
  if (at_start && std::string_view(m_buffer.data(), m_end).starts_with(utf8_bom)) m_pos = 3;
  return true;
}

bool csv_scanner::next_row(std::vector<std::string_view>& fields) {
  for (;;) {
    if (m_pos == m_end && m_eof) return false;
    if (m_pos < m_end && parse_row(fields, m_eof)) {
      ++m_row_number;
      return true;
    }
    if (!refill() && m_pos == m_end) return false;
  }
}

bool csv_scanner::parse_row(std::vector<std::string_view>& fields, bool at_eof) {
  const char* const buf = m_buffer.data();
  std::size_t p = m_pos;
  const std::size_t end = m_end;
  std::size_t unescaped_used = 0;
  fields.clear();
  m_row_unterminated = false;
  for (;;) {
    std::string_view field;
    std::size_t q = p;
    if (q < end && buf[q] == '"') {
      const std::size_t start = q + 1;
      std::size_t scan = start;
      bool doubled = false;
      std::size_t close = end;
      for (;;) {
        const void* hit = std::memchr(buf + scan, '"', end - scan);
        if (hit == nullptr) break;
        const std::size_t r = static_cast<std::size_t>(static_cast<const char*>(hit) - buf);
        if (r + 1 == end && !at_eof) return false;  // the next byte decides; wait for it
        if (r + 1 < end && buf[r + 1] == '"') {
          doubled = true;
          scan = r + 2;
          continue;
        }
        close = r;
        break;
      }
      if (close == end) {
        if (!at_eof) return false;
        m_row_unterminated = true;  // an open quote at end of file
      }
      field = std::string_view(buf + start, close - start);
      if (doubled) {
        if (unescaped_used == m_unescaped.size()) m_unescaped.emplace_back();
        std::string& out = m_unescaped[unescaped_used++];
        out.clear();
        for (std::size_t i = 0; i < field.size(); ++i) {
          out.push_back(field[i]);
          if (field[i] == '"' && i + 1 < field.size() && field[i + 1] == '"') ++i;
        }
        field = out;
      }
      q = close == end ? end : close + 1;
      // Stray bytes between a closing quote and the delimiter are dropped, as spreadsheets do.
      while (q < end && !is_field_end(buf[q])) ++q;
    } else {
      while (q < end && !is_field_end(buf[q])) ++q;
      field = std::string_view(buf + p, q - p);
    }
    if (q == end && !at_eof) return false;
    fields.push_back(field);
    if (q == end) {
      m_row_unterminated = true;
      m_pos = end;
      return true;
    }
    const char delimiter = buf[q];
    if (delimiter == ',') {
      p = q + 1;
      if (p == end && at_eof) {
        fields.emplace_back();
        m_row_unterminated = true;
        m_pos = end;
        return true;
      }
      continue;
    }
    if (delimiter == '\r') {
      if (q + 1 == end && !at_eof) return false;
      m_pos = (q + 1 < end && buf[q + 1] == '\n') ? q + 2 : q + 1;
      return true;
    }
    m_pos = q + 1;  // '\n'
    return true;
  }
}

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
