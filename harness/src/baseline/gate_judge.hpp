// The one judging stage of the regression gate (docs/regression-gate.md): a test's baseline
// series and a run's series in, verdict rows and a summary out, under a policy. It does no I/O
// and runs nothing, so `sweep run --baseline` and `aorta compare` cannot judge the same rows two
// ways: the gated run (sweep/gate_run.cpp) calls it at every look of the sequential rule and runs
// the extra trials it asks for; compare calls it once per test.
#pragma once

#include "aorta/check.hpp"
#include "baseline/gate_rule.hpp"
#include "baseline/default_gate.hpp"
#include "baseline/measured_series.hpp"
#include "baseline/sequential_gate.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

struct gate_policy {
  // Tolerances, alpha and the card rule of the rows over every kernel, scope and function;
  // nullopt: the baseline checks alone are judged, at the default alpha.
  std::optional<gate_spec> gate;
  // The recipe's baseline checks (`time_ms(k) <= baseline + 5%`): a row each.
  std::vector<check_expression> checks;
  // Set: looks share alpha (sequential_gate.hpp) and the judgement asks for extra trials while a
  // row is ambiguous. nullopt: one look at all of alpha (compare).
  std::optional<sequential_plan> sequential;
  // A row that cannot be measured on one side fails a gated run; compare only shows it.
  bool unknown_fails = true;
  // What rows still AMBIGUOUS when no more trials will come do (the sequential rule's budget
  // spent, or compare's one look): fail the gate, skip the test, or pass with the rows listed.
  ambiguous_policy ambiguous = ambiguous_policy::fail;
};

// The alpha a policy holds its tests to: the gate line's, else the default.
[[nodiscard]] double policy_alpha(const gate_policy& policy);

struct gate_judgement {
  std::vector<gate_row> rows;
  int look = 0;  // 0: the first (compare's only) look; 1..J: after each extra trial
  std::size_t ambiguous = 0;
  std::size_t regressions = 0;  // confident: worse, appeared, disappeared
  std::size_t unknown = 0;
  // A regression, an unknown row where the policy fails it, or (once no more trials will come)
  // an AMBIGUOUS row under ambiguous_policy::fail.
  bool failed = false;
  // Failed by AMBIGUOUS rows alone (ambiguous_policy::fail): no regression, no failing unknown.
  bool failed_on_ambiguous = false;
  // Not failed, and AMBIGUOUS rows remain at the end under ambiguous_policy::skip.
  bool skipped = false;
  // Trials the sequential rule wants before its next look (0: decided, or the budget is spent).
  int more_trials = 0;
};

// "test: label" of each row still AMBIGUOUS, in the rows' order.
[[nodiscard]] std::vector<std::string> ambiguous_rows(const std::vector<gate_row>& rows);

// The first look. `trials_run` counts every trial the run has taken so far (the budget counts
// them all, measured or not).
[[nodiscard]] gate_judgement judge_gate(const measured_test& base, const measured_test& fresh,
                                        const gate_policy& policy, std::size_t trials_run = 0);

// The next look of the sequential rule, after the extra trials `previous` asked for: every row
// is measured again over all trials, and only those still AMBIGUOUS take the new verdict.
[[nodiscard]] gate_judgement judge_gate_again(const gate_judgement& previous,
                                              const measured_test& base,
                                              const measured_test& fresh,
                                              const gate_policy& policy, std::size_t trials_run);

}  // namespace aorta::detail
