// The gate's rows for PC samples (docs/regression-gate.md, 'PC samples'): per kernel sampled in
// both the baseline and the run, where its samples land (a row over its lines) and what they
// stall on (a row over its stall reasons). The samples are a multinomial draw, so a share is a
// proportion with sampling noise: each row is a chi-square test of homogeneity of the pooled
// counts (baseline trials against new trials) over the categories, family-wise (Holm) with the
// test's timed rows, and MOVED only when the shares moved past the tolerance as well.
#pragma once

#include "baseline/gate_rule.hpp"
#include "baseline/measured_series.hpp"

#include <string>
#include <vector>

namespace aorta::detail {

// Categories pooled below this many samples (both sides together) go into the row's "(other)"
// category: the chi-square approximation needs expected counts of about 5 a cell.
inline constexpr double min_category_samples = 10.0;

// `tolerance`: how much of a kernel's samples (a fraction, 0.05 = 5 points) may move between
// categories (half the sum of the absolute share differences) and still be SAME.
[[nodiscard]] std::vector<gate_row> pc_sample_gate_rows(double tolerance, const measured_test& base,
                                                        const measured_test& fresh);

struct homogeneity_test {
  double statistic = 0.0;  // Pearson's X^2
  int degrees = 0;         // categories - 1
  double p_value = 1.0;
  double moved = 0.0;  // half the sum of |fresh share - base share|, 0..1
};

// Pearson's chi-square test of homogeneity of a 2 x K table (the two sides' counts per category);
// categories empty on both sides do not count. Fewer than 2 categories: p = 1.
[[nodiscard]] homogeneity_test test_homogeneity(const std::vector<double>& base_counts,
                                                const std::vector<double>& fresh_counts);

// P(X > x) for X chi-square with `degrees` degrees of freedom (the regularized upper incomplete
// gamma function Q(degrees / 2, x / 2)).
[[nodiscard]] double chi_square_survival(double x, double degrees);

// assess() of gate_rule.cpp for a row with categories: p_value, estimate_beyond and `moves`.
void assess_proportions(gate_row& row);

// A kernel's time row that is SLOWER (or AMBIGUOUS on the slow side) gets the stall reasons that
// moved in its evidence, from the kernel's `stalls(K) by reason` row when that moved past its
// tolerance: "same work, slower: long_scoreboard stalls 12.0% -> 31.0%" when its count row is
// SAME, "slower: ..." otherwise. Rows judged again keep one explanation.
void explain_slower_by_stalls(std::vector<gate_row>& rows);

}  // namespace aorta::detail
