#include "baseline/gate_judge.hpp"

#include "baseline/pc_sample_gate.hpp"
#include "baseline/rank_gate.hpp"
#include "baseline/straggler_gate.hpp"

#include <algorithm>

namespace aorta::detail {
namespace {

std::vector<gate_row> rows_of(const gate_policy& policy, const measured_test& base,
                              const measured_test& fresh) {
  auto rows = check_rows(policy.checks, base, fresh);
  if (policy.gate) {
    auto defaults = default_gate_rows(*policy.gate, base, fresh);
    rows.insert(rows.end(), defaults.begin(), defaults.end());
  }
  return rows;
}

// The sum's rows, then each rank's own against its own baseline (rank_gate.hpp): all of them one
// family, so Holm holds the test's false-alarm rate over ranks x rows.
std::vector<gate_row> build_rows(const gate_policy& policy, const measured_test& base,
                                 const measured_test& fresh) {
  auto rows = rows_of(policy, base, fresh);
  const row_builder same_rows = [&](const measured_test& b, const measured_test& f) {
    return rows_of(policy, b, f);
  };
  for (auto& ranked : rank_rows_of(base, fresh, same_rows)) rows.push_back(std::move(ranked));
  if (policy.gate && policy.gate->straggler) {
    for (auto& straggler : straggler_rows(fresh, &base, *policy.gate->straggler)) {
      rows.push_back(std::move(straggler));
    }
  }
  for (auto& row : rows) row.test = fresh.test;
  return rows;
}

bool is_regression(const gate_row& row) {
  return row.verdict == gate_verdict::worse || row.verdict == gate_verdict::appeared ||
         row.verdict == gate_verdict::disappeared;
}

gate_judgement summarized(std::vector<gate_row> rows, int look, const gate_policy& policy,
                          std::size_t trials_run) {
  gate_judgement judged;
  judged.rows = std::move(rows);
  judged.look = look;
  explain_slower_by_stalls(judged.rows);
  for (const auto& row : judged.rows) {
    if (row.verdict == gate_verdict::ambiguous) ++judged.ambiguous;
    if (row.verdict == gate_verdict::unknown) ++judged.unknown;
    if (is_regression(row)) ++judged.regressions;
  }
  judged.failed = judged.regressions > 0 || (policy.unknown_fails && judged.unknown > 0);
  // An ambiguous row is worth another trial only while no row has failed the gate: a failed
  // gate stays failed whatever the ambiguous rows become.
  const bool gate_failed = std::any_of(judged.rows.begin(), judged.rows.end(), fails_gate);
  if (policy.sequential && judged.ambiguous > 0 && !gate_failed &&
      trials_run < static_cast<std::size_t>(std::max(policy.sequential->budget, 0))) {
    judged.more_trials = 1;
  }
  if (judged.more_trials == 0 && judged.ambiguous > 0 && !judged.failed) {
    judged.failed = judged.failed_on_ambiguous = policy.ambiguous == ambiguous_policy::fail;
    judged.skipped = policy.ambiguous == ambiguous_policy::skip;
  }
  return judged;
}

}  // namespace

std::vector<std::string> ambiguous_rows(const std::vector<gate_row>& rows) {
  std::vector<std::string> listed;
  for (const auto& row : rows) {
    if (row.verdict == gate_verdict::ambiguous) listed.push_back(row.test + ": " + row.label);
  }
  return listed;
}

double policy_alpha(const gate_policy& policy) {
  return policy.gate ? policy.gate->params.alpha : gate_params{}.alpha;
}

gate_judgement judge_gate(const measured_test& base, const measured_test& fresh,
                          const gate_policy& policy, std::size_t trials_run) {
  auto rows = build_rows(policy, base, fresh);
  if (policy.sequential) {
    judge_first_look(rows, *policy.sequential);
  } else {
    gate_params params;
    params.alpha = policy_alpha(policy);
    judge_rows(rows, params);  // one family per test: Holm over its timed rows
  }
  return summarized(std::move(rows), 0, policy, trials_run);
}

gate_judgement judge_gate_again(const gate_judgement& previous, const measured_test& base,
                                const measured_test& fresh, const gate_policy& policy,
                                std::size_t trials_run) {
  if (!policy.sequential) return previous;  // one look: nothing is judged again
  auto rows = previous.rows;
  const int look = previous.look + 1;
  judge_next_look(rows, build_rows(policy, base, fresh), *policy.sequential, look);
  return summarized(std::move(rows), look, policy, trials_run);
}

}  // namespace aorta::detail
