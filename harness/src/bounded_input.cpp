#include "bounded_input.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace aorta::detail {
namespace fs = std::filesystem;
namespace {

std::string_view kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

[[noreturn]] void refuse_file_type(const fs::path& file, mode_t mode) {
  throw input_error(fmt::format("{}: is {}, not a regular file; aorta reads only regular files "
                                "as input (a pipe or device could block or never end). Fix: "
                                "point aorta at the file itself",
                                file.string(), kind_of(mode)));
}

}  // namespace

input_file::input_file(input_file&& other) noexcept
    : m_fd(std::exchange(other.m_fd, -1)), m_size(other.m_size), m_path(std::move(other.m_path)) {}

input_file::~input_file() {
  if (m_fd >= 0) ::close(m_fd);
}

std::size_t input_file::read_some(char* data, std::size_t size) {
  for (;;) {
    const ssize_t got = ::read(m_fd, data, size);
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno == EINTR) continue;
    throw input_error(fmt::format("{}: read failed: {}", m_path.string(), std::strerror(errno)));
  }
}

input_stream::input_stream(input_file file) : std::istream(nullptr), m_buf(std::move(file)) {
  rdbuf(&m_buf);
}

input_stream::buffer::int_type input_stream::buffer::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  // A read error throws; the istream catches it and sets badbit.
  const std::size_t got = file.read_some(data.data(), data.size());
  if (got == 0) return traits_type::eof();
  setg(data.data(), data.data(), data.data() + got);
  return traits_type::to_int_type(*gptr());
}

input_lines::input_lines(input_file file, std::size_t max_line_bytes, std::size_t chunk_bytes)
    : m_file(std::move(file)), m_max_line_bytes(max_line_bytes),
      m_data(std::max<std::size_t>(chunk_bytes, 1)) {}

bool input_lines::next(std::string_view& line) {
  for (;;) {
    const char* base = m_data.data();
    const auto* newline =
        static_cast<const char*>(std::memchr(base + m_scanned, '\n', m_end - m_scanned));
    const std::size_t length =
        newline != nullptr ? static_cast<std::size_t>(newline - base) - m_begin : m_end - m_begin;
    if (length > m_max_line_bytes) {
      throw input_line_too_long(fmt::format("{}: a line is longer than {} bytes",
                                            m_file.path().string(), m_max_line_bytes));
    }
    if (newline != nullptr || (m_at_end && length > 0)) {
      line = std::string_view(base + m_begin, length);
      m_begin = m_scanned = m_begin + length + (newline != nullptr ? 1 : 0);
      return true;
    }
    if (m_at_end) return false;
    m_scanned = m_end;
    refill();
  }
}

// Keeps the unfinished line at the front and reads after it; the buffer grows only while that
// line fills it, never past the bound + 1 (next() refuses the line before it would need more).
void input_lines::refill() {
  if (m_begin > 0) {
    std::memmove(m_data.data(), m_data.data() + m_begin, m_end - m_begin);
    m_end -= m_begin;
    m_scanned -= m_begin;
    m_begin = 0;
  }
  if (m_end == m_data.size())
    m_data.resize(std::max(m_end + 1, std::min(m_data.size() * 2, m_max_line_bytes + 1)));
  const std::size_t got = m_file.read_some(m_data.data() + m_end, m_data.size() - m_end);
  m_at_end = got == 0;
  m_end += got;
}

input_file open_input_file(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    throw input_error(fmt::format("{}: cannot open: {} (check that the file exists and is "
                                  "readable)",
                                  file.string(), std::strerror(errno)));
  }
  input_file opened(fd, 0, file);
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    throw input_error(fmt::format("{}: cannot stat: {}", file.string(), std::strerror(errno)));
  }
  if (!S_ISREG(info.st_mode)) refuse_file_type(file, info.st_mode);
  // O_NONBLOCK was for the open (a FIFO must not block it) and changes nothing in a regular
  // file's reads, so it stays: clearing it cost two fcntl calls per file, 60,000 for a report of
  // 30,000 results.
  opened.m_size = static_cast<std::uint64_t>(info.st_size);
  return opened;
}

void require_regular_file(const fs::path& file) {
  struct stat info {};
  if (::stat(file.c_str(), &info) != 0) {
    throw input_error(fmt::format("{}: cannot open: {} (check that the file exists and is "
                                  "readable)",
                                  file.string(), std::strerror(errno)));
  }
  if (!S_ISREG(info.st_mode)) refuse_file_type(file, info.st_mode);
}

std::string read_input_file(const fs::path& file, std::uint64_t max_bytes,
                            std::string_view limit_name) {
  input_file in = open_input_file(file);
  const auto too_large = [&](std::uint64_t size) {
    return input_error(fmt::format("{}: is {} bytes, more than aorta reads into memory for this "
                                   "kind of file ({} bytes, {}); it is damaged or not what its "
                                   "name says. Fix: point aorta at the right file",
                                   file.string(), size, max_bytes, limit_name));
  };
  if (in.size() > max_bytes) throw too_large(in.size());
  // Reserved, then appended to through a small buffer that stays in cache: a string sized first
  // is zero-filled first, a second pass over the whole file that for a 16 MB matrix.json was a
  // quarter of a report's last-level cache misses. A file that grows while read is read on (its
  // size said nothing) up to the limit.
  std::string text;
  text.reserve(static_cast<std::size_t>(in.size()));
  std::array<char, 32 * 1024> chunk;
  for (;;) {
    const std::size_t got = in.read_some(chunk.data(), chunk.size());
    if (got == 0) break;
    if (got > max_bytes - text.size()) throw too_large(text.size() + got);
    text.append(chunk.data(), got);
  }
  return text;
}

}  // namespace aorta::detail
