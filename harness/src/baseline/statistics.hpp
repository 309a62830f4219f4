// Order statistics and the Mann-Whitney U test used by the regression gate. Same definitions as
// SciPy (numpy's linear quantiles; mannwhitneyu's two-sided p with method="auto"), so a user can
// reproduce any p-value aorta prints; tests/baseline checks it against SciPy itself.
#pragma once

#include <cstddef>
#include <vector>

namespace aorta::detail {

struct sample_summary {
  double median = 0.0;
  double q1 = 0.0;
  double q3 = 0.0;
  double min = 0.0;
  double max = 0.0;
  std::size_t n = 0;
};

// Linear-interpolation quantile (numpy's default), q in [0, 1]. Requires a non-empty sample.
[[nodiscard]] double quantile(std::vector<double> values, double q);
[[nodiscard]] sample_summary summarize_samples(const std::vector<double>& values);

struct mann_whitney {
  double u = 0.0;        // U of the first sample (SciPy's `statistic`)
  double p_value = 1.0;  // two-sided
  bool exact = false;    // exact null distribution (small samples, no ties) or normal approximation
};

// Two-sided Mann-Whitney U test, as scipy.stats.mannwhitneyu(x, y) with its defaults: the exact
// distribution when either sample has at most 8 values and there are no ties, otherwise the
// normal approximation with tie correction and continuity correction. Both samples non-empty.
[[nodiscard]] mann_whitney mann_whitney_u(const std::vector<double>& x,
                                          const std::vector<double>& y);

}  // namespace aorta::detail
