#include "baseline/calibration.hpp"

#include "baseline/gate_rule.hpp"
#include "baseline/welch_p_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace aorta::detail {

std::optional<double> log_noise(const std::vector<double>& samples) {
  std::vector<double> logs;
  for (const double value : samples) {
    if (value > 0) logs.push_back(std::log(value));
  }
  if (logs.size() < 2) return std::nullopt;
  double mean = 0.0;
  for (const double value : logs) mean += value;
  mean /= static_cast<double>(logs.size());
  double squares = 0.0;
  for (const double value : logs) squares += (value - mean) * (value - mean);
  return std::sqrt(squares / static_cast<double>(logs.size() - 1));
}

double predicted_detection(const detection_question& question, int trials) {
  constexpr int gates = 2000;
  // One seed for every question: the same row always gets the same answer.
  std::mt19937_64 engine(20261201);
  std::normal_distribution<double> noise(0.0, question.sigma);
  const double bound = std::log1p(question.tolerance);
  // The gate's rule (gate_rule.cpp): Welch's t against the margin (Yuen's when Grubbs finds an
  // outlier on a side), and the estimate past the bound itself.
  const double margin = bound > 0.0 ? gate_margin_share * bound : bound;
  const double outlier = grubbs_critical(static_cast<std::size_t>(trials), gate_outlier_level);
  const double slower = std::log1p(question.shift);
  std::vector<double> base(static_cast<std::size_t>(trials));
  std::vector<double> fresh(static_cast<std::size_t>(trials));
  std::vector<double> at_bound(static_cast<std::size_t>(trials));
  int caught = 0;
  for (int gate = 0; gate < gates; ++gate) {
    for (auto& value : base) value = noise(engine);
    for (std::size_t i = 0; i < fresh.size(); ++i) {
      fresh[i] = noise(engine) + slower - margin;
      at_bound[i] = fresh[i] + margin - bound;
    }
    const double trim =
        grubbs_statistic(base) > outlier || grubbs_statistic(fresh) > outlier ? gate_trim : 0.0;
    const bool beyond = yuen_greater(at_bound, base, trim).t > 0;
    caught += beyond && yuen_greater(fresh, base, trim).p_value < question.alpha ? 1 : 0;
  }
  return static_cast<double>(caught) / gates;
}

std::optional<int> trials_needed(const detection_question& question, double power, int limit) {
  if (question.shift <= question.tolerance) return std::nullopt;
  if (predicted_detection(question, limit) < power) return std::nullopt;
  int low = 3;  // the answer lies in [low, high]
  int high = limit;
  while (low < high) {
    const int middle = (low + high) / 2;
    if (predicted_detection(question, middle) >= power) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  return low;
}

std::optional<std::string> describe_noise(const std::vector<double>& samples, std::size_t family) {
  const auto sigma = log_noise(samples);
  if (!sigma) return std::nullopt;
  detection_question question;
  question.sigma = *sigma;
  question.alpha = 0.05 / static_cast<double>(std::max<std::size_t>(family, 1));
  const auto needed = trials_needed(question, 0.95);
  const std::string noise = fmt::format("noise {:.2f}% over {} trial(s)", *sigma * 100.0, samples.size());
  if (!needed) {
    return noise + "; +10% under time +5% cannot be caught with 95% at <= 100 trials a side: widen "
                   "the tolerance or gate its count";
  }
  return fmt::format("{}; +10% under time +5% caught with 95% at {} trial(s) a side (alpha "
                     "0.05/{}){}",
                     noise, *needed, std::max<std::size_t>(family, 1),
                     samples.size() < static_cast<std::size_t>(*needed) ? ": record more" : "");
}

}  // namespace aorta::detail
