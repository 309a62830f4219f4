// The gate item `straggler +N%` (docs/regression-gate.md, "Stragglers"): within the run, each rank
// of a multi-rank test against the median of its peers, paired by trial, with no baseline needed.
// Per trial t, rank r's ratio x_rt = value_rt / median of the other ranks' values in trial t; a
// row per rank and quantity (every kernel's time, every recorded function's Ir) holds those ratios
// as its new samples against a baseline of exactly 1 per trial, so the gate's own judge tests
// them: the mean log ratio against the tolerance for times (a one-sample t-test, Holm over the
// test's rows), the median ratio against it for Ir.
#pragma once

#include "baseline/gate_rule.hpp"
#include "baseline/measured_series.hpp"

#include <string>
#include <vector>

namespace aorta::detail {

// Rows for `fresh` (nothing when it has no ranks). Fewer than two ranks in every trial is one
// unknown row saying so; a rank without the quantity in a trial where a peer has it is an
// unknown row naming the rank and the trial. `base` (may be null): its trials join the work/card
// attribution, never the verdict.
[[nodiscard]] std::vector<gate_row> straggler_rows(const measured_test& fresh,
                                                   const measured_test* base, double fraction);

// "work" or "card" or "cannot tell" from where the slow trials of the straggler rows ran: the
// words a row's note carries (straggler_gate.cpp has the rule).
struct straggler_observation {
  int rank = 0;
  std::string card;
  double ratio = 0.0;
};
[[nodiscard]] std::string attribute_straggler(const std::vector<straggler_observation>& seen,
                                              double threshold);

}  // namespace aorta::detail
