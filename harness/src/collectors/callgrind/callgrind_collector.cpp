// callgrind: valgrind --tool=callgrind around the command; reads its callgrind.out files.
#include "captures/callgrind_reader.hpp"
#include "collectors/callgrind/callgrind_wrap.hpp"
#include "collectors/collector_support.hpp"

#include <fmt/format.h>

namespace aorta::detail {
namespace {

class callgrind_collector_impl final : public collector_base {
public:
  [[nodiscard]] std::string_view name() const override { return "callgrind"; }
  // Exact counts: cells need no rounds of the paired test for them.
  [[nodiscard]] bool measures_time() const override { return false; }
  [[nodiscard]] std::string_view summary() const override {
    return "valgrind callgrind: instruction counts per function (CPU)";
  }
  [[nodiscard]] bool recognises(const file_sample& file) const override {
    return file.name.starts_with("callgrind.out") || file.head.starts_with("# callgrind format") ||
           file.head.starts_with("version: 1\ncreator: callgrind");
  }
  [[nodiscard]] std::string format_description() const override { return "a callgrind.out file"; }
  [[nodiscard]] std::shared_ptr<const collector_config>
  parse_options(const option_map& options) const override {
    return std::make_shared<typed_config<callgrind_options>>(parse_callgrind_options(options));
  }
  [[nodiscard]] tool_version_map probe_versions(const collector_config& /*config*/,
                                                const std::vector<std::string>& /*command*/,
                                                const env_map& env) const override {
    tool_version_map versions;
    probe_version(versions, "valgrind", {"valgrind", "--version"}, env);
    // Instruction counts depend on the CPU's code paths (libc picks them by CPU features), so the
    // regression gate's fingerprint needs the model.
    if (auto model = cpu_model()) versions["cpu"] = *model;
    return versions;
  }
  [[nodiscard]] std::optional<std::string>
  unavailable_reason(const collector_config& /*config*/, const env_map& env,
                     const tool_version_map& /*versions*/) const override {
    return reason_if_missing([&] { return resolve_valgrind_binary(env); });
  }
  [[nodiscard]] launch_plan wrap(launch_plan inner, const collector_config& config,
                                 const std::filesystem::path& output_dir,
                                 const plan_context& context) const override {
    const std::string binary = resolved_or_named_missing(
        [&] { return resolve_valgrind_binary(context.env); }, "valgrind", context);
    return prefixed(std::move(inner),
                    callgrind_argv(options_of<callgrind_options>(config), output_dir, binary));
  }
  // valgrind expands %q{NAME} in --callgrind-out-file.
  [[nodiscard]] std::optional<std::string> rank_path_macro() const override {
    return "%q{AORTA_RANK}";
  }
  [[nodiscard]] capture read_capture(const std::filesystem::path& output,
                                     const read_context& /*context*/) const override {
    return read_callgrind_capture(output);
  }
  [[nodiscard]] std::string explain_empty(const capture& empty,
                                          const collector_config& /*config*/) const override {
    return fmt::format(
        "empty capture: callgrind recorded no function cost under {}.\nLikely causes:\n"
        "- toggle_collect names a function that never ran (check the spelling, C++ names are "
        "demangled with their argument list)\n"
        "- the payload is a script: set trace_children: true to follow the real program",
        empty.artifact_dir.string());
  }
  [[nodiscard]] bool profiles_gpu() const override { return false; }
  [[nodiscard]] std::string_view gpu_profiler_conflict() const override {
    return "valgrind runs the GPU runtime under an instruction emulator, so the GPU profile would "
           "be meaningless and the run slowed many times over";
  }
};

}  // namespace

const collector_base& callgrind_collector() {
  static const callgrind_collector_impl instance;
  return instance;
}

}  // namespace aorta::detail
