// sanitizer: NVIDIA compute-sanitizer (memcheck, racecheck, initcheck, synccheck) around the
// command; reads its text report into findings. The argv lives in sanitizer_wrap.cpp, the report's
// format in sanitizer_reader.cpp; docs/collectors.md (sanitizer).
#include "collectors/collector_support.hpp"
#include "captures/sanitizer_reader.hpp"
#include "collectors/sanitizer/sanitizer_wrap.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace aorta::detail {
namespace {

// `compute-sanitizer --version` prints its version on the third line ("Version 2025.3.1.0 (build
// 36400806) (public-release)"); sed brings it to the first, where probe_version reads. The binary
// is sh's $0, never part of the script.
std::vector<std::string> version_argv(const std::string& binary) {
  return {"/bin/sh", "-c", R"("$0" --version | sed -n 's/^Version \([^ ]*\).*/\1/p')", binary};
}

class sanitizer_collector_impl final : public collector_base {
public:
  [[nodiscard]] std::string_view name() const override { return "sanitizer"; }
  // Exact counts: cells need no rounds of the paired test for them.
  [[nodiscard]] bool measures_time() const override { return false; }
  [[nodiscard]] std::string_view summary() const override {
    return "NVIDIA compute-sanitizer: memory, race, init and sync errors (text report)";
  }
  [[nodiscard]] bool recognises(const file_sample& file) const override {
    return file.head.starts_with("========= COMPUTE-SANITIZER");
  }
  [[nodiscard]] std::string format_description() const override {
    return "a compute-sanitizer log";
  }
  [[nodiscard]] std::shared_ptr<const collector_config>
  parse_options(const option_map& options) const override {
    return std::make_shared<typed_config<sanitizer_options>>(parse_sanitizer_options(options));
  }
  [[nodiscard]] tool_version_map probe_versions(const collector_config& /*config*/,
                                                const std::vector<std::string>& /*command*/,
                                                const env_map& env) const override {
    tool_version_map versions;
    try {
      probe_version(versions, "compute_sanitizer", version_argv(resolve_sanitizer_binary(env)),
                    env);
    } catch (const skip_error&) {
      // Not installed: unavailable_reason says so.
    }
    probe_nvidia_gpu(versions, env);
    return versions;
  }
  [[nodiscard]] std::optional<std::string>
  unavailable_reason(const collector_config& /*config*/, const env_map& env,
                     const tool_version_map& /*versions*/) const override {
    return reason_if_missing([&] { return resolve_sanitizer_binary(env); });
  }
  [[nodiscard]] launch_plan wrap(launch_plan inner, const collector_config& config,
                                 const std::filesystem::path& output_dir,
                                 const plan_context& context) const override {
    const std::string binary = resolved_or_named_missing(
        [&] { return resolve_sanitizer_binary(context.env); }, "compute-sanitizer", context);
    return prefixed(std::move(inner),
                    sanitizer_argv(options_of<sanitizer_options>(config), output_dir, binary));
  }
  // --log-file knows %q{VAR}, but rank-exec's substitution serves every collector alike.
  [[nodiscard]] capture read_capture(const std::filesystem::path& output,
                                     const read_context& /*context*/) const override {
    return read_sanitizer_capture(output);
  }
  [[nodiscard]] std::string explain_empty(const capture& empty,
                                          const collector_config& config) const override {
    return fmt::format(
        "empty capture: compute-sanitizer ({}) wrote no report under {}.\nLikely causes:\n"
        "- compute-sanitizer itself failed to start (its message is in the trial's stderr.log)\n"
        "- the payload never initialised CUDA, so the tool had nothing to attach to\n"
        "- the work ran in a process the tool did not follow (target_processes: "
        "application-only, or a launcher such as docker run)\n"
        "Set `allow_empty: true` in the recipe only if no CUDA work is expected.",
        options_of<sanitizer_options>(config).tool, empty.artifact_dir.string());
  }
  // With --error-exitcode 0 the payload's status no longer shows the errors, so the report must:
  // a run with errors fails even where the recipe has no error check.
  [[nodiscard]] std::optional<std::string>
  failure_in_capture(const capture& got, const collector_config& config) const override {
    const auto& options = options_of<sanitizer_options>(config);
    if (!options.fail_on_errors) return std::nullopt;
    std::uint64_t listed = 0;
    const finding* first = nullptr;
    for (const auto& reported : got.findings) {
      if (reported.severity != "error") continue;
      listed += reported.count;
      if (first == nullptr) first = &reported;
    }
    const std::uint64_t errors = std::max(listed, got.reported_errors.value_or(0));
    if (errors == 0) return std::nullopt;
    std::string where;
    if (first != nullptr) {
      where = fmt::format("; the first: {}{}{}", first->kind,
                          first->kernel.empty() ? "" : " in " + first->kernel,
                          first->location.empty() ? "" : " at " + first->location);
    }
    return fmt::format("compute-sanitizer ({}) reported {} error(s){} (report: {}). Fix the "
                       "access, or set `fail_on_errors: false` to leave the verdict to the "
                       "recipe's checks",
                       options.tool, errors, where, got.artifact_dir.string());
  }
  [[nodiscard]] platform_set platforms(const collector_config& /*config*/) const override {
    return {platform::nvidia};
  }
};

}  // namespace

const collector_base& sanitizer_collector() {
  static const sanitizer_collector_impl instance;
  return instance;
}

}  // namespace aorta::detail
