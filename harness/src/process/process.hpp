// Launching a command: posix_spawn with an argv vector (never a shell), in its own process group,
// output teed to log files and the terminal, a timeout that takes down the whole group.
#pragma once

#include "aorta/launch_plan.hpp"

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace aorta {

struct process_spec {
  std::vector<std::string> argv;            // argv[0] is looked up on the child's PATH when bare
  env_map environment;                      // the child's complete environment
  std::filesystem::path working_directory;  // empty = inherit
  std::filesystem::path stdout_log;         // empty = not logged
  std::filesystem::path stderr_log;
  bool echo = true;                      // also copy the child's output to our stdout/stderr
  std::chrono::milliseconds timeout{0};  // 0 = none
  // After the timeout (or an interrupt, or stop_when): SIGTERM to the group (an interrupt is
  // passed on as it came), then SIGKILL once this grace period has passed.
  std::chrono::milliseconds kill_grace{5000};
  // Asked while the child runs, at most every stop_check_interval: true ends the group the way a
  // timeout does and sets process_result::stopped (e.g. a payload hung after its capture). It is
  // called from the loop that passes signals on and enforces the timeout, so it must return at
  // once: slow work (reading a capture) belongs on another thread (sweep/capture_watch.cpp).
  std::function<bool()> stop_when;
  std::chrono::milliseconds stop_check_interval{1000};
};

// Largest timeout run_process accepts: far beyond any test, far below where adding it to the
// clock could overflow. Recipes are held to their own, smaller range (recipe.hpp).
inline constexpr std::chrono::hours max_process_timeout{24 * 365 * 100};

// A descendant that had left the payload's process group (setsid, double fork) and was still
// running after the payload ended: found through the subreaper, reported and killed.
struct escaped_process {
  pid_t pid = 0;
  std::string command;  // its command line, at most 200 characters
};

struct process_result {
  std::optional<int> exit_status;  // set when the child exited
  std::optional<int> signal;       // set when the child died of a signal
  bool timed_out = false;
  double timeout_seconds = 0.0;  // the configured limit, when timed_out
  // The SIGKILL that followed SIGTERM (or an interrupt, or stop_when) after the grace period.
  bool killed_after_grace = false;
  double kill_grace_seconds = 0.0;
  // SIGINT, SIGTERM or SIGHUP that aorta received while the child ran and passed on to it.
  std::optional<int> interrupted_by;
  bool stopped = false;  // stop_when returned true
  double wall_seconds = 0.0;
  std::vector<escaped_process> escaped;
  // Set when a log file could not be written (disk full, `ulimit -f`): the child ran to its end
  // (its pipe was still drained) but the log is incomplete. Names the file and the system's reason.
  std::optional<std::string> log_failure;

  [[nodiscard]] bool succeeded() const noexcept { return exit_status && *exit_status == 0; }
  // "exit 3", "signal 11 (SIGSEGV)", "timed out after 2.0 s (timeout: 2 from r.yaml); ignored
  // SIGTERM, killed by SIGKILL after the 5 s grace". `limit_origin` ("timeout: 2 from r.yaml")
  // says where the limit came from; empty leaves the parenthesis out.
  [[nodiscard]] std::string describe(const std::string& limit_origin = {}) const;
};

// Runs to completion. SIGINT/SIGTERM/SIGHUP delivered to aorta while the child runs are passed
// on to the child's process group, SIGKILL follows after kill_grace, and a second one kills at
// once. aorta becomes a child subreaper: descendants that left the group are killed and reported
// in `escaped` after the child ends; a keeper process kills the group should aorta die first.
// Throws setup_error when the command cannot be started (the message names argv[0] and the
// reason, e.g. "not found on PATH"); a log that fails while the child runs is log_failure.
[[nodiscard]] process_result run_process(const process_spec& spec);

}  // namespace aorta
