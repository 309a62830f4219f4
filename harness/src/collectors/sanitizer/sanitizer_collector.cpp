// The sanitizer collector's class: parses its options, resolves compute-sanitizer, wraps and reads.
// The argv lives in sanitizer_wrap.cpp and the report's format in sanitizer_reader.cpp.
#include "collectors/sanitizer/sanitizer_collector.hpp"

#include "aorta/error.hpp"
#include "aorta/process.hpp"
#include "collectors/sanitizer/sanitizer_reader.hpp"
#include "collectors/sanitizer/sanitizer_wrap.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace aorta {
namespace {

namespace fs = std::filesystem;

// Every line a short command prints on stdout; empty when it cannot run or fails.
std::vector<std::string> output_lines(const std::vector<std::string>& argv, const env_map& env) {
  const fs::path log = fs::temp_directory_path() /
                       fmt::format("aorta-sanitizer-version-{}.txt", ::getpid());
  process_spec probe;
  probe.argv = argv;
  probe.environment = env;
  probe.stdout_log = log;
  probe.stderr_log = "/dev/null";
  probe.echo = false;
  probe.timeout = std::chrono::seconds(20);
  probe.kill_grace = std::chrono::milliseconds(500);
  std::vector<std::string> lines;
  try {
    if (run_process(probe).succeeded()) {
      std::ifstream stream(log);
      for (std::string line; std::getline(stream, line);) lines.push_back(line);
    }
  } catch (const error&) {
    // Not installed or not runnable: the version is simply unknown.
  }
  std::error_code ignored;
  fs::remove(log, ignored);
  return lines;
}

class sanitizer_collector final : public collector_base {
public:
  [[nodiscard]] std::string_view name() const override { return "sanitizer"; }
  void validate(const option_map& options,
                const std::vector<collector_request>& /*all_requested*/) const override {
    (void)parse_sanitizer_options(options);
  }
  [[nodiscard]] std::optional<std::string> unavailable_reason(const option_map& /*options*/,
                                                              const env_map& env) const override {
    try {
      (void)resolve_sanitizer_binary(env);
      return std::nullopt;
    } catch (const skip_error& missing) {
      return std::string(missing.what());
    }
  }
  [[nodiscard]] launch_plan wrap(launch_plan inner, const option_map& options,
                                 const fs::path& output_dir, const env_map& env) const override {
    std::string binary;
    try {
      binary = resolve_sanitizer_binary(env);
    } catch (const skip_error&) {
      // `sweep run --dry-run` names the missing tool in the argv it prints.
      if (!env.contains("AORTA_DRY_RUN")) throw;
      binary = "<compute-sanitizer: not installed>";
    }
    std::vector<std::string> argv = sanitizer_argv(parse_sanitizer_options(options), output_dir,
                                                   binary);
    argv.insert(argv.end(), std::make_move_iterator(inner.argv.begin()),
                std::make_move_iterator(inner.argv.end()));
    inner.argv = std::move(argv);
    return inner;
  }
  [[nodiscard]] capture read_capture(const fs::path& output_dir,
                                     const option_map& /*options*/) const override {
    return read_sanitizer_capture(output_dir);
  }
  [[nodiscard]] platform_set platforms(const option_map& /*options*/) const override {
    return {platform::nvidia};
  }
};

}  // namespace

std::unique_ptr<const collector_base> make_sanitizer_collector() {
  return std::make_unique<sanitizer_collector>();
}

std::string explain_empty_sanitizer_capture(const capture& empty,
                                            const sanitizer_options& options) {
  return fmt::format(
      "empty capture: compute-sanitizer ({}) wrote no report under {}.\nLikely causes:\n"
      "- the payload never initialised CUDA, so the tool had nothing to attach to\n"
      "- compute-sanitizer itself failed to start (its message is in the trial's stderr.log)\n"
      "- the work ran in a process the tool did not follow (target_processes: application-only, "
      "or a launcher such as docker run)\n"
      "Set `allow_empty: true` in the recipe only if no CUDA work is expected.",
      options.tool, empty.artifact_dir.string());
}

std::map<std::string, std::string> probe_sanitizer_versions(const env_map& env) {
  std::map<std::string, std::string> versions;
  std::string binary;
  try {
    binary = resolve_sanitizer_binary(env);
  } catch (const skip_error&) {
    return versions;
  }
  // "Version 2025.3.1.0 (build 36400806) (public-release)" is the third line of its banner.
  for (const auto& line : output_lines({binary, "--version"}, env)) {
    if (!line.starts_with("Version ")) continue;
    const std::string rest = line.substr(8);
    versions["compute_sanitizer"] = rest.substr(0, rest.find(' '));
  }
  const auto gpu = output_lines(
      {"nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"}, env);
  if (!gpu.empty() && !gpu.front().empty()) versions["gpu"] = gpu.front();
  return versions;
}

}  // namespace aorta
