#include "baseline/welch_p_values.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace aorta::detail {
namespace {

// Continued fraction of the regularized incomplete beta function I_x(a, b) (modified Lentz),
// accurate to ~1e-15 for x < (a + 1) / (a + b + 2), where it converges fast.
double beta_continued_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  constexpr double epsilon = 1e-16;
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::abs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double result = d;
  for (int m = 1; m <= 10000; ++m) {
    const double m2 = 2.0 * m;
    for (const double numerator :
         {m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)),
          -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0))}) {
      d = 1.0 + numerator * d;
      if (std::abs(d) < tiny) d = tiny;
      c = 1.0 + numerator / c;
      if (std::abs(c) < tiny) c = tiny;
      d = 1.0 / d;
      result *= d * c;
    }
    if (std::abs(d * c - 1.0) < epsilon) break;
  }
  return result;
}

double regularized_beta(double a, double b, double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  const double log_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                           a * std::log(x) + b * std::log1p(-x);
  if (x < (a + 1.0) / (a + b + 2.0)) {
    return std::exp(log_front) * beta_continued_fraction(a, b, x) / a;
  }
  return 1.0 - std::exp(log_front) * beta_continued_fraction(b, a, 1.0 - x) / b;
}

struct trimmed_moments {
  double mean = 0.0;
  double scaled_variance = 0.0;  // winsorized sum of squares / (h (h - 1)): the mean's variance
  double kept = 0.0;             // h = n - 2g
};

trimmed_moments trimmed(std::vector<double> values, double trim) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  const auto g = static_cast<std::size_t>(std::floor(trim * static_cast<double>(n)));
  if (n < 2 * g + 2) {
    throw std::invalid_argument("trimmed t-test: a sample needs at least 2 values after trimming");
  }
  const std::size_t h = n - 2 * g;
  trimmed_moments moments;
  moments.kept = static_cast<double>(h);
  moments.mean = std::accumulate(values.begin() + static_cast<std::ptrdiff_t>(g),
                                 values.end() - static_cast<std::ptrdiff_t>(g), 0.0) /
                 moments.kept;
  for (std::size_t i = 0; i < g; ++i) {
    values[i] = values[g];
    values[n - 1 - i] = values[n - 1 - g];
  }
  const double winsorized_mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(n);
  double squares = 0.0;
  for (const double value : values) squares += (value - winsorized_mean) * (value - winsorized_mean);
  moments.scaled_variance = squares / (moments.kept * (moments.kept - 1.0));
  return moments;
}

}  // namespace

double student_t_survival(double t, double df) {
  if (std::isnan(t)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(t)) return t > 0 ? 0.0 : 1.0;
  const double tail = 0.5 * regularized_beta(df / 2.0, 0.5, df / (df + t * t));
  return t > 0 ? tail : 1.0 - tail;
}

trimmed_t_test yuen_greater(const std::vector<double>& x, const std::vector<double>& y, double trim) {
  const auto a = trimmed(x, trim);
  const auto b = trimmed(y, trim);
  trimmed_t_test result;
  const double variance = a.scaled_variance + b.scaled_variance;
  const double difference = a.mean - b.mean;
  if (variance <= 0.0) {
    result.t = difference > 0 ? INFINITY : (difference < 0 ? -INFINITY : 0.0);
    result.df = a.kept + b.kept - 2.0;
    result.p_value = difference > 0 ? 0.0 : 1.0;
    return result;
  }
  result.t = difference / std::sqrt(variance);
  result.df = variance * variance /
              (a.scaled_variance * a.scaled_variance / (a.kept - 1.0) +
               b.scaled_variance * b.scaled_variance / (b.kept - 1.0));
  result.p_value = student_t_survival(result.t, result.df);
  return result;
}

trimmed_t_test welch_greater(const std::vector<double>& x, const std::vector<double>& y) {
  return yuen_greater(x, y, 0.0);
}

namespace {

// t with P(T >= t) = tail for Student's t with `df` degrees of freedom, by bisection (tail < 0.5).
double student_t_upper_quantile(double tail, double df) {
  double low = 0.0;
  double high = 1.0;
  while (student_t_survival(high, df) > tail) high *= 2.0;
  for (int step = 0; step < 200 && high - low > 1e-12 * high; ++step) {
    const double middle = (low + high) / 2.0;
    (student_t_survival(middle, df) > tail ? low : high) = middle;
  }
  return (low + high) / 2.0;
}

}  // namespace

double grubbs_critical(std::size_t n, double level) {
  const double count = static_cast<double>(n);
  const double t = student_t_upper_quantile(level / (2.0 * count), count - 2.0);
  return (count - 1.0) / std::sqrt(count) * std::sqrt(t * t / (count - 2.0 + t * t));
}

double grubbs_statistic(const std::vector<double>& values) {
  const double count = static_cast<double>(values.size());
  const double mean = std::accumulate(values.begin(), values.end(), 0.0) / count;
  double squares = 0.0;
  double farthest = 0.0;
  for (const double value : values) {
    squares += (value - mean) * (value - mean);
    farthest = std::max(farthest, std::abs(value - mean));
  }
  const double deviation = std::sqrt(squares / (count - 1.0));
  return deviation > 0.0 ? farthest / deviation : 0.0;
}

bool grubbs_outlier(const std::vector<double>& values, double level) {
  if (values.size() < 3) return false;
  // The critical value takes a bisection over Student's t; a gate asks for the same few (n, level)
  // pairs for every row at every look.
  thread_local std::map<std::pair<std::size_t, double>, double> criticals;
  const auto key = std::make_pair(values.size(), level);
  auto found = criticals.find(key);
  if (found == criticals.end()) {
    found = criticals.emplace(key, grubbs_critical(values.size(), level)).first;
  }
  return grubbs_statistic(values) > found->second;
}

std::vector<double> holm_adjusted(const std::vector<double>& p_values) {
  std::vector<std::size_t> order(p_values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t i, std::size_t j) { return p_values[i] < p_values[j]; });
  std::vector<double> adjusted(p_values.size(), 1.0);
  double running = 0.0;
  const auto m = static_cast<double>(p_values.size());
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    const double scaled = std::min(1.0, (m - static_cast<double>(rank)) * p_values[order[rank]]);
    running = std::max(running, scaled);
    adjusted[order[rank]] = running;
  }
  return adjusted;
}

}  // namespace aorta::detail
