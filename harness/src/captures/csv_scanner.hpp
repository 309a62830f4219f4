// A chunked RFC 4180 CSV reader shared by the rocprofv3 and ncu parsers. It reads the file in
// fixed-size chunks, so memory stays bounded by the chunk size plus the longest row (and 3/8 of
// that again for each kind of block mask it takes), however large a kernel trace grows.
#pragma once

#include "captures/csv_block_masks.hpp"
#include "captures/csv_columns.hpp"
#include "captures/csv_plain_row.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

// Longest CSV row aorta reads. A profiler's row is a few hundred bytes to a few KiB (a long C++
// kernel name); a row of 64 MiB is a damaged file, and reading on would only grow memory.
inline constexpr std::size_t csv_max_row_bytes = std::size_t{64} << 20;

// Bytes [begin, end) of a file.
struct csv_byte_range {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

class csv_scanner {
public:
  static constexpr std::size_t default_chunk_size = std::size_t{1} << 20;

  // Throws capture_error when the file cannot be opened.
  explicit csv_scanner(const std::filesystem::path& file,
                       std::size_t chunk_size = default_chunk_size,
                       std::size_t max_row_bytes = csv_max_row_bytes);
  // Only the bytes of `part`, which starts at a row's start (csv_parts.hpp): the file's end is
  // taken to be part.end and row numbers count from part.begin.
  csv_scanner(const std::filesystem::path& file, csv_byte_range part, std::size_t chunk_size);

  // The next row's fields, valid until the next call. False at end of file. Quoted fields lose
  // their quotes and doubled quotes inside become one; CRLF and LF both end a row; a field may
  // hold commas and line breaks when quoted. Throws capture_error on a read error and on a row
  // longer than `max_row_bytes` (file, row, limit). Time is linear in the row's length.
  bool next_row(std::vector<std::string_view>& fields) { return next_row(fields, csv_columns{}); }
  // The same, parsing only the `wanted` columns: `fields` holds wanted.kept() entries, the
  // wanted ones those of the row, the others (and those past the row's end) empty, and
  // field_count() tells how many fields the row had. The columns not wanted are counted, not
  // parsed, which is most of a kernel trace.
  bool next_row(std::vector<std::string_view>& fields, const csv_columns& wanted) {
    // Inline for the common row of a kernel trace: a plain row, the fields already sized.
    if (m_pos < m_end && fields.size() == wanted.kept() && parse_plain_row(fields, wanted)) {
      ++m_row_number;
      return true;
    }
    return next_row_any(fields, wanted);
  }

  // Skips raw lines (no quote handling) until one satisfies `is_header`, and leaves the scanner
  // positioned at that line. False when no line does. Used to skip the chatter a tool prints
  // before its CSV (ncu's ==PROF== lines, the application's own output).
  bool skip_lines_until(const std::function<bool(std::string_view line)>& is_header);

  // 1-based number of the last returned row (the header is row 1 when it is the first line).
  // Rows, not lines: a quoted field may span lines, and counting line breaks inside kernel names
  // would cost a second pass over most of the bytes.
  [[nodiscard]] std::size_t row_number() const noexcept { return m_row_number; }
  // Fields of the last returned row, those kept and those only counted.
  [[nodiscard]] std::size_t field_count() const noexcept { return m_field_count; }
  // Whether the last returned row ended at end of file without a line break, or inside an open
  // quote: the mark of a file cut off while it was written.
  [[nodiscard]] bool row_unterminated() const noexcept { return m_row_unterminated; }
  [[nodiscard]] std::uint64_t bytes_read() const noexcept { return m_bytes_read; }
  // The offset in the file of the first byte not yet returned in a row.
  [[nodiscard]] std::uint64_t offset() const noexcept {
    return m_part.begin + m_bytes_read - (m_end - m_pos);
  }

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return m_path; }

private:
  // next_row for any row: sizes `fields`, reads more bytes as needed.
  bool next_row_any(std::vector<std::string_view>& fields, const csv_columns& wanted);
  // Reads more bytes after the unparsed tail; false at end of file.
  bool refill();
  // Room for the block masks of every block the buffer holds.
  void size_masks();
  // The masks of the buffered blocks and a cursor over them, after zeroing the slack behind them.
  void start_cursor();
  // Parses one row starting at m_pos; false (nothing consumed) when the buffered bytes end first.
  bool parse_row(std::vector<std::string_view>& fields, const csv_columns& wanted, bool at_eof);
  // The same for a plain row, read from the block masks alone: every quote opens a field or
  // closes it just before its delimiter, no doubled quote, and the row's line end is buffered.
  // False (nothing consumed) for any other row, which parse_row then reads: the common row of a
  // kernel trace costs a few operations per 64 bytes and per wanted field, not per field.
  bool parse_plain_row(std::vector<std::string_view>& fields, const csv_columns& wanted) {
#if defined(AORTA_CSV_AVX2)
    if (csv_has_bmi2) return parse_plain_row_bmi2(fields, wanted);
#endif
    return parse_plain_row_portable(fields, wanted);
  }
  // parse_plain_row with each way of counting and selecting bits (csv_plain_row.hpp).
  template <class Bits>
  bool parse_plain_row_with(std::vector<std::string_view>& fields, const csv_columns& wanted);
  bool parse_plain_row_portable(std::vector<std::string_view>& fields, const csv_columns& wanted);
#if defined(AORTA_CSV_AVX2)
  __attribute__((target("popcnt,bmi,bmi2"))) bool
  parse_plain_row_bmi2(std::vector<std::string_view>& fields, const csv_columns& wanted);
#endif
  // The plain masks of the bytes buffered now, from their block masks.
  void take_plain_masks();
  // A quoted field's bytes with each doubled quote made one, in storage that lives until the
  // next row.
  std::string_view unescape(std::string_view quoted, std::size_t& unescaped_used);

  struct file_closer {
    void operator()(std::FILE* f) const noexcept { std::fclose(f); }
  };

  std::filesystem::path m_path;
  std::unique_ptr<std::FILE, file_closer> m_file;
  std::size_t m_chunk_size;
  std::size_t m_max_row_bytes;
  // m_capacity bytes of data, then csv_block_bytes of slack so a block load never leaves it.
  std::vector<char> m_buffer;
  std::size_t m_capacity = 0;
  std::size_t m_pos = 0;  // first unparsed byte
  std::size_t m_end = 0;  // one past the last buffered byte
  bool m_eof = false;
  std::size_t m_row_number = 0;
  std::size_t m_field_count = 0;
  bool m_row_unterminated = false;
  std::uint64_t m_bytes_read = 0;
  // The part of the file read; end is UINT64_MAX for the whole file.
  csv_byte_range m_part{0, UINT64_MAX};
  // The masks of every buffered block, taken once per read.
  std::vector<csv_block_masks> m_block_masks;
  std::vector<csv_plain_masks> m_plain_masks;  // the same blocks read as plain rows
  bool m_plain_masks_taken = false;             // for the bytes buffered now
  bool m_plain_masks_wanted = false;            // a reader of some columns asked for them
  // The masks of the block last looked at, kept from row to row; a refill, which moves the
  // bytes, starts a new cursor.
  csv_block_cursor m_cursor;
  // Unescaped copies of quoted fields that held doubled quotes; rare, so kept out of the fast path.
  std::deque<std::string> m_unescaped;  // deque: growing never moves the strings
};

// Column positions by header name; npos when a column is absent.
class csv_header {
public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  csv_header() = default;
  explicit csv_header(const std::vector<std::string_view>& fields);

  [[nodiscard]] std::size_t find(std::string_view name) const noexcept;
  [[nodiscard]] std::size_t size() const noexcept { return m_names.size(); }

private:
  std::vector<std::string> m_names;
};

}  // namespace aorta::detail
