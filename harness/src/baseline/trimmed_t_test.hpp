// The gate's test for timed rows: Yuen's trimmed-mean t-test (Welch's t on 20%-trimmed means with
// winsorized variances), one-sided, and Holm's step-down adjustment over the rows of one test.
// Same definitions as SciPy, so a user can reproduce a p-value aorta prints:
//   scipy.stats.ttest_ind(x, y, equal_var=False, trim=0.2, alternative="greater")
// tests/stats checks both against SciPy. docs/regression-gate.md says why this test and not the
// rank test: its p-values are continuous, so Holm over 20-50 kernels still detects at 5 trials
// (the rank test's smallest one-sided p at 5 trials a side is 1/252).
#pragma once

#include <vector>

namespace aorta::detail {

inline constexpr double gate_trim = 0.2;

struct trimmed_t_test {
  double t = 0.0;
  double df = 0.0;
  double p_value = 1.0;  // one-sided: P(T >= t) for "x larger than y"
};

// P(T >= t) for Student's t with `df` degrees of freedom (df > 0, not necessarily whole).
[[nodiscard]] double student_t_survival(double t, double df);

// Yuen's test that x's trimmed mean exceeds y's. Each sample needs at least 2 values left after
// trimming (3 values at trim 0.2); throws std::invalid_argument otherwise. When both winsorized
// variances are 0 the answer is certain: p = 0 when x's trimmed mean is larger, else 1.
[[nodiscard]] trimmed_t_test yuen_greater(const std::vector<double>& x, const std::vector<double>& y,
                                          double trim = gate_trim);

// Holm's step-down adjusted p-values, in the input's order: sorted ascending, the i-th smallest
// (0-based) becomes max over j <= i of min(1, (m - j) p_(j)). Rejecting where adjusted < alpha
// keeps the family-wise error rate at alpha whatever the dependence between the tests.
[[nodiscard]] std::vector<double> holm_adjusted(const std::vector<double>& p_values);

}  // namespace aorta::detail
