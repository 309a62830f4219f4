#include "process/child_group.hpp"

#include "process/descendants.hpp"

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
  const auto status = reap_registered_child(m_leader);
  m_reaped = true;
  return status;
}

}  // namespace aorta::detail
