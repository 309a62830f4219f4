#include "sweep/tool_versions.hpp"

#include "aorta/error.hpp"
#include "aorta/process.hpp"

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace aorta::detail {
namespace fs = std::filesystem;

std::optional<std::string> first_output_line(const std::vector<std::string>& argv,
                                             const env_map& environment) {
  const fs::path log =
      fs::temp_directory_path() / ("aorta-version-" + std::to_string(::getpid()) + ".txt");
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
  std::error_code ignored;
  fs::remove(log, ignored);
  return line;
}

namespace {

bool wants(const recipe& spec, std::string_view name) {
  for (const auto& request : spec.collect) {
    if (request.name == name) return true;
  }
  return false;
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

std::string python_of(const std::vector<std::string>& command, const env_map& environment) {
  if (const auto it = environment.find("AORTA_PROTON_PYTHON"); it != environment.end()) {
    return it->second;
  }
  if (!command.empty() && fs::path(command.front()).filename().string().starts_with("python")) {
    return command.front();
  }
  return "python3";
}

}  // namespace

std::map<std::string, std::string> tool_versions(const recipe& spec,
                                                 const std::vector<std::string>& command,
                                                 const env_map& environment) {
  std::map<std::string, std::string> versions{{"aorta", AORTA_VERSION}};
  const auto record = [&](const std::string& key, const std::vector<std::string>& argv) {
    if (auto line = first_output_line(argv, environment)) versions[key] = *line;
  };
  if (wants(spec, "proton")) {
    // importlib.metadata reads the installed version without importing triton (which is slow and
    // may initialise a GPU runtime).
    record("triton", {python_of(command, environment), "-c",
                      "import importlib.metadata as m; print(m.version('triton'))"});
  }
  if (wants(spec, "callgrind")) {
    record("valgrind", {"valgrind", "--version"});
    // Instruction counts depend on the CPU's code paths (libc picks them by CPU features), so the
    // regression gate's fingerprint needs the model.
    if (auto model = cpu_model()) versions["cpu"] = *model;
  }
  if (wants(spec, "rocprof")) record("rocprofv3", {"rocprofv3", "--version"});
  if (wants(spec, "proton") || wants(spec, "ncu")) {
    record("gpu", {"nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"});
    record("gpu_arch", {"nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"});
  }
  if (wants(spec, "proton")) {
    // torch's version names the CUDA/ROCm runtime it was built with ("2.11.0+cu130").
    record("torch", {python_of(command, environment), "-c",
                     "import importlib.metadata as m; print(m.version('torch'))"});
  }
  return versions;
}

}  // namespace aorta::detail
