#include "baseline/noise_floor.hpp"

#include "baseline/calibration.hpp"

#include <fmt/format.h>

#include <cmath>

namespace aorta::detail {

void raise_to_noise_floor(gate_row& row, double multiple) {
  if (row.exact || multiple <= 0.0 || row.base.size() < min_timed_samples) return;
  const auto sigma = log_noise(row.base);
  if (!sigma) return;
  // The gate tests on logs, so the floor is a log distance turned back into a fraction.
  const double floor = std::expm1(multiple * *sigma);
  if (!(floor > row.fraction)) return;
  row.floor_note = fmt::format("tolerance raised from +{:g}% to +{:.2f}%: the baseline's noise is "
                               "{:.2f}%{}",
                               row.fraction * 100.0, floor * 100.0, *sigma * 100.0,
                               multiple == 1.0 ? std::string()
                                               : fmt::format(" (x{:g}, the gate's floor)", multiple));
  row.fraction = floor;
  row.bound_text = fmt::format("<= baseline + {:.2f}% (noise floor)", floor * 100.0);
}

}  // namespace aorta::detail
