// Why a profiler came back with nothing, in words a user can act on.
#pragma once

#include "aorta/capture.hpp"
#include "aorta/recipe.hpp"

#include <string>

namespace aorta::detail {

[[nodiscard]] std::string explain_empty_capture(const capture& empty, const option_map& options);

}  // namespace aorta::detail
