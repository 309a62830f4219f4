#include "collectors/rocprof/rocprof_wrap.hpp"

#include "aorta/error.hpp"
#include "collectors/executable_lookup.hpp"

#include <fmt/format.h>

#include <array>
#include <string_view>
#include <utility>

namespace aorta {
namespace {

constexpr std::array<std::pair<std::string_view, std::string_view>, 7> trace_flags{{
    {"kernel", "--kernel-trace"},
    {"hip", "--hip-trace"},
    {"hip_runtime", "--hip-runtime-trace"},
    {"memory_copy", "--memory-copy-trace"},
    {"rccl", "--rccl-trace"},
    {"marker", "--marker-trace"},
    {"scratch", "--scratch-memory-trace"},
}};

std::string_view trace_flag(const std::string& domain) {
  for (const auto& [name, flag] : trace_flags) {
    if (name == domain) return flag;
  }
  // parse_rocprof_options admits only the domains above; anything else is a programming error.
  throw setup_error(fmt::format("rocprof: unknown trace domain '{}' reached the wrap", domain));
}

}  // namespace

std::vector<std::string> rocprof_argv(const rocprof_options& options,
                                      const std::filesystem::path& output_dir,
                                      const std::string& rocprof_binary) {
  std::vector<std::string> argv{
      rocprof_binary,       "-d", output_dir.string(), "-o", "aorta", "--output-format",
      options.output_format};
  for (const auto& domain : options.trace) argv.emplace_back(trace_flag(domain));
  if (options.stats) argv.emplace_back("--stats");
  // -S alone prints the summary to stderr; the stem is relative to -d (an absolute path would be
  // spliced into a file name), giving aorta_rocprof_summary.txt.
  argv.insert(argv.end(), {"-S", "--summary-output-file", "rocprof_summary"});
  if (options.summary_units) argv.insert(argv.end(), {"-u", *options.summary_units});
  if (options.kernel_include_regex) {
    argv.insert(argv.end(), {"--kernel-include-regex", *options.kernel_include_regex});
  }
  // --pmc is variadic, so it must come last before the separator.
  if (!options.pmc.empty()) {
    argv.emplace_back("--pmc");
    argv.insert(argv.end(), options.pmc.begin(), options.pmc.end());
  }
  argv.emplace_back("--");
  return argv;
}

std::string resolve_rocprof_binary(const env_map& env) {
  return detail::resolve_tool(env, "ROCPROF_BIN", "rocprofv3", "rocprof",
                              "install ROCm's rocprofiler-sdk (it ships rocprofv3)");
}

}  // namespace aorta
