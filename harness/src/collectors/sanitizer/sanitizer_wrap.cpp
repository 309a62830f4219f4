#include "collectors/sanitizer/sanitizer_wrap.hpp"

#include "collectors/executable_lookup.hpp"

#include <fmt/format.h>

namespace aorta {
namespace {

// compute-sanitizer expands %p, %q{VAR} and %% in --log-file; a literal % in the trial directory
// must not be read as one of them.
std::string escape_percent(const std::string& path) {
  std::string escaped;
  for (const char c : path) {
    escaped += c;
    if (c == '%') escaped += '%';
  }
  return escaped;
}

}  // namespace

std::vector<std::string> sanitizer_argv(const sanitizer_options& options,
                                        const std::filesystem::path& output_dir,
                                        const std::string& sanitizer_binary) {
  std::vector<std::string> argv{sanitizer_binary,   "--tool", options.tool, "--error-exitcode",
                                "0",                "--target-processes",
                                options.target_processes};
  if (options.leak_check) {
    argv.insert(argv.end(), {"--leak-check", *options.leak_check ? "full" : "no"});
  }
  if (options.padding) argv.insert(argv.end(), {"--padding", std::to_string(*options.padding)});
  argv.insert(argv.end(),
              {"--log-file", escape_percent((output_dir / sanitizer_log_file_name).string())});
  return argv;
}

std::vector<std::filesystem::path> sanitizer_standard_locations(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> found;
  for (const char* candidate :
       {"usr/local/cuda/bin/compute-sanitizer", "usr/local/cuda/compute-sanitizer/compute-sanitizer"}) {
    if (auto path = root / candidate; detail::is_executable_file(path)) found.push_back(path);
  }
  return found;
}

std::string resolve_sanitizer_binary(const env_map& env,
                                     const std::vector<std::filesystem::path>& standard_locations) {
  return detail::resolve_tool_or_standard(
      env, "COMPUTE_SANITIZER_BIN", "compute-sanitizer", "sanitizer",
      "install the CUDA toolkit (it ships /usr/local/cuda/bin/compute-sanitizer)",
      standard_locations);
}

}  // namespace aorta
