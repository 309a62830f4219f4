// Collector names, each request's options, and the rules about which collectors may share a run
// that follow from what the collectors declare (guard 8 of docs/guards.md and the pairings ncu and
// callgrind add). Rules that involve one collector's own options live in its folder
// (collector_base::check_companions).
#include "aorta/collector.hpp"

#include "aorta/check.hpp"
#include "option_text.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace aorta {
namespace {

void reject_unknown_names(const std::vector<collector_request>& requested) {
  std::vector<std::string> unknown;
  for (const auto& request : requested) {
    if (find_collector(request.name) == nullptr) unknown.push_back(request.name);
  }
  if (unknown.empty()) return;
  throw option_error(unknown.front(), "",
                     fmt::format("unknown collector(s) [{}]; valid: [{}].{} Fix: use one of the "
                                 "valid names.",
                                 detail::join(unknown), detail::join(collector_names()),
                                 detail::did_you_mean(unknown.front(), collector_names())));
}

bool attaches_to_gpu(const collector_base& collector) {
  return collector.attaches() && collector.profiles_gpu();
}

// A collector that measures the process on the CPU (callgrind, gbench) and a GPU profiler spoil
// each other's capture; the collector says how (gpu_profiler_conflict).
void check_cpu_profiler_alone(const std::vector<collector_request>& requested) {
  const auto cpu = std::find_if(requested.begin(), requested.end(), [](const auto& r) {
    const auto* collector = find_collector(r.name);
    return collector->attaches() && !collector->profiles_gpu();
  });
  if (cpu == requested.end()) return;
  std::vector<std::string> gpu;
  for (const auto& request : requested) {
    if (attaches_to_gpu(*find_collector(request.name))) gpu.push_back(request.name);
  }
  if (gpu.empty()) return;
  std::vector<std::string> asked;
  for (const auto& request : requested) asked.push_back(request.name);
  std::vector<std::string> allowed;
  for (const auto& name : collector_names()) {
    if (name != cpu->name && !attaches_to_gpu(*find_collector(name))) allowed.push_back(name);
  }
  throw option_error(
      cpu->name, "",
      fmt::format("{} cannot run together with the GPU collector(s) [{}] (collect: [{}]): {}. "
                  "Allowed beside {}: the collectors that profile no GPU, [{}]. Fix: profile CPU "
                  "and GPU in separate tests (one recipe with {}, one with {}).",
                  cpu->name, detail::join(gpu), detail::join(asked),
                  find_collector(cpu->name)->gpu_profiler_conflict(), cpu->name,
                  detail::join(allowed), cpu->name, detail::join(gpu)));
}

std::string vendor_names(platform_set platforms) {
  std::string names;
  for (const platform member : {platform::nvidia, platform::amd}) {
    if (!platforms.contains(member)) continue;
    if (!names.empty()) names += " and ";
    names += member == platform::nvidia ? "NVIDIA" : "AMD";
  }
  return names;
}

// Two GPU profilers of different vendors: one of them always captures nothing.
void check_gpu_vendors_meet(const std::vector<collector_request>& requested) {
  for (auto first = requested.begin(); first != requested.end(); ++first) {
    const auto* a = find_collector(first->name);
    if (!a->attaches() || !a->profiles_gpu()) continue;
    for (auto second = std::next(first); second != requested.end(); ++second) {
      const auto* b = find_collector(second->name);
      if (!b->attaches() || !b->profiles_gpu()) continue;
      const platform_set on_a = a->platforms(*first->config);
      const platform_set on_b = b->platforms(*second->config);
      if (!on_a.intersect(on_b).empty()) continue;
      // Point at the one that came second (the one added to the other); name them in the
      // registry's order so the message reads the same either way round.
      const auto registry_rank = [](std::string_view name) {
        const auto& names = collector_names();
        return std::find(names.begin(), names.end(), name) - names.begin();
      };
      const bool swap = registry_rank(first->name) > registry_rank(second->name);
      const auto& [one, one_on] = swap ? std::pair{second->name, on_b} : std::pair{first->name, on_a};
      const auto& [other, other_on] =
          swap ? std::pair{first->name, on_a} : std::pair{second->name, on_b};
      throw option_error(
          second->name, "",
          fmt::format("{} and {} cannot run together: {} profiles {} GPUs and {} {} GPUs, so one "
                      "of them always captures nothing. Fix: keep the one that matches the GPU "
                      "the test runs on, or use separate tests.",
                      one, other, one, vendor_names(one_on), other, vendor_names(other_on)));
    }
  }
}

}  // namespace

std::shared_ptr<const collector_config> config_of(const collector_request& request) {
  if (request.config) return request.config;
  const auto* collector = find_collector(request.name);
  if (collector == nullptr) {
    throw option_error(request.name, "",
                       fmt::format("unknown collector '{}'; valid: [{}].{}", request.name,
                                   detail::join(collector_names()),
                                   detail::did_you_mean(request.name, collector_names())));
  }
  return collector->parse_options(request.options);
}

void validate_collectors(std::vector<collector_request>& requested) {
  reject_unknown_names(requested);
  for (auto& request : requested) {
    request.config = find_collector(request.name)->parse_options(request.options);
  }
  check_cpu_profiler_alone(requested);
  check_gpu_vendors_meet(requested);
  for (const auto& request : requested) {
    find_collector(request.name)->check_companions(request, requested);
  }
}

void validate_collectors(const std::vector<collector_request>& requested) {
  std::vector<collector_request> copy = requested;
  validate_collectors(copy);
}

void require_collectors_for_checks(const recipe& spec,
                                   const std::vector<check_expression>& checks) {
  for (const collector_base* collector : collectors()) {
    const auto own = std::find_if(spec.collect.begin(), spec.collect.end(),
                                  [collector](const collector_request& request) {
                                    return request.name == collector->name();
                                  });
    collector->require_for_checks(own == spec.collect.end() ? nullptr : &*own, spec, checks);
  }
}

}  // namespace aorta
