// The end of a run: its exit code from the trials' verdicts, and the totals a person reads.
#include "sweep/sweep_steps.hpp"

#include <fmt/format.h>

namespace aorta::detail {

exit_code verdicts_exit_code(const std::vector<trial_record>& trials) {
  bool passed = false;
  bool skipped = false;
  for (const auto& trial : trials) {
    if (trial.verdict == verdict::fail || trial.verdict == verdict::error) return exit_code::failed;
    passed = passed || trial.verdict == verdict::pass;
    skipped = skipped || trial.verdict == verdict::skip;
  }
  return !passed && skipped ? exit_code::skipped : exit_code::ok;
}

exit_code summarize(const std::vector<trial_record>& trials, const std::filesystem::path& output,
                    reporting::reporter& report) {
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  for (const auto& trial : trials) {
    switch (trial.verdict) {
    case verdict::pass: ++passed; break;
    case verdict::skip: ++skipped; break;
    default: ++failed; break;
    }
  }
  for (const auto& trial : trials) {
    const std::string cell = trial.cell ? fmt::format("cell {} ", trial.cell->name) : "";
    if (trial.verdict == verdict::fail || trial.verdict == verdict::error) {
      reporting::say(report,
                     fmt::format("{}trial {} FAILED: {}", cell, trial.trial_index, trial.reason));
    } else if (trial.verdict == verdict::skip) {
      reporting::say(report,
                     fmt::format("{}trial {} SKIPPED: {}", cell, trial.trial_index, trial.reason));
    }
  }
  reporting::say(report, fmt::format("{} trial(s): {} passed, {} failed, {} skipped -> {}",
                                     trials.size(), passed, failed, skipped, output.string()));
  return verdicts_exit_code(trials);
}

}  // namespace aorta::detail
