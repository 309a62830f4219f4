#include "collectors/collector_support.hpp"

#include "process/private_temp_dir.hpp"
#include "process/process.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

namespace aorta::detail {
namespace fs = std::filesystem;

launch_plan prefixed(launch_plan inner, std::vector<std::string> prefix) {
  prefix.insert(prefix.end(), std::make_move_iterator(inner.argv.begin()),
                std::make_move_iterator(inner.argv.end()));
  inner.argv = std::move(prefix);
  return inner;
}

std::optional<std::string> first_output_line(const std::vector<std::string>& argv,
                                             const env_map& environment) {
  std::optional<private_temp_dir> scratch;
  fs::path log;
  try {
    scratch.emplace("aorta-version");
    log = scratch->create_file("stdout.txt");
  } catch (const setup_error&) {
    return std::nullopt;  // no temporary directory: the version is simply unknown
  }
  process_spec probe;
  probe.argv = argv;
  probe.environment = environment;
  probe.stdout_log = log;
  probe.stderr_log = "/dev/null";
  probe.echo = false;
  probe.timeout = std::chrono::seconds(20);
  probe.kill_grace = std::chrono::milliseconds(500);
  std::optional<std::string> line;
  try {
    if (run_process(probe).succeeded()) {
      std::ifstream stream(log);
      std::string text;
      if (std::getline(stream, text) && !text.empty()) line = text;
    }
  } catch (const setup_error&) {
    // Not installed: the version is simply unknown.
  }
  return line;
}

void probe_version(tool_version_map& into, const std::string& key,
                   const std::vector<std::string>& argv, const env_map& environment) {
  if (auto line = first_output_line(argv, environment)) into[key] = *line;
}

void probe_nvidia_gpu(tool_version_map& into, const env_map& environment) {
  probe_version(into, "gpu",
                {"nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"},
                environment);
  probe_version(into, "gpu_arch", {"nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"},
                environment);
  // The card itself: GPUs of one model differ by up to 22%, so the gate says when a baseline
  // came from another card. nvidia-smi ignores CUDA_VISIBLE_DEVICES; its first entry (an index
  // or a UUID) names the card the payload's device 0 is.
  std::vector<std::string> argv{"nvidia-smi", "--query-gpu=uuid", "--format=csv,noheader"};
  if (const auto visible = environment.find("CUDA_VISIBLE_DEVICES"); visible != environment.end()) {
    const std::string first = visible->second.substr(0, visible->second.find(','));
    if (!first.empty()) argv.insert(argv.begin() + 1, {"-i", first});
  }
  probe_version(into, "gpu_uuid", argv, environment);
}

std::optional<std::string> cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (!line.starts_with("model name")) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    const auto start = line.find_first_not_of(" \t", colon + 1);
    if (start != std::string::npos) return line.substr(start);
  }
  return std::nullopt;
}

}  // namespace aorta::detail
