#include "baseline/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace aorta::detail {

double quantile(std::vector<double> values, double q) {
  if (values.empty()) throw std::invalid_argument("quantile of an empty sample");
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return values[below] + (values[above] - values[below]) * fraction;
}

sample_summary summarize_samples(const std::vector<double>& values) {
  sample_summary summary;
  summary.n = values.size();
  if (values.empty()) return summary;
  summary.median = quantile(values, 0.5);
  summary.q1 = quantile(values, 0.25);
  summary.q3 = quantile(values, 0.75);
  summary.min = *std::min_element(values.begin(), values.end());
  summary.max = *std::max_element(values.begin(), values.end());
  return summary;
}

namespace {

struct ranking {
  std::vector<double> ranks;  // midranks, in the order of the concatenated input
  double tie_term = 0.0;      // sum of t^3 - t over groups of t equal values
  bool has_ties = false;
};

ranking rank_with_ties(const std::vector<double>& values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  ranking result;
  result.ranks.assign(values.size(), 0.0);
  for (std::size_t start = 0; start < order.size();) {
    std::size_t end = start + 1;
    while (end < order.size() && values[order[end]] == values[order[start]]) ++end;
    const double midrank = (static_cast<double>(start + 1) + static_cast<double>(end)) / 2.0;
    for (std::size_t i = start; i < end; ++i) result.ranks[order[i]] = midrank;
    const auto t = static_cast<double>(end - start);
    if (end - start > 1) {
      result.has_ties = true;
      result.tie_term += t * t * t - t;
    }
    start = end;
  }
  return result;
}

// P(U >= u) under H0 without ties: the distribution of U is given by the coefficients of the
// Gaussian binomial [n1+n2 choose n1]_q = prod_{i=1..n1} (1 - q^(n2+i)) / (1 - q^i).
double exact_survival(std::size_t n1, std::size_t n2, double u) {
  if (n1 > n2) std::swap(n1, n2);
  const std::size_t size = n1 * n2 + 1;
  std::vector<long double> coefficients(size, 0.0L);
  coefficients[0] = 1.0L;
  for (std::size_t i = 1; i <= n1; ++i) {
    const std::size_t up = n2 + i;
    for (std::size_t k = size; k-- > up;) coefficients[k] -= coefficients[k - up];
    // Dividing by (1 - q^i) is a running sum with stride i.
    for (std::size_t k = i; k < size; ++k) coefficients[k] += coefficients[k - i];
  }
  long double total = 0.0L;
  long double tail = 0.0L;
  for (std::size_t k = 0; k < size; ++k) {
    total += coefficients[k];
    if (static_cast<double>(k) >= u - 1e-9) tail += coefficients[k];
  }
  return static_cast<double>(tail / total);
}

// Standard normal survival function.
double normal_survival(double z) {
  return 0.5 * std::erfc(z / std::sqrt(2.0));
}

}  // namespace

mann_whitney mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.empty() || y.empty()) throw std::invalid_argument("Mann-Whitney U of an empty sample");
  std::vector<double> combined(x);
  combined.insert(combined.end(), y.begin(), y.end());
  const ranking ranked = rank_with_ties(combined);
  const auto n1 = static_cast<double>(x.size());
  const auto n2 = static_cast<double>(y.size());
  double rank_sum_x = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) rank_sum_x += ranked.ranks[i];
  mann_whitney result;
  result.u = rank_sum_x - n1 * (n1 + 1.0) / 2.0;
  const double u_larger = std::max(result.u, n1 * n2 - result.u);

  result.exact = (x.size() <= 8 || y.size() <= 8) && !ranked.has_ties;
  if (result.exact) {
    result.p_value = std::min(1.0, 2.0 * exact_survival(x.size(), y.size(), u_larger));
    return result;
  }
  const double n = n1 + n2;
  const double mean = n1 * n2 / 2.0;
  const double variance = n1 * n2 / 12.0 * ((n + 1.0) - ranked.tie_term / (n * (n - 1.0)));
  if (variance <= 0.0) {
    result.p_value = 1.0;  // every value equal: no evidence of a difference
    return result;
  }
  const double z = (u_larger - mean - 0.5) / std::sqrt(variance);
  result.p_value = std::clamp(2.0 * normal_survival(z), 0.0, 1.0);
  return result;
}

}  // namespace aorta::detail
