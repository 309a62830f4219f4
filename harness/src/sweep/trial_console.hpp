// What the console shows of a run below --verbose (docs/cli.md, "Output"): one progress line per
// trial as it ends, then the verdict, then what it rests on. A trial's own lines are held back and
// kept only when a reader needs them: every failed trial's, and the last trial's measurements.
#pragma once

#include "aorta/sweep.hpp"
#include "aorta/trial_record.hpp"

#include <filesystem>
#include <iosfwd>
#include <string>

namespace aorta::detail {

struct trial_console {
  console_detail detail = console_detail::normal;
  std::ostream* live = nullptr;  // progress and the verdict, as they happen
  int planned = 0;               // trials the run plans, for "[3/40]"; 0: unknown
  int ended = 0;
  std::string failed_detail;  // every failed trial's lines, in order
  std::string last_detail;    // the last trial's lines when it did not fail

  // Files one ended trial: prints its progress line, keeps its lines as described above.
  void trial_ended(const std::string& label, const trial_record& record,
                   const std::string& trial_lines);
};

// Where a failed trial's payload output went (its stdout.log and stderr.log, not echoed below
// --verbose) and the last lines of each, as much as a reader needs to see how it ended. Empty when
// the trial left no logs (it never started).
[[nodiscard]] std::string payload_log_tail(const std::filesystem::path& trial_dir,
                                           const std::string& label);

// The run's verdict in one line: PASS, FAIL, SKIP or INTERRUPTED, the trial counts and the first
// reason a reader needs.
[[nodiscard]] std::string verdict_line(const sweep_outcome& outcome, int planned_trials);

// After the verdict: the failed trials' lines, the last trial's (not when quiet), then `after`
// (the summary and tables the run printed after its trials).
void print_verdict_and_detail(const trial_console& console, const sweep_outcome& outcome,
                              const std::string& after);

}  // namespace aorta::detail
