#include "collectors/ncu/ncu_wrap.hpp"

#include "aorta/error.hpp"
#include "collectors/executable_lookup.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <system_error>

namespace aorta {
namespace {

// "2024.3.10" -> {2024, 3, 10}; a non-numeric part counts as 0 so odd names sort first.
std::vector<long> version_parts(const std::string& text) {
  std::vector<long> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto dot = std::min(text.find('.', start), text.size());
    long value = 0;
    std::from_chars(text.data() + start, text.data() + dot, value);
    parts.push_back(value);
    start = dot + 1;
  }
  return parts;
}

}  // namespace

std::vector<std::string> ncu_argv(const ncu_options& options,
                                  const std::filesystem::path& output_dir,
                                  const std::string& ncu_binary) {
  std::vector<std::string> argv{ncu_binary, "--target-processes", "all", "--clock-control",
                                options.clock_control};
  if (!options.metrics.empty()) {
    argv.emplace_back("--metrics");
    argv.emplace_back(fmt::format("{}", fmt::join(options.metrics, ",")));
  }
  argv.insert(argv.end(), {"--csv", "--page", "details", "--print-units", "base", "--log-file",
                           (output_dir / ncu_log_file_name).string()});
  if (options.kernel_name) argv.insert(argv.end(), {"-k", "regex:" + *options.kernel_name});
  if (options.launch_skip) argv.insert(argv.end(), {"--launch-skip", *options.launch_skip});
  if (options.launch_count) argv.insert(argv.end(), {"--launch-count", *options.launch_count});
  return argv;
}

std::vector<std::filesystem::path> ncu_standard_locations(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> found;
  if (auto cuda = root / "usr/local/cuda/bin/ncu"; detail::is_executable_file(cuda)) {
    found.push_back(cuda);
  }
  std::vector<std::pair<std::vector<long>, std::filesystem::path>> versioned;
  std::error_code ec;
  for (const auto& entry :
       std::filesystem::directory_iterator(root / "opt/nvidia/nsight-compute", ec)) {
    auto candidate = entry.path() / "ncu";
    if (detail::is_executable_file(candidate)) {
      versioned.emplace_back(version_parts(entry.path().filename().string()), candidate);
    }
  }
  std::sort(versioned.begin(), versioned.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  for (auto& [version, path] : versioned) found.push_back(std::move(path));
  return found;
}

std::string resolve_ncu_binary(const env_map& env,
                               const std::vector<std::filesystem::path>& standard_locations) {
  return detail::resolve_tool_or_standard(
      env, "NCU_BIN", "ncu", "ncu",
      "install NVIDIA Nsight Compute (the CUDA toolkit ships it as /usr/local/cuda/bin/ncu)",
      standard_locations);
}

}  // namespace aorta
