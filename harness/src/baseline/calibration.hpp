// What a row's noise supports: from the baseline's own trials (repeats of unchanged code, an A/A
// run), the trial-to-trial noise of a timed row and the trials a side the gate needs to catch a
// given slowdown. The prediction is a seeded simulation of the gate's own rule (Welch's one-sided t
// on the logs against the margin, the estimate past the tolerance; gate_rule.cpp) on lognormal
// noise of the measured size, so it is the rule itself, not an approximation of it
// (docs/regression-gate.md, "Calibration").
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

// Standard deviation of the log of the samples (~ the CV for small noise); needs 2 positive samples.
[[nodiscard]] std::optional<double> log_noise(const std::vector<double>& samples);

struct detection_question {
  double sigma = 0.0;       // log noise of one trial
  double tolerance = 0.05;  // the gate's `time +N%`
  double shift = 0.10;      // the slowdown to catch
  double alpha = 0.05;      // the level the row is tested at (alpha / rows for a worst-case Holm)
};

// The share of gates with n trials a side that call such a shift SLOWER (2000 seeded gates).
[[nodiscard]] double predicted_detection(const detection_question& question, int trials);

// The fewest trials a side (3..limit) that reach `power`; nullopt when even `limit` does not.
[[nodiscard]] std::optional<int> trials_needed(const detection_question& question, double power,
                                               int limit = 100);

// One line for `baseline show` about a timed row's samples in a test of `family` timed rows:
// its noise and the trials a side that catch +10% under `time +5%` with 95% power at
// alpha 0.05 / family (Holm's first step, the worst case), or that no count up to 100 does.
// nullopt with fewer than 2 positive samples.
[[nodiscard]] std::optional<std::string> describe_noise(const std::vector<double>& samples,
                                                        std::size_t family);

}  // namespace aorta::detail
