// The gate of `aorta sweep run --baseline DIR`: after the trials, judge them against the test's
// baseline, run more trials while a verdict is ambiguous (up to a budget), print the table and
// record the verdicts in gate.json and in the last trial's result.json.
#pragma once

#include "aorta/error.hpp"
#include "aorta/recipe.hpp"
#include "aorta/sweep.hpp"

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace aorta::detail {

// True when the run has anything to judge against a baseline (a baseline check, a gate, or a
// baseline directory).
[[nodiscard]] bool gate_requested(const sweep_request& request, const recipe& spec,
                                  const std::vector<check_expression>& checks);

// `trials` are the finished trials; `run_trial(index)` runs one more. Returns the exit code of the
// whole run given that the trials themselves passed.
[[nodiscard]] exit_code run_gate(const sweep_request& request, const recipe& spec,
                                 const std::vector<check_expression>& checks,
                                 std::vector<trial_record>& trials,
                                 const std::function<trial_record(int)>& run_trial,
                                 std::ostream& out);

// The verdict line's words for a gate that passed: "the gate against the baseline passed", and
// the rows still AMBIGUOUS under `ambiguous pass` (the last trial's note), so the first line of
// the output, which CTest's JUnit file keeps of a passing test, names them.
[[nodiscard]] std::string gate_pass_judgement(const std::vector<trial_record>& trials);

}  // namespace aorta::detail
