// The one way aorta opens a file it did not write (a capture, a baseline, a result.json, a rank's
// record): only a regular file is opened, so a FIFO, a socket, a device or a directory planted
// where a file is expected can neither hang a reader nor feed it without end, and a whole-file
// read never takes more than its limit. Every limit is in docs/guards.md ("Limits on hostile
// input").
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <streambuf>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

// Whole-file reads: what each kind of file may weigh before aorta refuses to hold it in memory.
// Streamed readers (hatchet, chrome trace, CSV, callgrind) need no size limit: their memory is a
// buffer, however long the file.
inline constexpr std::uint64_t max_json_file_bytes = std::uint64_t{64} << 20;  // result, baseline
inline constexpr std::uint64_t max_log_file_bytes = std::uint64_t{256} << 20;  // sanitizer report
// rocprofv3's *_results.json is read whole (a DOM): its size bounds the memory it takes.
inline constexpr std::uint64_t max_rocprof_json_bytes = std::uint64_t{1} << 30;

// A file that cannot be read as input. what() names the file, why, and the fix.
class input_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// An open, regular input file; closed when destroyed.
class input_file {
public:
  input_file(const input_file&) = delete;
  input_file& operator=(const input_file&) = delete;
  input_file(input_file&& other) noexcept;
  input_file& operator=(input_file&&) = delete;
  ~input_file();

  // Up to `size` bytes; 0 at the end. Throws input_error on a read error.
  std::size_t read_some(char* data, std::size_t size);
  [[nodiscard]] std::uint64_t size() const noexcept { return m_size; }
  [[nodiscard]] int fd() const noexcept { return m_fd; }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return m_path; }

private:
  friend input_file open_input_file(const std::filesystem::path& file);
  input_file(int fd, std::uint64_t size, std::filesystem::path path)
      : m_fd(fd), m_size(size), m_path(std::move(path)) {}
  int m_fd;
  std::uint64_t m_size;
  std::filesystem::path m_path;
};

// A std::istream over an input_file, for readers written against streams (getline, a JSON
// parser). Read errors set badbit.
class input_stream : public std::istream {
public:
  explicit input_stream(input_file file);
  [[nodiscard]] const input_file& file() const noexcept { return m_buf.file; }

private:
  struct buffer : std::streambuf {
    explicit buffer(input_file opened) : file(std::move(opened)) {}
    int_type underflow() override;
    input_file file;
    std::vector<char> data = std::vector<char>(std::size_t{64} << 10);
  };
  buffer m_buf;
};

// A line longer than an input_lines bound. The reader says what it means for its format (file,
// line number, its limit's name, the fix).
class input_line_too_long : public input_error {
public:
  using input_error::input_error;
};

// The lines of an input file, read in chunks: a line is held only while it is at most
// `max_line_bytes` long, and refused as soon as more of it is read, so memory is a chunk and the
// bound however long a line is (std::getline held the whole line). Lines end at '\n', which is
// not part of them; the last one may lack it.
class input_lines {
public:
  static constexpr std::size_t default_chunk_bytes = std::size_t{64} << 10;

  input_lines(input_file file, std::size_t max_line_bytes,
              std::size_t chunk_bytes = default_chunk_bytes);

  // The next line, valid until the next call; false at the end of the file. Throws
  // input_line_too_long past the bound and input_error on a read error.
  bool next(std::string_view& line);
  [[nodiscard]] const input_file& file() const noexcept { return m_file; }

private:
  void refill();

  input_file m_file;
  std::size_t m_max_line_bytes;
  std::vector<char> m_data;
  std::size_t m_begin = 0;    // the current line's first byte
  std::size_t m_scanned = 0;  // bytes from m_begin on known to hold no '\n'
  std::size_t m_end = 0;      // bytes read into m_data
  bool m_at_end = false;
};

// Opens `file` read-only without blocking (a FIFO with no writer would otherwise hang the open)
// and refuses anything but a regular file, by the type of what was opened (no race between a
// check and the open). Throws input_error naming the file and what it is.
[[nodiscard]] input_file open_input_file(const std::filesystem::path& file);

// Refuses `file` unless it is a regular file (symlinks followed), without opening it: for readers
// that open by name through a library (SQLite). Throws input_error.
void require_regular_file(const std::filesystem::path& file);

// The whole of `file`, refused (input_error naming `limit_name` and the fix) when it is larger
// than `max_bytes`. At most max_bytes + 1 bytes are read, whatever the file claims its size is.
[[nodiscard]] std::string read_input_file(const std::filesystem::path& file,
                                          std::uint64_t max_bytes, std::string_view limit_name);

}  // namespace aorta::detail
