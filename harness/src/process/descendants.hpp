// The children aorta spawned, and the ones it did not. aorta makes itself a child subreaper
// (PR_SET_CHILD_SUBREAPER), so every orphaned descendant of a payload re-parents to aorta instead
// of to init, including processes that left the payload's process group (setsid, a double fork)
// and so escaped the group kill. Once the group is gone, the children of aorta that it never
// spawned are exactly those orphans: they are found, reported and killed here.
//
// Not contained: a descendant that re-parents elsewhere because another subreaper sits between
// it and aorta (e.g. the payload runs its own init or systemd-run), or one that outlives a
// SIGKILLed aorta (then only the group dies, through group_keeper.hpp).
#pragma once

#include "process/process.hpp"

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <vector>

namespace aorta::detail {

// Idempotent; failure (an old kernel) only means orphans are not found.
void become_subreaper() noexcept;

// Creates a child while holding the registry's lock and records it, so an orphan sweep in another
// thread never mistakes it for an orphan. `spawn` returns 0 or an errno value and sets pid.
[[nodiscard]] int spawn_registered(pid_t& pid, const std::function<int(pid_t&)>& spawn);
// fork(); the child runs `in_child`, which must not return. Returns the pid, or -1 with errno.
[[nodiscard]] pid_t fork_registered_child(const std::function<void()>& in_child);
// waitpid() on a registered child (blocking) and forget it, atomically with respect to sweeps.
// Returns the wait status, or nullopt when it could not be reaped.
std::optional<int> reap_registered_child(pid_t pid) noexcept;

// After the payload's group was SIGKILLed and its leader reaped: until the group is empty and
// no unregistered child is left (or `limit` passes), SIGKILL and reap every child of this process
// that was not registered. Returns those that were alive and outside `group`: the escaped ones.
[[nodiscard]] std::vector<escaped_process> end_orphans(pid_t group,
                                                       std::chrono::milliseconds limit);

}  // namespace aorta::detail
