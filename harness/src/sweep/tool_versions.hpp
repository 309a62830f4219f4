// Versions recorded in result.json: which profiler, Triton and driver produced the numbers. The
// capture itself does not say (a Proton hatchet never names its backend or Triton version).
#pragma once

#include "aorta/launch_plan.hpp"
#include "aorta/recipe.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

[[nodiscard]] std::map<std::string, std::string>
tool_versions(const recipe& spec, const std::vector<std::string>& command,
              const env_map& environment);

// The first line a short command prints on stdout, or nullopt if it cannot run or fails.
[[nodiscard]] std::optional<std::string> first_output_line(const std::vector<std::string>& argv,
                                                           const env_map& environment);

}  // namespace aorta::detail
