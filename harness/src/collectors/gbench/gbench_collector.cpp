// gbench: runs a Google Benchmark executable with JSON output into the trial and reads it; each
// benchmark becomes a kernel row (captures/gbench_reader.hpp, docs/collectors.md).
#include "captures/gbench_reader.hpp"
#include "collectors/collector_support.hpp"
#include "collectors/gbench/gbench_wrap.hpp"

#include <fmt/format.h>

namespace aorta::detail {
namespace {

class gbench_collector_impl final : public collector_base {
public:
  [[nodiscard]] std::string_view name() const override { return "gbench"; }
  [[nodiscard]] std::string_view summary() const override {
    return "Google Benchmark: each benchmark's time per iteration, CPU time and counters (CPU)";
  }
  // The context object comes first and is small, so its keys are in the head; num_cpus and
  // mhz_per_cpu are written by every Google Benchmark version and by no other tool we read.
  [[nodiscard]] bool recognises(const file_sample& file) const override {
    return file.first_non_blank() == '{' && file.head_contains("\"context\"") &&
           file.head_contains("\"num_cpus\"") && file.head_contains("\"mhz_per_cpu\"");
  }
  [[nodiscard]] std::string format_description() const override {
    return "a Google Benchmark JSON file";
  }
  [[nodiscard]] std::shared_ptr<const collector_config>
  parse_options(const option_map& options) const override {
    return std::make_shared<typed_config<gbench_options>>(parse_gbench_options(options));
  }
  [[nodiscard]] tool_version_map probe_versions(const collector_config& /*config*/,
                                                const std::vector<std::string>& /*command*/,
                                                const env_map& /*env*/) const override {
    // The benchmark library is linked into the payload and reports no version, so the fingerprint
    // holds what the timings depend on: the CPU.
    tool_version_map versions;
    if (auto model = cpu_model()) versions["cpu"] = *model;
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
    for (auto& flag : gbench_flags(options_of<gbench_options>(config), output_dir)) {
      inner.argv.push_back(std::move(flag));
    }
    return inner;
  }
  [[nodiscard]] capture read_capture(const std::filesystem::path& output,
                                     const read_context& /*context*/) const override {
    return read_gbench_capture(output);
  }
  [[nodiscard]] std::string explain_empty(const capture& empty,
                                          const collector_config& /*config*/) const override {
    return fmt::format(
        "empty capture: Google Benchmark reported no benchmark run under {}.\nLikely causes:\n"
        "- the command is not a Google Benchmark executable, or it does not pass argv to "
        "benchmark::Initialize (so --benchmark_out was ignored)\n"
        "- --benchmark_filter matched no benchmark (list them with --benchmark_list_tests)",
        empty.artifact_dir.string());
  }
  // A benchmark that called state.SkipWithError has no time: its absence must not pass as a
  // faster run, whatever the checks say.
  [[nodiscard]] std::optional<std::string>
  failure_in_capture(const capture& got, const collector_config& /*config*/) const override {
    if (got.findings.empty()) return std::nullopt;
    const finding& first = got.findings.front();
    return fmt::format("Google Benchmark reported {} failed benchmark(s); the first: '{}': {} "
                       "(in {}). Fix the benchmark, or filter it out with --benchmark_filter",
                       got.findings.size(), first.kernel, first.detail, first.location);
  }
  [[nodiscard]] bool profiles_gpu() const override { return false; }
  [[nodiscard]] std::string_view gpu_profiler_conflict() const override {
    return "Google Benchmark times each benchmark inside the payload, so the GPU profiler's work "
           "(kernel replay, launch interception, its own output) would be timed as the "
           "benchmark's";
  }
};

}  // namespace

const collector_base& gbench_collector() {
  static const gbench_collector_impl instance;
  return instance;
}

}  // namespace aorta::detail
