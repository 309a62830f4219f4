// rocprof: AMD rocprofv3 around the command; reads its CSV, JSON or rocpd database.
#include "captures/rocprof_reader.hpp"
#include "collectors/collector_support.hpp"
#include "collectors/rocprof/rocprof_wrap.hpp"

#include <fmt/format.h>

namespace aorta::detail {
namespace {

class rocprof_collector_impl final : public collector_base {
public:
  [[nodiscard]] std::string_view name() const override { return "rocprof"; }
  [[nodiscard]] std::string_view summary() const override {
    return "AMD rocprofv3: kernel dispatch trace (CSV, JSON or rocpd)";
  }
  [[nodiscard]] bool recognises(const file_sample& file) const override {
    // rocpd: a SQLite database (ROCm 7's default output), whatever rocprofv3's -o named it.
    if (file.head.starts_with(std::string_view("SQLite format 3\0", 16)))
      return file.path.extension() == ".db";
    const char first = file.first_non_blank();
    if (first == '{' || first == '[')
      return file.head_contains("rocprofiler-sdk") || file.head_contains("\"rocprofiler");
    // The CSVs' header lines: the trace's names "Kernel_Id" and "Kernel_Name"; the stats file's
    // "Name","Calls",... is too plain to claim without rocprofv3's file name.
    const std::string_view header = file.first_line();
    if (file.name.ends_with("kernel_stats.csv")) return header.starts_with("\"Name\",\"Calls\"");
    return header.find("Kernel_Name") != std::string_view::npos ||
           header.find("\"Kernel_Id\"") != std::string_view::npos;
  }
  [[nodiscard]] std::string format_description() const override {
    return "a rocprofv3 capture (CSV, JSON or rocpd database)";
  }
  [[nodiscard]] std::shared_ptr<const collector_config>
  parse_options(const option_map& options) const override {
    return std::make_shared<typed_config<rocprof_options>>(parse_rocprof_options(options));
  }
  [[nodiscard]] tool_version_map probe_versions(const collector_config& /*config*/,
                                                const std::vector<std::string>& /*command*/,
                                                const env_map& env) const override {
    tool_version_map versions;
    probe_version(versions, "rocprofv3", {"rocprofv3", "--version"}, env);
    return versions;
  }
  [[nodiscard]] std::optional<std::string>
  unavailable_reason(const collector_config& /*config*/, const env_map& env,
                     const tool_version_map& /*versions*/) const override {
    return reason_if_missing([&] { return resolve_rocprof_binary(env); });
  }
  [[nodiscard]] launch_plan wrap(launch_plan inner, const collector_config& config,
                                 const std::filesystem::path& output_dir,
                                 const plan_context& context) const override {
    const std::string binary = resolved_or_named_missing(
        [&] { return resolve_rocprof_binary(context.env); }, "rocprofv3", context);
    return prefixed(std::move(inner),
                    rocprof_argv(options_of<rocprof_options>(config), output_dir, binary));
  }
  // rocprofv3 expands %env{NAME}% in its output paths.
  [[nodiscard]] std::optional<std::string> rank_path_macro() const override {
    return "%env{AORTA_RANK}%";
  }
  [[nodiscard]] capture read_capture(const std::filesystem::path& output,
                                     const read_context& context) const override {
    return read_rocprof_capture(output, context.frames_needed);
  }
  [[nodiscard]] std::string explain_empty(const capture& empty,
                                          const collector_config& /*config*/) const override {
    return fmt::format(
        "empty capture: rocprofv3 left no kernel data under {}.\nLikely causes:\n"
        "- the command dispatched no GPU work (rocprofv3 then writes no files at all)\n"
        "- kernel_include_regex matched no kernel\n"
        "- output_format is pftrace/otf2, which aorta does not read (use csv, json or rocpd)\n"
        "- the command started the GPU work in a process rocprofv3 did not follow (e.g. docker "
        "run)",
        empty.artifact_dir.string());
  }
  [[nodiscard]] platform_set platforms(const collector_config& /*config*/) const override {
    return {platform::amd};
  }
};

}  // namespace

const collector_base& rocprof_collector() {
  static const rocprof_collector_impl instance;
  return instance;
}

}  // namespace aorta::detail
