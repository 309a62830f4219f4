// The gate's test for timed rows: Welch's t-test on the logs (Yuen's trimmed-mean test with no
// trimming), one-sided, and Holm's step-down adjustment over the rows of one test. Same
// definitions as SciPy, so a user can reproduce a p-value aorta prints:
//   scipy.stats.ttest_ind(x, y, equal_var=False, alternative="greater")   (trim=0.2: Yuen's)
// tests/stats checks both against SciPy. docs/regression-gate.md says why this test and not the
// rank test (its p-values are continuous, so Holm over 20-50 kernels still detects at 5 trials;
// the rank test's smallest one-sided p at 5 trials a side is 1/252) and not the trimmed one (at 5
// trials it keeps 3 values a side, too few to pass Holm over 20 rows at 1% noise).
#pragma once

#include <cstddef>
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

// Welch's test that x's mean exceeds y's: yuen_greater with no trimming (2 values a side or more).
[[nodiscard]] trimmed_t_test welch_greater(const std::vector<double>& x,
                                           const std::vector<double>& y);

// The level of the gate's outlier screen: Grubbs' two-sided test per side at 1%, so about 2% of
// rows of clean lognormal trials take the trimmed test.
inline constexpr double gate_outlier_level = 0.01;

// Grubbs' two-sided test for one outlier: the statistic max |x - mean| / s (0 with no spread;
// 2 values or more) against its critical value at `level` for n >= 3 values, from Student's t
// with n - 2 degrees of freedom. grubbs_outlier is false for fewer than 3 values.
[[nodiscard]] double grubbs_statistic(const std::vector<double>& values);
[[nodiscard]] double grubbs_critical(std::size_t n, double level);
[[nodiscard]] bool grubbs_outlier(const std::vector<double>& values, double level);

// Holm's step-down adjusted p-values, in the input's order: sorted ascending, the i-th smallest
// (0-based) becomes max over j <= i of min(1, (m - j) p_(j)). Rejecting where adjusted < alpha
// keeps the family-wise error rate at alpha whatever the dependence between the tests.
[[nodiscard]] std::vector<double> holm_adjusted(const std::vector<double>& p_values);

}  // namespace aorta::detail
