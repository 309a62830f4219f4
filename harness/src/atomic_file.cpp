#include "atomic_file.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <system_error>

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

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  std::filesystem::path temporary;
  const int fd = create_temporary(path, temporary);
  if (fd < 0) {
    throw setup_error(fmt::format("cannot write {}: {}; check that the directory exists and is "
                                  "writable",
                                  temporary.string(), std::strerror(errno)));
  }
  int failure = write_all(fd, content);
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

}  // namespace aorta::detail
