// ncu: NVIDIA Nsight Compute around the command; reads its --csv --page raw log.
#include "captures/ncu_reader.hpp"
#include "checks/ncu_checks.hpp"
#include "collectors/collector_support.hpp"
#include "collectors/ncu/ncu_wrap.hpp"

#include <fmt/format.h>

namespace aorta::detail {
namespace {

class ncu_collector_impl final : public collector_base {
public:
  [[nodiscard]] std::string_view name() const override { return "ncu"; }
  [[nodiscard]] std::string_view summary() const override {
    return "NVIDIA Nsight Compute: per-kernel metrics (CSV)";
  }
  [[nodiscard]] bool recognises(const file_sample& file) const override {
    // ncu's CSV: its own `==PROF==` lines, or the "ID","Process ID",... / "Kernel Name" header.
    const char first = file.first_non_blank();
    if (first == '{' || first == '[') return false;
    return file.head.starts_with("==PROF==") || file.head_contains("\n==PROF==") ||
           file.head_contains("\"ID\",\"Process ID\"") || file.first_line().find("\"Kernel Name\"") != std::string_view::npos;
  }
  [[nodiscard]] std::string format_description() const override { return "an ncu CSV"; }
  [[nodiscard]] std::shared_ptr<const collector_config>
  parse_options(const option_map& options) const override {
    return std::make_shared<typed_config<ncu_options>>(parse_ncu_options(options));
  }
  [[nodiscard]] tool_version_map probe_versions(const collector_config& /*config*/,
                                                const std::vector<std::string>& /*command*/,
                                                const env_map& env) const override {
    tool_version_map versions;
    probe_nvidia_gpu(versions, env);
    return versions;
  }
  [[nodiscard]] std::optional<std::string>
  unavailable_reason(const collector_config& /*config*/, const env_map& env,
                     const tool_version_map& /*versions*/) const override {
    return reason_if_missing([&] { return resolve_ncu_binary(env); });
  }
  [[nodiscard]] launch_plan wrap(launch_plan inner, const collector_config& config,
                                 const std::filesystem::path& output_dir,
                                 const plan_context& context) const override {
    const std::string binary =
        resolved_or_named_missing([&] { return resolve_ncu_binary(context.env); }, "ncu", context);
    return prefixed(std::move(inner),
                    ncu_argv(options_of<ncu_options>(config), output_dir, binary));
  }
  // ncu's %q{ENV} names -o report files only: ncu 2025.3.1 refused `--log-file
  // .../rank_%q{AORTA_RANK}/ncu/ncu.csv` ("cannot be used as the output log file") on the H200,
  // so rank-exec substitutes the rank instead (no macro).
  [[nodiscard]] capture read_capture(const std::filesystem::path& output,
                                     const read_context& /*context*/) const override {
    return read_ncu_capture(output);
  }
  [[nodiscard]] std::string explain_empty(const capture& empty,
                                          const collector_config& /*config*/) const override {
    return fmt::format(
        "empty capture: ncu profiled no kernel under {}.\nLikely causes:\n"
        "- kernel_name matched no kernel, or launch_skip/launch_count skipped them all\n"
        "- the command launched no CUDA kernel\n"
        "- ncu could not read the GPU counters (ERR_NVGPUCTRPERM): see ncu.csv",
        empty.artifact_dir.string());
  }
  [[nodiscard]] platform_set platforms(const collector_config& /*config*/) const override {
    return {platform::nvidia};
  }
  // A check of a counter that collect.ncu.metrics leaves out is refused before the run.
  void require_for_checks(const collector_request* own, const recipe& spec,
                          const std::vector<check_expression>& checks) const override {
    std::optional<std::vector<std::string>> collected;
    if (own != nullptr) collected = parse_ncu_options(own->options).metrics;
    require_collected_ncu_metrics(spec, checks, collected);
  }
};

}  // namespace

const collector_base& ncu_collector() {
  static const ncu_collector_impl instance;
  return instance;
}

}  // namespace aorta::detail
