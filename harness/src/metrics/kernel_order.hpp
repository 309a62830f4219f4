// The order and units of compute_metrics' kernel rows, for a writer that prints the rows of a
// capture straight from its kernels (`aorta check --json`) instead of holding them as rows.
#pragma once

#include "aorta/capture.hpp"

#include <vector>

namespace aorta::detail {

inline constexpr double ns_per_ms = 1e6;

// The capture's kernels hottest first, equal times in the capture's order.
[[nodiscard]] std::vector<const kernel_stat*> kernels_by_time(const capture& source);

}  // namespace aorta::detail
