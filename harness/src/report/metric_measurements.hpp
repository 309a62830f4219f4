// A metric set as measurements a dashboard keeps (the CTest reporter's): every finite number,
// named as the metric, its value exact.
#pragma once

#include "aorta/metrics.hpp"
#include "reporting/reporter.hpp"

#include <vector>

namespace aorta::detail {

[[nodiscard]] std::vector<reporting::measurement> metric_measurements(const metric_set& metrics);

}  // namespace aorta::detail
