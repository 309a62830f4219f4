// nvbench: runs an nvbench executable with --json (or --jsonbin) into the trial and reads it; each
// benchmark state becomes a kernel row (captures/nvbench_reader.hpp, docs/collectors.md).
#include "captures/nvbench_reader.hpp"
#include "collectors/collector_support.hpp"
#include "collectors/nvbench/nvbench_wrap.hpp"

#include <fmt/format.h>

namespace aorta::detail {
namespace {

class nvbench_collector_impl final : public collector_base {
public:
  [[nodiscard]] std::string_view name() const override { return "nvbench"; }
  [[nodiscard]] std::string_view summary() const override {
    return "NVIDIA nvbench: each benchmark state's GPU and CPU time, noise and bandwidth";
  }
  // The meta object comes first: its argv (the command) and then the version object, whose
  // "nvbench" key no other tool we read writes.
  [[nodiscard]] bool recognises(const file_sample& file) const override {
    return file.first_non_blank() == '{' && file.head_contains("\"meta\"") &&
           file.head_contains("\"argv\"") && file.head_contains("\"nvbench\"");
  }
  [[nodiscard]] std::string format_description() const override { return "an nvbench JSON file"; }
  [[nodiscard]] std::shared_ptr<const collector_config>
  parse_options(const option_map& options) const override {
    return std::make_shared<typed_config<nvbench_options>>(parse_nvbench_options(options));
  }
  // nvbench is linked into the payload and its version is only known from the file it writes
  // (a note of the capture); the timings depend on the card, which the fingerprint records.
  // With sample_times the row's time is another quantity (the mean after the warm-up rule, not
  // nvbench's mean of every sample), so it is part of the fingerprint: a baseline of the other
  // kind then differs in it, and the gate skips naming it instead of comparing the two. Without
  // it nothing is added, so baselines recorded before the option keep their fingerprint.
  [[nodiscard]] tool_version_map probe_versions(const collector_config& config,
                                                const std::vector<std::string>& /*command*/,
                                                const env_map& env) const override {
    tool_version_map versions;
    probe_nvidia_gpu(versions, env);
    if (options_of<nvbench_options>(config).sample_times) {
      versions[std::string(nvbench_time_key)] = std::string(nvbench_time_of_samples);
    }
    return versions;
  }
  // The payload is the tool: nothing to install.
  [[nodiscard]] std::optional<std::string>
  unavailable_reason(const collector_config& /*config*/, const env_map& /*env*/,
                     const tool_version_map& /*versions*/) const override {
    return std::nullopt;
  }
  [[nodiscard]] launch_plan wrap(launch_plan inner, const collector_config& config,
                                 const std::filesystem::path& output_dir,
                                 const plan_context& /*context*/) const override {
    for (auto& flag : nvbench_flags(options_of<nvbench_options>(config), output_dir)) {
      inner.argv.push_back(std::move(flag));
    }
    return inner;
  }
  [[nodiscard]] capture read_capture(const std::filesystem::path& output,
                                     const read_context& context) const override {
    return read_nvbench_capture(output, options_of<nvbench_options>(*context.config).sample_times);
  }
  [[nodiscard]] std::string explain_empty(const capture& empty,
                                          const collector_config& /*config*/) const override {
    return fmt::format(
        "empty capture: nvbench measured no benchmark state under {}.\nLikely causes:\n"
        "- the command is not an nvbench executable (NVBENCH_MAIN), so --json (--jsonbin) was "
        "ignored\n"
        "- --benchmark or --axis selected nothing (list them with --list)\n"
        "- every state was skipped (the notes give nvbench's skip_reason)",
        empty.artifact_dir.string());
  }
  // A state whose benchmark threw has no time: its absence must not pass as a faster run.
  [[nodiscard]] std::optional<std::string>
  failure_in_capture(const capture& got, const collector_config& /*config*/) const override {
    if (got.findings.empty()) return std::nullopt;
    const finding& first = got.findings.front();
    return fmt::format("nvbench reported {} failed benchmark state(s); the first: '{}': {} "
                       "(in {}). Fix the benchmark, or leave the state out with --benchmark / "
                       "--axis",
                       got.findings.size(), first.kernel, first.detail, first.location);
  }
  [[nodiscard]] platform_set platforms(const collector_config& /*config*/) const override {
    return {platform::nvidia};
  }
};

}  // namespace

const collector_base& nvbench_collector() {
  static const nvbench_collector_impl instance;
  return instance;
}

}  // namespace aorta::detail
