// Where the gate's baseline comes from (docs/regression-gate.md, docs/history.md): a baseline
// file of a directory, or the history store's trials (`--baseline history[:BRANCH]`); and what the
// gate does when there is none to judge against.
#pragma once

#include "aorta/error.hpp"
#include "aorta/sweep.hpp"
#include "baseline/measured_series.hpp"
#include "history/history_baseline.hpp"
#include "reporting/reporter.hpp"

#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

// The baseline the gate judges against, from a baseline file or the history store.
struct gate_baseline {
  measured_test test;
  std::string described;  // a file's path, or the history's commits and card
  std::string fix;        // how to get a baseline that matches this machine
  std::optional<history_baseline> history;
};

// The test's name in the baseline directory or the store: --test-name, else the output
// directory's name.
[[nodiscard]] std::string gate_test_name(const sweep_request& request);

// A missing or foreign baseline: a skip naming `reason`, a failure under --require-baseline; the
// last trial's result.json records it.
[[nodiscard]] exit_code skip_or_fail(const sweep_request& request,
                                     std::vector<trial_record>& trials, const std::string& reason,
                                     reporting::reporter& out);

// nullopt, with the verdict recorded and `code` set, when there is no baseline to judge against:
// a missing file skips (or fails under --require-baseline); a history store without the test's
// trials on the branch fails (exit 1; 64 for a usage error), never a skip.
[[nodiscard]] std::optional<gate_baseline>
load_gate_baseline(const sweep_request& request, const std::string& test,
                   std::vector<trial_record>& trials, exit_code& code, reporting::reporter& out);

}  // namespace aorta::detail
