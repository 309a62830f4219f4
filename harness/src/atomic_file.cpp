#include "atomic_file.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <streambuf>
#include <system_error>
#include <vector>

namespace aorta::detail {
namespace {

// Creates a new temporary file next to `path`: exclusively and without following a symlink, so a
// name planted in a shared directory is skipped, never written through. Returns its fd.
int create_temporary(const std::filesystem::path& path, std::filesystem::path& temporary) {
  // The pid and a counter keep concurrent writers (ctest -j, threads) off each other's temp file.
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    temporary = path;
    temporary += fmt::format(".tmp-{}-{}", ::getpid(), counter++);
    const int fd = ::open(temporary.c_str(),
                          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

// 0 or the errno of the failure.
int write_all(int fd, std::string_view content) {
  while (!content.empty()) {
    const ssize_t written = ::write(fd, content.data(), content.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    content.remove_prefix(static_cast<std::size_t>(written));
  }
  return 0;
}

// A stream buffer over the temporary file's descriptor that keeps the first write error, so the
// caller reports it as write_all's would be.
class fd_buffer : public std::streambuf {
public:
  explicit fd_buffer(int fd) : m_fd(fd), m_bytes(std::size_t{1} << 16) {
    setp(m_bytes.data(), m_bytes.data() + m_bytes.size());
  }

  // Writes out what is buffered; 0 or the errno of the first failure.
  int flush_all() {
    const auto buffered = static_cast<std::size_t>(pptr() - pbase());
    if (m_failure == 0) m_failure = write_all(m_fd, std::string_view(pbase(), buffered));
    setp(m_bytes.data(), m_bytes.data() + m_bytes.size());
    return m_failure;
  }

protected:
  int_type overflow(int_type byte) override {
    if (flush_all() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(byte, traits_type::eof())) sputc(traits_type::to_char_type(byte));
    return traits_type::not_eof(byte);
  }
  int sync() override { return flush_all() == 0 ? 0 : -1; }

private:
  int m_fd;
  int m_failure = 0;
  std::vector<char> m_bytes;
};

// Creates the temporary, lets `fill` write it (0 or an errno), closes it and moves it into place;
// on any failure the temporary is removed and setup_error names it.
void write_through_temporary(const std::filesystem::path& path,
                            const std::function<int(int fd)>& fill) {
  std::filesystem::path temporary;
  const int fd = create_temporary(path, temporary);
  if (fd < 0) {
    throw setup_error(fmt::format("cannot write {}: {}; check that the directory exists and is "
                                  "writable",
                                  temporary.string(), std::strerror(errno)));
  }
  int failure = 0;
  try {
    failure = fill(fd);
  } catch (...) {
    ::close(fd);
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw;
  }
  if (::close(fd) != 0 && failure == 0) failure = errno;
  if (failure != 0) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw setup_error(fmt::format("writing {} failed: {} (disk full, or a file size limit?)",
                                  temporary.string(), std::strerror(failure)));
  }
  std::error_code moved;
  std::filesystem::rename(temporary, path, moved);
  if (moved) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw setup_error(fmt::format("cannot move {} into place as {}: {}", temporary.string(),
                                  path.string(), moved.message()));
  }
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  write_through_temporary(path, [&](int fd) { return write_all(fd, content); });
}

void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write) {
  write_through_temporary(path, [&](int fd) {
    fd_buffer buffer(fd);
    std::ostream out(&buffer);
    write(out);
    return buffer.flush_all();
  });
}

}  // namespace aorta::detail
