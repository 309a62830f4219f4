// The regression verdict of one quantity, baseline samples against new samples
// (docs/regression-gate.md has the rule and its reasons).
#pragma once

#include "aorta/check.hpp"

#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

enum class gate_verdict {
  same,         // within the tolerance (or better but not significantly)
  worse,        // beyond the tolerance in the forbidden direction, and sure of it
  better,       // beyond the tolerance in the allowed direction, and sure of it
  ambiguous,    // beyond the tolerance, not significant: more trials, then a warning
  appeared,     // in the new run only (a kernel, scope or function)
  disappeared,  // in the baseline only
  unknown,      // not measurable on one side (e.g. an unknown launch count)
};

struct gate_params {
  double alpha = 0.05;
  // Total trials a gated run may take when a verdict is ambiguous (0: the recipe's trials x 3).
  int max_trials = 0;
};

struct gate_row {
  std::string test;
  std::string label;  // "time_ms(add_kernel)", or a check's text
  check_quantity quantity = check_quantity::metric;
  bool exact = false;  // counts and instruction counts: compared exactly, no statistics
  compare_op op = compare_op::less_equal;
  double fraction = 0.0;  // the bound is base median x (1 + fraction)
  std::string bound_text;  // "<= baseline + 5%"
  // Moves of the median no larger than this (absolute) are SAME whatever the tolerance says.
  double noise_floor = 0.0;
  std::vector<double> base;
  std::vector<double> fresh;
  std::string why_unknown;

  // Filled by judge().
  gate_verdict verdict = gate_verdict::unknown;
  double base_median = 0.0;
  double fresh_median = 0.0;
  std::optional<double> delta;    // fresh / base - 1
  std::optional<double> p_value;  // Mann-Whitney U, two-sided
  std::string evidence;           // "p=0.003 (U)", "ranges apart", "exact"
};

// "SAME", "SLOWER", "FEWER", ... chosen by the quantity and the direction of the move.
[[nodiscard]] std::string verdict_label(const gate_row& row);
// A worse, appeared or disappeared row fails a gate; ambiguous passes with a warning.
[[nodiscard]] bool fails_gate(const gate_row& row);

void judge(gate_row& row, const gate_params& params);

// True when Mann-Whitney U with these sample sizes can reach a p-value below alpha at all (its
// smallest two-sided p is 2 / C(n1 + n2, n1)); otherwise the interval rule decides.
[[nodiscard]] bool rank_test_can_decide(std::size_t n1, std::size_t n2, double alpha);

// Counts and instruction counts are deterministic; everything else (times, cycles) is noisy.
[[nodiscard]] bool is_exact_quantity(check_quantity quantity, const std::string& metric_name);

}  // namespace aorta::detail
