#include "process/output_pump.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

namespace aorta::detail {
namespace {

// Writes all of [data, data+size); returns 0 or the errno of the failure.
int write_fully(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  return 0;
}

}  // namespace

void output_pump::add(unique_fd pipe_read_end, int log_fd, std::filesystem::path log_path,
                      int echo_fd) {
  const int flags = ::fcntl(pipe_read_end.get(), F_GETFL);
  ::fcntl(pipe_read_end.get(), F_SETFL, flags | O_NONBLOCK);
  m_streams.push_back(stream{std::move(pipe_read_end), log_fd, std::move(log_path), echo_fd});
}

bool output_pump::any_open() const noexcept {
  for (const auto& source : m_streams) {
    if (source.pipe.valid()) return true;
  }
  return false;
}

void output_pump::abandon() noexcept {
  for (auto& source : m_streams) source.pipe.reset();
}

void output_pump::pump(std::chrono::milliseconds timeout, int wake_fd) {
  std::vector<pollfd> watched;
  std::vector<stream*> owners;
  for (auto& source : m_streams) {
    if (!source.pipe.valid()) continue;
    watched.push_back(pollfd{source.pipe.get(), POLLIN, 0});
    owners.push_back(&source);
  }
  if (wake_fd >= 0) watched.push_back(pollfd{wake_fd, POLLIN, 0});
  const int ready = ::poll(watched.data(), watched.size(), static_cast<int>(timeout.count()));
  if (ready <= 0) return;  // timeout, or EINTR: the caller's loop looks at signals and deadlines
  for (std::size_t i = 0; i < owners.size(); ++i) {
    if (watched[i].revents != 0) drain_ready(*owners[i]);
  }
}

void output_pump::drain_ready(stream& source) {
  std::array<char, 65536> buffer{};
  // Bounded so that one chatty stream cannot starve the other or the caller's deadlines.
  for (int round = 0; round < 16; ++round) {
    const ssize_t got = ::read(source.pipe.get(), buffer.data(), buffer.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return;
      source.pipe.reset();
      return;
    }
    if (got == 0) {
      source.pipe.reset();
      return;
    }
    const auto size = static_cast<std::size_t>(got);
    if (source.log_fd >= 0) {
      if (const int failure = write_fully(source.log_fd, buffer.data(), size); failure != 0) {
        if (!m_log_failure) {
          m_log_failure = "cannot write '" + source.log_path.string() +
                          "': " + std::strerror(failure) + " (check free space and permissions)";
        }
        source.log_fd = -1;  // keep draining the pipe so the child never blocks on it
      }
    }
    // Echo is best effort: a closed terminal must not stop the run or its logs.
    if (source.echo_fd >= 0 && write_fully(source.echo_fd, buffer.data(), size) != 0) {
      source.echo_fd = -1;
    }
  }
}

}  // namespace aorta::detail
