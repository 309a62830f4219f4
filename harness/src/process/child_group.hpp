// A spawned child that leads its own process group, and the group's lifetime: whatever happens,
// the group is killed and the child reaped before this object goes away.
#pragma once

#include <sys/types.h>

#include <optional>

namespace aorta::detail {

class child_group {
public:
  explicit child_group(pid_t leader) noexcept : m_leader(leader) {}
  child_group(const child_group&) = delete;
  child_group& operator=(const child_group&) = delete;
  // Unwinding past a live child (an exception in the output loop) must not leave it running.
  ~child_group();

  void signal_all(int signal_number) const noexcept;

  // When the leader has exited: SIGKILL whatever is left of its group, reap the leader and
  // return its wait status (nullopt while it runs, or when the status was lost to someone else
  // reaping it). The group is killed *before* the reap, while the zombie leader still
  // pins the group id, so the id cannot have been reused by an unrelated process.
  [[nodiscard]] std::optional<int> try_reap() noexcept;

  [[nodiscard]] bool reaped() const noexcept { return m_reaped; }

private:
  [[nodiscard]] std::optional<int> reap_blocking() noexcept;

  pid_t m_leader;
  bool m_reaped = false;
};

}  // namespace aorta::detail
