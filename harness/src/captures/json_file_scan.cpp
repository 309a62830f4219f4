#include "captures/json_file_scan.hpp"

#include "aorta/error.hpp"
#include "bounded_input.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

namespace aorta::detail {

namespace fs = std::filesystem;

namespace {

class fd_closer {
public:
  explicit fd_closer(int fd) : m_fd(fd) {}
  fd_closer(const fd_closer&) = delete;
  fd_closer& operator=(const fd_closer&) = delete;
  ~fd_closer() { ::close(m_fd); }

private:
  int m_fd;
};

std::size_t read_some(int fd, char* data, std::size_t size, const fs::path& file) {
  for (;;) {
    const ssize_t got = ::read(fd, data, size);
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno == EINTR) continue;
    throw capture_error(fmt::format("{}: read failed: {}", file.string(), std::strerror(errno)));
  }
}

// 1-based line of a byte offset, computed only when reporting an error so the hot loop never
// counts newlines. 0 when the file cannot be re-read.
std::uint64_t line_at(const fs::path& file, std::uint64_t offset) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  fd_closer closer(fd);
  std::vector<char> buf(json_default_chunk_size);
  std::uint64_t line = 1;
  std::uint64_t seen = 0;
  while (seen < offset) {
    const ssize_t got = ::read(fd, buf.data(), buf.size());
    if (got <= 0) break;
    const auto take = static_cast<std::size_t>(
        std::min<std::uint64_t>(static_cast<std::uint64_t>(got), offset - seen));
    line += static_cast<std::uint64_t>(std::count(buf.data(), buf.data() + take, '\n'));
    seen += take;
  }
  return line;
}

}  // namespace

json_chunk_reader memory_reader(const std::string& text) {
  return [&text, at = std::size_t{0}](char* data, std::size_t size) mutable {
    const std::size_t n = std::min(size, text.size() - at);
    std::memcpy(data, text.data() + at, n);
    at += n;
    return n;
  };
}

void scan_hatchet_file(const fs::path& file, const std::function<void(json_chunk_reader)>& scan) {
  std::optional<input_file> in;
  try {
    in.emplace(open_input_file(file));
  } catch (const input_error& e) {
    throw capture_error(e.what());
  }
  ::posix_fadvise(in->fd(), 0, 0, POSIX_FADV_SEQUENTIAL);
  try {
    scan([&](char* data, std::size_t size) { return read_some(in->fd(), data, size, file); });
  } catch (const json_error& e) {
    throw capture_error(fmt::format("{}: byte {} (line {}): {}", file.string(), e.offset(),
                                    line_at(file, e.offset()), e.what()));
  }
}

}  // namespace aorta::detail
