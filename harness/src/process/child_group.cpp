#include "process/child_group.hpp"

#include <sys/wait.h>

#include <cerrno>
#include <csignal>

namespace aorta::detail {

child_group::~child_group() {
  if (m_reaped) return;
  signal_all(SIGKILL);
  static_cast<void>(reap_blocking());
}

void child_group::signal_all(int signal_number) const noexcept {
  if (!m_reaped) ::kill(-m_leader, signal_number);
}

std::optional<int> child_group::try_reap() noexcept {
  if (m_reaped) return std::nullopt;
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(m_leader), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    // ECHILD would mean someone else reaped it (a SIGCHLD handler set to SIG_IGN); nothing left.
    if (errno == EINTR) return std::nullopt;
    m_reaped = true;
    return std::nullopt;
  }
  if (info.si_pid == 0) return std::nullopt;
  signal_all(SIGKILL);
  return reap_blocking();
}

std::optional<int> child_group::reap_blocking() noexcept {
  int status = 0;
  pid_t got = -1;
  do {
    got = ::waitpid(m_leader, &status, 0);
  } while (got < 0 && errno == EINTR);
  m_reaped = true;
  if (got != m_leader) return std::nullopt;
  return status;
}

}  // namespace aorta::detail
