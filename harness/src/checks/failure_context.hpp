// What a failed check shows below its reason: the five hottest kernels, the scopes or functions
// with the most cost, or the findings a checker reported, whichever the check is about.
#pragma once

#include "aorta/capture.hpp"
#include "aorta/check.hpp"

#include <string>
#include <vector>

namespace aorta::detail {

[[nodiscard]] std::string failure_context(const check_expression& expression,
                                          const std::vector<capture>& captures);

}  // namespace aorta::detail
