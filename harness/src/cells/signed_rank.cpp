#include "cells/signed_rank.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <numeric>

namespace aorta::detail {
namespace {

// SciPy switches from the exact distribution to the normal approximation above 50 pairs, and from
// enumerating sign flips to it above 13.
constexpr std::size_t exact_limit = 50;
constexpr std::size_t permutation_limit = 13;

struct ranked {
  std::vector<double> ranks;  // average ranks of |d| among the non-zero differences
  std::vector<bool> positive;
  bool ties = false;
  double tie_term = 0.0;  // sum of t^3 - t over groups of tied |d|
};

ranked rank_magnitudes(const std::vector<double>& nonzero) {
  ranked result;
  const std::size_t n = nonzero.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::abs(nonzero[a]) < std::abs(nonzero[b]);
  });
  result.ranks.assign(n, 0.0);
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j + 1 < n && std::abs(nonzero[order[j + 1]]) == std::abs(nonzero[order[i]])) ++j;
    const double average = (static_cast<double>(i + 1) + static_cast<double>(j + 1)) / 2.0;
    for (std::size_t k = i; k <= j; ++k) result.ranks[order[k]] = average;
    const double t = static_cast<double>(j - i + 1);
    if (j > i) result.ties = true;
    result.tie_term += t * t * t - t;
    i = j + 1;
  }
  for (const double d : nonzero) result.positive.push_back(d > 0);
  return result;
}

// P(W+ >= k) and P(W+ <= k) for n untied non-zero differences: counts of the subsets of {1..n}
// by their sum, out of 2^n (exact in a double up to n = 50: 2^50 < 2^53).
void exact_tails(std::size_t n, double w_plus, double& greater, double& less) {
  const std::size_t top = n * (n + 1) / 2;
  std::vector<double> counts(top + 1, 0.0);
  counts[0] = 1.0;
  for (std::size_t rank = 1; rank <= n; ++rank) {
    for (std::size_t sum = top; sum >= rank; --sum) counts[sum] += counts[sum - rank];
  }
  const double total = std::ldexp(1.0, static_cast<int>(n));
  // SciPy rounds a non-integral statistic down for the upper tail and up for the lower one.
  const auto floor_k = static_cast<std::size_t>(std::floor(w_plus));
  const auto ceil_k = static_cast<std::size_t>(std::ceil(w_plus));
  double upper = 0.0;
  for (std::size_t sum = floor_k; sum <= top; ++sum) upper += counts[sum];
  double lower = 0.0;
  for (std::size_t sum = 0; sum <= std::min(ceil_k, top); ++sum) lower += counts[sum];
  greater = upper / total;
  less = lower / total;
}

// The share of the 2^n sign flips whose W+ is at least (at most) the observed one, as
// scipy.stats.permutation_test enumerates them (observed value included, compared with a relative
// tolerance of 100 machine epsilons).
void permutation_tails(const ranked& data, double w_plus, double& greater, double& less) {
  const std::size_t n = data.ranks.size();
  const double tolerance = std::abs(w_plus) * DBL_EPSILON * 100.0;
  std::uint64_t at_least = 0;
  std::uint64_t at_most = 0;
  const std::uint64_t flips = std::uint64_t{1} << n;
  for (std::uint64_t mask = 0; mask < flips; ++mask) {
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      if ((mask >> i) & 1U) sum += data.ranks[i];
    }
    if (sum >= w_plus - tolerance) ++at_least;
    if (sum <= w_plus + tolerance) ++at_most;
  }
  greater = static_cast<double>(at_least) / static_cast<double>(flips);
  less = static_cast<double>(at_most) / static_cast<double>(flips);
}

double normal_sf(double z) {
  return 0.5 * std::erfc(z / std::sqrt(2.0));
}

}  // namespace

signed_rank wilcoxon_signed_rank(const std::vector<double>& differences) {
  signed_rank result;
  std::vector<double> nonzero;
  for (const double d : differences) {
    if (d != 0.0) nonzero.push_back(d);
  }
  result.nonzero = static_cast<int>(nonzero.size());
  if (nonzero.empty()) {
    result.method = signed_rank_method::permutation;
    return result;
  }
  const ranked data = rank_magnitudes(nonzero);
  for (std::size_t i = 0; i < nonzero.size(); ++i) {
    if (data.positive[i]) result.w_plus += data.ranks[i];
  }
  const bool zeros = nonzero.size() != differences.size();
  const std::size_t n_all = differences.size();
  if (n_all <= exact_limit && !data.ties && !zeros) {
    result.method = signed_rank_method::exact;
    exact_tails(nonzero.size(), result.w_plus, result.p_greater, result.p_less);
  } else if (n_all <= permutation_limit) {
    result.method = signed_rank_method::permutation;
    permutation_tails(data, result.w_plus, result.p_greater, result.p_less);
  } else {
    result.method = signed_rank_method::asymptotic;
    const auto n = static_cast<double>(nonzero.size());
    const double mean = n * (n + 1.0) / 4.0;
    const double se = std::sqrt((n * (n + 1.0) * (2.0 * n + 1.0) - data.tie_term / 2.0) / 24.0);
    const double z = (result.w_plus - mean) / se;
    result.p_greater = normal_sf(z);
    result.p_less = normal_sf(-z);
  }
  result.p_two_sided = std::min(1.0, 2.0 * std::min(result.p_greater, result.p_less));
  return result;
}

namespace {

// The one-sided p of `pairs` distinct positive differences: the smallest the test can give.
double smallest_p(int pairs) {
  std::vector<double> all_up(static_cast<std::size_t>(pairs));
  for (std::size_t i = 0; i < all_up.size(); ++i) all_up[i] = static_cast<double>(i + 1);
  return wilcoxon_signed_rank(all_up).p_greater;
}

}  // namespace

bool can_reach(double alpha, int pairs) {
  return pairs > 0 && smallest_p(pairs) < alpha;
}

int pairs_to_reach(double alpha) {
  int low = 1;
  int high = 100'000;
  if (!(smallest_p(high) < alpha)) return high;
  while (low < high) {  // the smallest p falls as pairs grow
    const int middle = low + (high - low) / 2;
    if (smallest_p(middle) < alpha) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  return low;
}

}  // namespace aorta::detail
