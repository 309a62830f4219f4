// The gate of `aorta sweep run --baseline DIR`: after the trials, judge them against the test's
// baseline, ask for more trials while a verdict is ambiguous (up to a budget), print the table and
// record the verdicts in gate.json (never in a trial's result.json: record/gate_verdict.hpp).
#pragma once

#include "aorta/error.hpp"
#include "aorta/recipe.hpp"
#include "aorta/sweep.hpp"
#include "baseline/gate_judge.hpp"
#include "reporting/reporter.hpp"
#include "sweep/gate_baseline.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace aorta::detail {

// True when the run has anything to judge against a baseline (a baseline check, a gate, or a
// baseline directory).
[[nodiscard]] bool gate_requested(const sweep_request& request, const recipe& spec,
                                  const std::vector<check_expression>& checks);

// A gated run's judgement over its rounds of trials. The sweep runs the trials; the gate only
// judges them: opened on the planned trials, asked after each round how many more it wants (the
// sequential rule, sequential_gate.hpp), closed with the verdict.
class gate_session {
public:
  // The exit code instead of a session when there is nothing to judge: nothing measured (the
  // trials' verdict stands), no baseline, or one recorded on another machine or card.
  [[nodiscard]] static std::variant<exit_code, gate_session>
  open(const sweep_request& request, const std::optional<gate_spec>& gate,
       const std::vector<check_expression>& checks, std::vector<trial_record>& trials,
       reporting::reporter& out);

  // How many more trials the judgement wants before its next look, said on `out`; 0 once it is
  // decided or the budget is spent. Throws usage_error for a budget below the planned trials.
  [[nodiscard]] int more_trials(const std::vector<trial_record>& trials, reporting::reporter& out);

  // The verdict over every trial run: the table, gate.json, the last trial's record in memory
  // (record/gate_verdict.hpp) and the run's exit code. Call once, after more_trials returned 0.
  [[nodiscard]] exit_code close(std::vector<trial_record>& trials, reporting::reporter& out);

private:
  gate_session(const sweep_request& request, gate_baseline loaded, gate_policy policy,
               std::optional<std::string> card_note, std::size_t asked);

  const sweep_request* request_;
  std::string test_;
  gate_baseline loaded_;
  gate_policy policy_;
  std::optional<std::string> card_note_;
  std::size_t asked_;  // the planned trials, before any top-up
  std::optional<gate_judgement> judged_;
};

// The verdict line's words for a gate that passed: "the gate against the baseline passed", and
// the rows still AMBIGUOUS under `ambiguous pass` (the last trial's note), so the first line of
// the output, which CTest's JUnit file keeps of a passing test, names them.
[[nodiscard]] std::string gate_pass_judgement(const std::vector<trial_record>& trials);

}  // namespace aorta::detail
