// What the console shows of a run below --verbose (docs/cli.md, "Output"): one progress line per
// trial as it ends, then the verdict, then what it rests on. A trial's own lines are held back and
// kept only when a reader needs them: every failed trial's, and the last trial's measurements.
#pragma once

#include "aorta/sweep.hpp"
#include "aorta/trial_record.hpp"
#include "reporting/event_recorder.hpp"

#include <filesystem>
#include <string>

namespace aorta::detail {

struct trial_console {
  console_detail detail = console_detail::normal;
  reporting::reporter* live = nullptr;  // progress and the verdict, as they happen
  int planned = 0;                      // trials the run plans, for "[3/40]"; 0: unknown
  int ended = 0;
  std::vector<reporting::event> failed_detail;  // every failed trial's events, in order
  std::vector<reporting::event> last_detail;    // the last trial's events when it did not fail

  // Files one ended trial: reports its progress, keeps its events as described above.
  void trial_ended(const std::string& label, const trial_record& record,
                   std::vector<reporting::event> trial_events);
};

// Where a failed trial's payload output went (its stdout.log and stderr.log, not echoed below
// --verbose) and the last lines of each, as much as a reader needs to see how it ended. Empty when
// the trial left no logs (it never started).
[[nodiscard]] std::string payload_log_tail(const std::filesystem::path& trial_dir,
                                           const std::string& label);

// The run's verdict in one line: PASS, FAIL, SKIP or INTERRUPTED, the trial counts and the first
// reason a reader needs.
[[nodiscard]] std::string verdict_line(const sweep_outcome& outcome, int planned_trials);

// After the verdict: the failed trials' events, the last trial's (not when quiet), then `after`
// (the summary and tables the run reported after its trials).
void report_verdict_and_detail(trial_console& console, const sweep_outcome& outcome,
                               reporting::event_recorder& after);

}  // namespace aorta::detail
