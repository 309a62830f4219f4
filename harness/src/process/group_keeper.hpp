// Taking the payload's process group down with aorta when aorta itself dies without unwinding
// (SIGKILL, a crash, the OOM killer). Nothing in a dying process can run, so the job falls to a
// small process forked from aorta beforehand: the keeper. It holds one end of a socket pair whose
// other end only aorta holds. aorta tells it the group, and on a normal end a one-byte "stand
// down"; end of file without that byte means aorta is gone, and the keeper SIGKILLs the group.
//
// Why not PR_SET_PDEATHSIG: it must be set in the child between fork and exec (posix_spawn has no
// hook for it), it reaches only the leader and not the rest of its group, it fires when the
// *thread* that forked exits, and exec of a set-uid program clears it. The keeper needs none of
// that and covers the whole group. It ignores SIGINT/SIGTERM/SIGHUP (a Ctrl-C reaches aorta's
// group, the keeper's too: aorta decides then) and exits as soon as aorta stands down or dies.
// Limit: processes that left the group (setsid) are beyond it; see descendants.hpp.
#pragma once

#include "process/unique_fd.hpp"

#include <sys/types.h>

namespace aorta::detail {

class group_keeper {
public:
  // Forks the keeper. Throws setup_error when the pipe or the fork fails.
  group_keeper();
  group_keeper(const group_keeper&) = delete;
  group_keeper& operator=(const group_keeper&) = delete;
  // Stands the keeper down and reaps it. Destroy it only after the group is dead and reaped.
  ~group_keeper();

  // The group to SIGKILL should aorta die; call once, right after the spawn.
  void watch(pid_t process_group) noexcept;
  [[nodiscard]] pid_t pid() const noexcept { return m_pid; }

private:
  unique_fd m_order;  // write end: the group id, then the stand-down byte
  pid_t m_pid = -1;
};

}  // namespace aorta::detail
