// The Wilcoxon signed-rank test on paired differences, as scipy.stats.wilcoxon(d) computes it
// with its defaults (SciPy 1.17: zero_method="wilcox", correction=False, method="auto"), so every
// p-value a confound table prints can be reproduced; tests/stats checks it against SciPy itself.
#pragma once

#include <vector>

namespace aorta::detail {

enum class signed_rank_method {
  exact,        // the null distribution of W+ for n non-zero differences (no ties, no zeros)
  permutation,  // every one of the 2^n sign flips (ties or zeros, n <= 13)
  asymptotic,   // the normal approximation with tie correction (ties or zeros and n > 13, or n > 50)
};

struct signed_rank {
  double w_plus = 0.0;       // the sum of the ranks of the positive differences
  double p_greater = 1.0;    // H1: the differences are shifted up
  double p_less = 1.0;       // H1: shifted down
  double p_two_sided = 1.0;  // 2 x the smaller one-sided p, at most 1
  int nonzero = 0;           // differences that are not 0 (the others carry no sign)
  signed_rank_method method = signed_rank_method::exact;
};

// All p-values are 1 when every difference is zero or there are none.
[[nodiscard]] signed_rank wilcoxon_signed_rank(const std::vector<double>& differences);

// Whether the one-sided test of `pairs` differences can give p < alpha at all (every difference
// positive and distinct). When it cannot, a timed confound row can never be SLOWER, only
// AMBIGUOUS.
[[nodiscard]] bool can_reach(double alpha, int pairs);

// The fewest pairs that can: 5 for 0.05, 1830 for 1e-300 (the normal approximation beyond 50
// pairs); 100,000 when even that many
// cannot.
[[nodiscard]] int pairs_to_reach(double alpha);

}  // namespace aorta::detail
