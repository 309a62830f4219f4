// Versions recorded in result.json: which profiler, Triton and driver produced the numbers. The
// capture itself does not say (a Proton hatchet never names its backend or Triton version); each
// collector probes its own tools (collector_base::probe_versions).
#pragma once

#include "aorta/launch_plan.hpp"
#include "aorta/recipe.hpp"

#include <map>
#include <string>
#include <vector>

namespace aorta::detail {

[[nodiscard]] std::map<std::string, std::string>
tool_versions(const recipe& spec, const std::vector<std::string>& command,
              const env_map& environment);

}  // namespace aorta::detail
