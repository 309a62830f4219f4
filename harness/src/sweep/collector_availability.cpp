// Whether this machine can run a recipe's collectors: the GPU a profiler needs, the tool itself,
// and the platforms of the lane (sweep_steps.hpp).
#include "sweep/sweep_steps.hpp"

#include "aorta/collector.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <system_error>

namespace aorta {
namespace {

// Device nodes of the GPU drivers a profiler needs: NVIDIA (nvidiactl) or AMD (kfd).
bool gpu_present() {
  for (const char* node : {"/dev/nvidiactl", "/dev/nvidia0", "/dev/kfd"}) {
    std::error_code ignored;
    if (std::filesystem::exists(node, ignored)) return true;
  }
  return false;
}

}  // namespace

namespace detail {

std::optional<std::string>
unavailable_collector(const recipe& spec, const env_map& env,
                      const std::map<std::string, std::string>& versions) {
  for (const auto& request : spec.collect) {
    const auto* collector = find_collector(request.name);
    if (collector == nullptr || !collector->attaches()) continue;
    if (collector->profiles_gpu() && !gpu_present()) {
      return fmt::format("{} needs a GPU and this machine has none (no /dev/nvidiactl, "
                         "/dev/nvidia0 or /dev/kfd)",
                         request.name);
    }
    if (auto reason = collector->unavailable_reason(*config_of(request), env, versions)) {
      return fmt::format("{} collector unavailable: {}", request.name, *reason);
    }
  }
  return std::nullopt;
}

std::optional<std::string> not_applicable_reason(const recipe& spec,
                                                 const std::optional<platform_set>& lane) {
  if (!lane) return std::nullopt;
  const platform_set belongs = collector_platforms(spec.collect);
  if (!belongs.intersect(*lane).empty()) return std::nullopt;
  std::string runs;
  for (const auto& request : spec.collect) {
    const auto* collector = find_collector(request.name);
    if (collector == nullptr || !collector->attaches()) continue;
    runs += fmt::format("{}{} ({})", runs.empty() ? "" : ", ", request.name,
                        to_string(collector->platforms(*config_of(request))));
  }
  return fmt::format("not applicable on this lane: it covers {} (--platforms), and the recipe's "
                     "collectors capture only on {}: {}",
                     to_string(*lane), to_string(belongs), runs);
}

}  // namespace detail
}  // namespace aorta
