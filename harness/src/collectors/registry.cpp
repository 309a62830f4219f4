// The collector registry: one collector_base per name, in wrap order, and plan_launch, which nests
// their wraps. The argv shapes live in the *_wrap.cpp files as pure functions of typed options;
// the classes here parse the option_map and forward.
#include "aorta/callgrind_reader.hpp"
#include "aorta/callgrind_wrap.hpp"
#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "aorta/hatchet_reader.hpp"
#include "aorta/ncu_reader.hpp"
#include "aorta/ncu_wrap.hpp"
#include "aorta/proton_wrap.hpp"
#include "aorta/rocprof_reader.hpp"
#include "aorta/rocprof_wrap.hpp"
#include "collectors/sanitizer/sanitizer_collector.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <memory>

namespace aorta {
namespace {

launch_plan prefixed(launch_plan inner, std::vector<std::string> prefix) {
  prefix.insert(prefix.end(), std::make_move_iterator(inner.argv.begin()),
                std::make_move_iterator(inner.argv.end()));
  inner.argv = std::move(prefix);
  return inner;
}

template <typename Resolve>
std::optional<std::string> reason_if_missing(Resolve resolve) {
  try {
    (void)resolve();
    return std::nullopt;
  } catch (const skip_error& missing) {
    return std::string(missing.what());
  }
}

// `aorta sweep run --dry-run` shows the wrap even where the profiler is not installed: the sweep
// marks its planning environment with AORTA_DRY_RUN, and a missing binary is then named instead of
// refused (the dry run reports it as missing separately).
template <typename Resolve>
std::string resolved_or_marked_missing(Resolve resolve, std::string_view binary,
                                       const env_map& env) {
  if (!env.contains("AORTA_DRY_RUN")) return resolve();
  try {
    return resolve();
  } catch (const skip_error&) {
    return fmt::format("<{}: not installed>", binary);
  }
}

class rocprof_collector final : public collector_base {
public:
  [[nodiscard]] std::string_view name() const override { return "rocprof"; }
  void validate(const option_map& options,
                const std::vector<collector_request>& /*all_requested*/) const override {
    (void)parse_rocprof_options(options);
  }
  [[nodiscard]] std::optional<std::string> unavailable_reason(const option_map& /*options*/,
                                                              const env_map& env) const override {
    return reason_if_missing([&] { return resolve_rocprof_binary(env); });
  }
  [[nodiscard]] launch_plan wrap(launch_plan inner, const option_map& options,
                                 const std::filesystem::path& output_dir,
                                 const env_map& env) const override {
    return prefixed(std::move(inner), rocprof_argv(parse_rocprof_options(options), output_dir,
                                                   resolved_or_marked_missing(
                                                       [&] { return resolve_rocprof_binary(env); },
                                                       "rocprofv3", env)));
  }
  [[nodiscard]] capture read_capture(const std::filesystem::path& output_dir,
                                     const option_map& /*options*/) const override {
    return read_rocprof_capture(output_dir);
  }
  [[nodiscard]] platform_set platforms(const option_map& /*options*/) const override {
    return {platform::amd};
  }
};

class ncu_collector final : public collector_base {
public:
  [[nodiscard]] std::string_view name() const override { return "ncu"; }
  void validate(const option_map& options,
                const std::vector<collector_request>& /*all_requested*/) const override {
    (void)parse_ncu_options(options);
  }
  [[nodiscard]] std::optional<std::string> unavailable_reason(const option_map& /*options*/,
                                                              const env_map& env) const override {
    return reason_if_missing([&] { return resolve_ncu_binary(env); });
  }
  [[nodiscard]] launch_plan wrap(launch_plan inner, const option_map& options,
                                 const std::filesystem::path& output_dir,
                                 const env_map& env) const override {
    return prefixed(
        std::move(inner),
        ncu_argv(parse_ncu_options(options), output_dir,
                 resolved_or_marked_missing([&] { return resolve_ncu_binary(env); }, "ncu", env)));
  }
  [[nodiscard]] capture read_capture(const std::filesystem::path& output_dir,
                                     const option_map& /*options*/) const override {
    return read_ncu_capture(output_dir);
  }
  [[nodiscard]] platform_set platforms(const option_map& /*options*/) const override {
    return {platform::nvidia};
  }
};

class callgrind_collector final : public collector_base {
public:
  [[nodiscard]] std::string_view name() const override { return "callgrind"; }
  void validate(const option_map& options,
                const std::vector<collector_request>& /*all_requested*/) const override {
    (void)parse_callgrind_options(options);
  }
  [[nodiscard]] std::optional<std::string> unavailable_reason(const option_map& /*options*/,
                                                              const env_map& env) const override {
    return reason_if_missing([&] { return resolve_valgrind_binary(env); });
  }
  [[nodiscard]] launch_plan wrap(launch_plan inner, const option_map& options,
                                 const std::filesystem::path& output_dir,
                                 const env_map& env) const override {
    return prefixed(
        std::move(inner),
        callgrind_argv(parse_callgrind_options(options), output_dir,
                       resolved_or_marked_missing([&] { return resolve_valgrind_binary(env); },
                                                  "valgrind", env)));
  }
  [[nodiscard]] capture read_capture(const std::filesystem::path& output_dir,
                                     const option_map& /*options*/) const override {
    return read_callgrind_capture(output_dir);
  }
  [[nodiscard]] bool profiles_gpu() const override { return false; }
};

class proton_collector final : public collector_base {
public:
  [[nodiscard]] std::string_view name() const override { return "proton"; }
  void validate(const option_map& options,
                const std::vector<collector_request>& /*all_requested*/) const override {
    (void)parse_proton_options(options);
  }
  [[nodiscard]] std::optional<std::string> unavailable_reason(const option_map& options,
                                                              const env_map& env) const override {
    return proton_unavailable_reason(parse_proton_options(options), env);
  }
  [[nodiscard]] launch_plan wrap(launch_plan inner, const option_map& options,
                                 const std::filesystem::path& output_dir,
                                 const env_map& env) const override {
    return proton_wrap(std::move(inner), parse_proton_options(options), output_dir, env);
  }
  [[nodiscard]] capture read_capture(const std::filesystem::path& output_dir,
                                     const option_map& options) const override {
    hatchet_read_options read_options;
    read_options.requested_backend = parse_proton_options(options).backend;
    return read_hatchet_capture(output_dir, read_options);
  }
  [[nodiscard]] platform_set platforms(const option_map& options) const override {
    const proton_options parsed = parse_proton_options(options);
    if (parsed.amd_backend()) return {platform::amd};
    if (parsed.backend == "cupti") return {platform::nvidia};
    return {platform::nvidia, platform::amd};  // auto and instrumentation run on both vendors
  }
};

// numerics, layer_numerics, amd_log: the original validates them (any string options) and leaves
// them to opt-in workload wrappers; aorta neither wraps nor reads anything for them.
class validated_only_collector final : public collector_base {
public:
  explicit validated_only_collector(std::string_view name) : m_name(name) {}
  [[nodiscard]] std::string_view name() const override { return m_name; }
  void validate(const option_map& /*options*/,
                const std::vector<collector_request>& /*all_requested*/) const override {}
  [[nodiscard]] std::optional<std::string>
  unavailable_reason(const option_map& /*options*/, const env_map& /*env*/) const override {
    return std::nullopt;
  }
  [[nodiscard]] launch_plan wrap(launch_plan inner, const option_map& /*options*/,
                                 const std::filesystem::path& /*output_dir*/,
                                 const env_map& /*env*/) const override {
    return inner;
  }
  [[nodiscard]] capture read_capture(const std::filesystem::path& output_dir,
                                     const option_map& /*options*/) const override {
    capture empty;
    empty.collector = m_name;
    empty.artifact_dir = output_dir;
    return empty;
  }
  [[nodiscard]] bool attaches() const override { return false; }
  [[nodiscard]] bool profiles_gpu() const override { return false; }

private:
  std::string_view m_name;
};

// Wrap order, outermost first; collector_names() lists the same names in the same order.
const std::array<std::unique_ptr<const collector_base>, 8>& registry() {
  static const std::array<std::unique_ptr<const collector_base>, 8> collectors{
      std::make_unique<rocprof_collector>(),
      std::make_unique<ncu_collector>(),
      make_sanitizer_collector(),
      std::make_unique<callgrind_collector>(),
      std::make_unique<proton_collector>(),
      std::make_unique<validated_only_collector>("numerics"),
      std::make_unique<validated_only_collector>("layer_numerics"),
      std::make_unique<validated_only_collector>("amd_log"),
  };
  return collectors;
}

}  // namespace

const collector_base* find_collector(std::string_view name) {
  for (const auto& collector : registry()) {
    if (collector->name() == name) return collector.get();
  }
  return nullptr;
}

platform_set collector_platforms(const std::vector<collector_request>& requested) {
  platform_set result = platform_set::all();
  for (const auto& request : requested) {
    const auto* collector = find_collector(request.name);
    if (collector == nullptr) return {};
    if (collector->attaches()) result = result.intersect(collector->platforms(request.options));
  }
  return result;
}

launch_plan plan_launch(const std::vector<collector_request>& requested,
                        const std::vector<std::string>& command,
                        const std::filesystem::path& trial_dir, const env_map& env) {
  for (const auto& request : requested) {
    if (find_collector(request.name) != nullptr) continue;
    std::vector<std::string_view> valid;
    for (const auto& collector : registry()) valid.push_back(collector->name());
    const std::string where = request.where.to_string();
    throw recipe_error(fmt::format("{}unknown collector '{}'; valid: {}",
                                   where.empty() ? "" : where + ": ", request.name,
                                   fmt::join(valid, ", ")));
  }
  launch_plan plan;
  plan.argv = command;
  // Innermost first, so each wrap sees the plan of everything inside it.
  for (auto collector = registry().rbegin(); collector != registry().rend(); ++collector) {
    if (!(*collector)->attaches()) continue;
    const auto request =
        std::find_if(requested.begin(), requested.end(),
                     [&](const collector_request& r) { return r.name == (*collector)->name(); });
    if (request == requested.end()) continue;
    plan = (*collector)
               ->wrap(std::move(plan), request->options,
                      trial_dir / std::string((*collector)->name()), env);
  }
  return plan;
}

}  // namespace aorta
