// Launching a command: posix_spawn with an argv vector (never a shell), in its own process group,
// output teed to log files and the terminal, a timeout that takes down the whole group.
#pragma once

#include "aorta/launch_plan.hpp"

#include <chrono>
#include <filesystem>
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
  // After the timeout: SIGTERM to the group, then SIGKILL once this grace period has passed.
  std::chrono::milliseconds kill_grace{5000};
};

struct process_result {
  std::optional<int> exit_status;  // set when the child exited
  std::optional<int> signal;       // set when the child died of a signal
  bool timed_out = false;
  double wall_seconds = 0.0;

  [[nodiscard]] bool succeeded() const noexcept { return exit_status && *exit_status == 0; }
  // "exit 3", "signal 11 (SIGSEGV)", "timed out after 5.0 s".
  [[nodiscard]] std::string describe() const;
};

// Runs to completion. SIGINT/SIGTERM delivered to aorta while the child runs are forwarded to the
// child's process group. Throws setup_error when the command cannot be started (the message names
// argv[0] and the reason, e.g. "not found on PATH").
[[nodiscard]] process_result run_process(const process_spec& spec);

}  // namespace aorta
