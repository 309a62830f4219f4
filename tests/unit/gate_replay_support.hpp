// Synthetic tests for the gate's seeded replays (gate_power_replay_test, gate_simulation_test):
// each kernel's time per trial is lognormal around its own scale, one kernel can be made slower,
// and the tests are judged by judge_gate under the policy `aorta compare` uses (the default gate
// line, one look, Holm per test, the noise floor).
#pragma once

#include "baseline/gate_judge.hpp"
#include "baseline/default_gate.hpp"
#include "baseline/measured_series.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace aorta::replay {

struct trial_noise {
  std::mt19937_64 engine;
  double sigma = 0.0;  // of the log of one trial's time

  trial_noise(std::uint64_t seed, double cv)
      : engine(seed), sigma(std::sqrt(std::log1p(cv * cv))) {}

  double time_ms(std::size_t kernel, double shift) {
    const double scale = 0.05 * static_cast<double>(kernel + 1);
    return scale * std::exp(std::normal_distribution<double>(0.0, sigma)(engine)) * (1.0 + shift);
  }
};

inline std::string kernel_name(std::size_t kernel) { return fmt::format("k{:02}", kernel); }

// Names k00, k01, ... made once: the simulations build hundreds of thousands of trials.
inline const std::vector<std::string>& kernel_names(std::size_t kernels) {
  static std::vector<std::string> names;
  while (names.size() < kernels) names.push_back(kernel_name(names.size()));
  return names;
}

// `trials` trials of `kernels` kernels, one launch each; kernel i is (1 + shift_of(i)) slower.
template <typename Shift>
detail::measured_test synthetic_test(trial_noise& noise, std::size_t kernels, std::size_t trials,
                                     Shift shift_of) {
  detail::measured_test test;
  test.test = "replay";
  test.fingerprint["gpu"] = "Replay GPU";
  const auto& names = kernel_names(kernels);
  for (std::size_t t = 0; t < trials; ++t) {
    detail::trial_snapshot snapshot;
    for (std::size_t k = 0; k < kernels; ++k) {
      // Names sort in kernel order, so each goes at the end.
      snapshot.kernels.emplace_hint(snapshot.kernels.end(), names[k],
                                    detail::kernel_sample{1.0, noise.time_ms(k, shift_of(k))});
    }
    test.trials.push_back(std::move(snapshot));
  }
  return test;
}

// What `aorta compare BASE NEW` judges with when given no --gate: one look at all of alpha.
inline detail::gate_policy compare_policy() {
  detail::gate_policy policy;
  policy.gate = detail::parse_gate_spec(detail::default_gate_text);
  policy.unknown_fails = false;
  policy.ambiguous = ambiguous_policy::pass;  // compare's default: it shows AMBIGUOUS rows
  return policy;
}

inline bool row_slower(const detail::gate_judgement& judged, const std::string& label) {
  for (const auto& row : judged.rows) {
    if (row.label == label) return row.verdict == detail::gate_verdict::worse;
  }
  return false;
}

}  // namespace aorta::replay
