// The registry: the one list of collectors, in wrap order, and plan_launch, which nests their
// wraps. Adding a collector is one declaration and one entry here (plus its folder).
#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "option_text.hpp"
#include "collectors/wrap_nesting.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace aorta {
namespace detail {
const collector_base& rocprof_collector();
const collector_base& ncu_collector();
const collector_base& sanitizer_collector();
const collector_base& callgrind_collector();
const collector_base& proton_collector();
const collector_base& gbench_collector();
const collector_base& nvbench_collector();
const collector_base& numerics_collector();
const collector_base& layer_numerics_collector();
const collector_base& amd_log_collector();
}  // namespace detail

const std::vector<const collector_base*>& collectors() {
  // Wrap order, outermost first.
  static const std::vector<const collector_base*> all{
      &detail::rocprof_collector(),  &detail::ncu_collector(),
      &detail::sanitizer_collector(), &detail::callgrind_collector(),
      &detail::proton_collector(),
      // Innermost of the attaching ones: they append their flags to the benchmark's own argv, before
      // any profiler puts itself in front.
      &detail::gbench_collector(), &detail::nvbench_collector(),
      &detail::numerics_collector(), &detail::layer_numerics_collector(),
      &detail::amd_log_collector(),
  };
  return all;
}

const std::vector<std::string>& collector_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto* collector : collectors()) out.emplace_back(collector->name());
    return out;
  }();
  return names;
}

const collector_base* find_collector(std::string_view name) {
  for (const auto* collector : collectors()) {
    if (collector->name() == name) return collector;
  }
  return nullptr;
}

std::string collector_base::explain_empty(const capture& empty,
                                          const collector_config& /*config*/) const {
  return fmt::format("empty capture: {} recorded nothing under {}", empty.collector,
                     empty.artifact_dir.string());
}

platform_set collector_platforms(const std::vector<collector_request>& requested) {
  platform_set result = platform_set::all();
  for (const auto& request : requested) {
    const auto* collector = find_collector(request.name);
    if (collector == nullptr) return {};
    if (collector->attaches()) result = result.intersect(collector->platforms(*config_of(request)));
  }
  return result;
}

launch_plan plan_launch(const std::vector<collector_request>& requested,
                        const std::vector<std::string>& command,
                        const std::filesystem::path& trial_dir, const plan_context& context) {
  for (const auto& request : requested) {
    if (find_collector(request.name) != nullptr) continue;
    const std::string where = request.where.to_string();
    throw recipe_error(fmt::format("{}unknown collector '{}'; valid: {}.{}",
                                   where.empty() ? "" : where + ": ", request.name,
                                   fmt::join(collector_names(), ", "),
                                   detail::did_you_mean(request.name, collector_names())));
  }
  launch_plan plan;
  plan.argv = command;
  return detail::nest_wraps(
      requested, std::move(plan),
      [&trial_dir](const collector_base& collector) {
        return trial_dir / std::string(collector.name());
      },
      context);
}

namespace detail {

launch_plan nest_wraps(const std::vector<collector_request>& requested, launch_plan inner,
                       const collector_output_dir& output_dir, const plan_context& context,
                       std::vector<std::string>* wrapped) {
  for (auto collector = collectors().rbegin(); collector != collectors().rend(); ++collector) {
    if (!(*collector)->attaches()) continue;
    const auto request =
        std::find_if(requested.begin(), requested.end(),
                     [&](const collector_request& r) { return r.name == (*collector)->name(); });
    if (request == requested.end()) continue;
    inner = (*collector)->wrap(std::move(inner), *config_of(*request), output_dir(**collector),
                               context);
    if (wrapped != nullptr) wrapped->insert(wrapped->begin(), std::string((*collector)->name()));
  }
  return inner;
}

}  // namespace detail
}  // namespace aorta
