#include "captures/warmup_launches.hpp"

#include <algorithm>

namespace aorta::detail {

std::size_t warmup_launches(const std::vector<double>& times) {
  const std::size_t n = times.size();
  if (n < warmup_min_launches) return 0;
  std::vector<double> second_half(times.begin() + static_cast<std::ptrdiff_t>(n / 2), times.end());
  const auto middle = second_half.begin() + static_cast<std::ptrdiff_t>(second_half.size() / 2);
  std::nth_element(second_half.begin(), middle, second_half.end());
  const double steady = *middle * warmup_steady_factor;
  const std::size_t most = n / 2;
  std::size_t run = 0;
  for (std::size_t i = 0; i < n; ++i) {
    run = times[i] <= steady ? run + 1 : 0;
    if (run == warmup_steady_run) return std::min(i + 1 - warmup_steady_run, most);
  }
  return most;
}

}  // namespace aorta::detail
