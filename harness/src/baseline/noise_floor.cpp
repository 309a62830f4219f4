#include "baseline/noise_floor.hpp"

#include "baseline/calibration.hpp"
#include "baseline/process_modes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace aorta::detail {

namespace {

// The spread of the logs about their own mode's mean (pooled, n - modes degrees of freedom) when
// the baseline's trials fall in process modes (process_modes.hpp); nullopt otherwise. The gap
// between modes is not noise the tolerance must absorb: the gate tests within the modes.
std::optional<double> within_mode_log_noise(const std::vector<double>& base, std::size_t& modes) {
  if (!std::all_of(base.begin(), base.end(), [](double v) { return v > 0.0; })) return std::nullopt;
  const auto split = detect_modes(base);
  modes = split.centres.size();
  if (modes < 2 || base.size() <= modes) return std::nullopt;
  std::vector<double> sum(modes, 0.0), count(modes, 0.0);
  for (std::size_t i = 0; i < base.size(); ++i) {
    sum[split.mode_of[i]] += std::log(base[i]);
    count[split.mode_of[i]] += 1.0;
  }
  double squares = 0.0;
  for (std::size_t i = 0; i < base.size(); ++i) {
    const double e = std::log(base[i]) - sum[split.mode_of[i]] / count[split.mode_of[i]];
    squares += e * e;
  }
  return std::sqrt(squares / static_cast<double>(base.size() - modes));
}

}  // namespace

void raise_to_noise_floor(gate_row& row, double multiple) {
  if (row.exact || multiple <= 0.0 || row.base.size() < min_timed_samples) return;
  std::size_t modes = 0;
  const auto within = within_mode_log_noise(row.base, modes);
  const auto sigma = within ? within : log_noise(row.base);
  if (!sigma) return;
  // The gate tests on logs, so the floor is a log distance turned back into a fraction.
  const double floor = std::expm1(multiple * *sigma);
  if (!(floor > row.fraction)) return;
  row.floor_note = fmt::format("tolerance raised from +{:g}% to +{:.2f}%: the baseline's noise is "
                               "{:.2f}%{}{}",
                               row.fraction * 100.0, floor * 100.0, *sigma * 100.0,
                               within ? fmt::format(" within its {} process modes", modes) : "",
                               multiple == 1.0 ? std::string()
                                               : fmt::format(" (x{:g}, the gate's floor)", multiple));
  row.fraction = floor;
  row.bound_text = fmt::format("<= baseline + {:.2f}% (noise floor)", floor * 100.0);
}

}  // namespace aorta::detail
