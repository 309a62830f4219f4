// Which metrics a trial shows in the terminal and as CTest measurements: the ones its checks read
// plus a chosen set, so the verdict is not buried under dozens of numbers nobody asked for.
#pragma once

#include "aorta/check.hpp"
#include "aorta/metrics.hpp"
#include "reporting/reporter.hpp"

#include <string>
#include <vector>

namespace aorta::detail {

// The metrics of `metrics` that `checks` read (a metric check's name; an ir() check's
// callgrind_ir./callgrind_self_ir. keys whose function matches; a cycles() check's scope keys)
// plus those named in `chosen` (exact names; "all": every metric but the loader's and libc's
// callgrind functions). Kernel rows and notes are
// kept as they are. `hidden` is set to how many metrics were left out.
[[nodiscard]] metric_set select_metrics(const metric_set& metrics,
                                        const std::vector<check_expression>& checks,
                                        const std::vector<std::string>& chosen,
                                        std::size_t& hidden);

// One measurement per check whose actual value starts with a number, named "check: EXPR".
[[nodiscard]] std::vector<reporting::measurement>
check_measurements(const std::vector<check_result>& results);

}  // namespace aorta::detail
