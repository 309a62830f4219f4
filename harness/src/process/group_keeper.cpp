#include "process/group_keeper.hpp"

#include "aorta/error.hpp"
#include "process/descendants.hpp"

#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <string>

namespace aorta::detail {
namespace {

constexpr char stand_down = 's';

// Reads up to `size` bytes, retrying on EINTR; returns how many arrived before end of file.
std::size_t read_fully(int fd, char* data, std::size_t size) noexcept {
  std::size_t got = 0;
  while (got < size) {
    const ssize_t chunk = ::read(fd, data + got, size - got);
    if (chunk < 0 && errno == EINTR) continue;
    if (chunk <= 0) break;
    got += static_cast<std::size_t>(chunk);
  }
  return got;
}

// The keeper's whole life, in the forked child: only async-signal-safe calls (the parent may
// have other threads), never returns.
[[noreturn]] void keep(int order_fd) noexcept {
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
    ::sigaction(signal_number, &ignore, nullptr);
  }
  // Hold nothing of aorta's (log files, output pipes, its stdout): only the order pipe.
  const auto keep_fd = static_cast<unsigned>(order_fd);
  if (keep_fd > 0) ::syscall(SYS_close_range, 0U, keep_fd - 1, 0U);
  ::syscall(SYS_close_range, keep_fd + 1, ~0U, 0U);
  ::prctl(PR_SET_NAME, "aorta-keeper", 0, 0, 0);

  pid_t group = 0;
  if (read_fully(order_fd, reinterpret_cast<char*>(&group), sizeof group) != sizeof group) {
    ::_exit(0);  // aorta stood down (or died) before anything was spawned
  }
  char order = 0;
  if (read_fully(order_fd, &order, 1) == 0 && group > 1) ::kill(-group, SIGKILL);
  ::_exit(0);
}

}  // namespace

group_keeper::group_keeper() {
  // A socket pair rather than a pipe: send() with MSG_NOSIGNAL never raises SIGPIPE in aorta,
  // even where a library user has not ignored it.
  int ends[2] = {-1, -1};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    const int failure = errno;
    throw setup_error(std::string("cannot create the keeper's socket: ") + std::strerror(failure));
  }
  unique_fd read_end(ends[0]);
  m_order = unique_fd(ends[1]);
  m_pid = fork_registered_child([&read_end] { keep(read_end.get()); });
  if (m_pid < 0) {
    const int failure = errno;
    throw setup_error(std::string("cannot fork the process that ends the payload should aorta "
                                  "die: ") +
                      std::strerror(failure));
  }
}

void group_keeper::watch(pid_t process_group) noexcept {
  const auto* bytes = reinterpret_cast<const char*>(&process_group);
  std::size_t left = sizeof process_group;
  while (left > 0) {
    const ssize_t written = ::send(m_order.get(), bytes, left, MSG_NOSIGNAL);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    bytes += written;
    left -= static_cast<std::size_t>(written);
  }
}

group_keeper::~group_keeper() {
  if (m_pid <= 0) return;
  ssize_t written = -1;
  do {
    written = ::send(m_order.get(), &stand_down, 1, MSG_NOSIGNAL);
  } while (written < 0 && errno == EINTR);
  m_order.reset();
  reap_registered_child(m_pid);
}

}  // namespace aorta::detail
