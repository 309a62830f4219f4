// The words of a judged check's message (check_result::message), shared by every judge (one
// capture, the ranks of a trial, the cells of a sweep) so that a passed or failed check reads the
// same wherever it ran.
#pragma once

#include "aorta/check.hpp"

#include <string>

namespace aorta::detail {

// "check passed: EXPR (actual: ACTUAL)".
[[nodiscard]] std::string passed_check_message(const check_result& result);

// "check failed: EXPR", then expected, actual and (when not empty) why, one per line; the caller
// appends what helps the reader further (the hottest kernels, the cells' medians).
[[nodiscard]] std::string failed_check_message(const check_result& result, const std::string& why);

}  // namespace aorta::detail
