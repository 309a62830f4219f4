// What the collector folders share: their typed configuration holder, the prefix wrap, binary
// resolution that a dry run tolerates, and version probes.
#pragma once

#include "aorta/collector.hpp"
#include "aorta/error.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace aorta::detail {

// A collector's parsed options as its collector_config.
template <typename Options>
class typed_config final : public collector_config {
public:
  explicit typed_config(Options parsed) : options(std::move(parsed)) {}
  Options options;
};

template <typename Options>
[[nodiscard]] const Options& options_of(const collector_config& config) {
  return config_as<typed_config<Options>>(config).options;
}

// `prefix... inner.argv...`: how a profiler that runs the command as its child wraps it.
[[nodiscard]] launch_plan prefixed(launch_plan inner, std::vector<std::string> prefix);

// The skip_error's message when `resolve` throws one (the profiler is missing), else nullopt.
template <typename Resolve>
[[nodiscard]] std::optional<std::string> reason_if_missing(Resolve resolve) {
  try {
    (void)resolve();
    return std::nullopt;
  } catch (const skip_error& missing) {
    return std::string(missing.what());
  }
}

// The resolved binary; in a dry run a missing one is shown as "<binary: not installed>" so the
// wrap can still be printed (the dry run reports the missing profiler separately).
template <typename Resolve>
[[nodiscard]] std::string resolved_or_named_missing(Resolve resolve, std::string_view binary,
                                                    const plan_context& context) {
  if (!context.dry_run) return resolve();
  try {
    return resolve();
  } catch (const skip_error&) {
    return "<" + std::string(binary) + ": not installed>";
  }
}

// The first line a short command prints on stdout, or nullopt if it cannot run or fails.
[[nodiscard]] std::optional<std::string> first_output_line(const std::vector<std::string>& argv,
                                                           const env_map& environment);

// Records `key` -> the first output line of `argv` when there is one.
void probe_version(tool_version_map& into, const std::string& key,
                   const std::vector<std::string>& argv, const env_map& environment);

// "gpu" (name, driver), "gpu_arch" (compute capability) and "gpu_uuid" (the card of the payload's
// device 0) from nvidia-smi, when it runs.
void probe_nvidia_gpu(tool_version_map& into, const env_map& environment);

// The CPU's model name from /proc/cpuinfo.
[[nodiscard]] std::optional<std::string> cpu_model();

}  // namespace aorta::detail
