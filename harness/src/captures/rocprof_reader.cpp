#include "captures/rocprof_reader.hpp"

#include "aorta/error.hpp"
#include "captures/capture_files.hpp"
#include "captures/rocpd_reader.hpp"
#include "captures/rocprof_sources.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <system_error>
#include <tuple>

namespace aorta {

namespace {

namespace fs = std::filesystem;

struct rocprof_files {
  std::vector<fs::path> stats;
  std::vector<fs::path> traces;
  std::vector<fs::path> results_json;
  std::vector<fs::path> agent_info;
  std::vector<fs::path> rocpd;
};

bool named(const std::string& filename, std::string_view stem) {
  // `-o aorta` gives aorta_kernel_stats.csv; no -o gives <pid>_kernel_stats.csv.
  return filename == stem || (filename.size() > stem.size() && filename.ends_with(stem) &&
                              filename[filename.size() - stem.size() - 1] == '_');
}

rocprof_files classify(const std::vector<fs::path>& candidates) {
  rocprof_files found;
  for (const fs::path& file : candidates) {
    const std::string name = file.filename().string();
    if (named(name, "kernel_stats.csv"))
      found.stats.push_back(file);
    else if (named(name, "kernel_trace.csv"))
      found.traces.push_back(file);
    else if (named(name, "results.json"))
      found.results_json.push_back(file);
    else if (named(name, "agent_info.csv"))
      found.agent_info.push_back(file);
    else if (name.ends_with(".db"))
      found.rocpd.push_back(file);
  }
  return found;
}

rocprof_files find_files(const fs::path& dir) {
  const auto any = [](const std::string&) { return true; };
  return classify(detail::list_capture_files(dir, any, "rocprofv3"));
}

// One file named on the command line (`aorta check --collector rocprof FILE`).
rocprof_files single_file(const fs::path& file) {
  rocprof_files found = classify({file});
  if (found.stats.empty() && found.traces.empty() && found.results_json.empty() &&
      found.rocpd.empty()) {
    throw capture_error(fmt::format(
        "{}: not a rocprofv3 file aorta reads; give a rocprofv3 output directory or one of its "
        "*_kernel_stats.csv, *_kernel_trace.csv, *_results.json or rocpd *.db files",
        file.string()));
  }
  return found;
}

using reader = bool (*)(const fs::path&, detail::kernel_table&, std::vector<std::string>&);

// Reads every file of one kind into `table`; records the files that gave data.
void read_all(const std::vector<fs::path>& files, reader read, detail::kernel_table& table,
              capture& out) {
  for (const fs::path& file : files) {
    if (read(file, table, out.notes)) out.files.push_back(file);
  }
}

// Devices equal in type, id and every property are one device, listed by more than one file.
struct device_order {
  bool operator()(const device_info& a, const device_info& b) const {
    return std::tie(a.type, a.id, a.properties) < std::tie(b.type, b.id, b.properties);
  }
};

}  // namespace

capture read_rocprof_capture(const fs::path& dir, bool keep_frame_tree) {
  capture out;
  out.collector = "rocprof";
  std::error_code ec;
  out.artifact_dir = fs::absolute(dir, ec).lexically_normal();
  const bool one_file = fs::is_regular_file(dir, ec);
  if (!one_file && !fs::is_directory(dir, ec)) {
    out.notes.push_back(fmt::format(
        "no rocprofv3 output directory at {}: rocprofv3 writes no files at all when the command "
        "launches no GPU work",
        out.artifact_dir.string()));
    return out;
  }
  const rocprof_files files = one_file ? single_file(dir) : find_files(dir);
  detail::kernel_table table;
  // Keyed on data, not on which files exist: a truncated or renamed-column stats file falls
  // through to the trace, and both to the JSON results.
  read_all(files.stats, detail::read_rocprof_kernel_stats, table, out);
  if (table.empty()) read_all(files.traces, detail::read_rocprof_kernel_trace, table, out);
  if (table.empty()) read_all(files.results_json, detail::read_rocprof_results_json, table, out);
  if (table.empty() && !files.rocpd.empty()) {
    // rocpd: ROCm 7's default. Summed per kernel and agent, placed under one frame per agent.
    detail::frame_tree_builder tree(keep_frame_tree ? detail::frame_tree_mode::kept
                                                    : detail::frame_tree_mode::totals_only);
    for (const fs::path& file : files.rocpd) {
      detail::read_rocpd_database(file, tree, out.devices, out.notes);
      out.files.push_back(file);
    }
    tree.take_kernels(out);
    tree.finish(out);
    return out;
  }
  if (table.empty() && files.stats.empty() && files.traces.empty() && files.results_json.empty()) {
    out.notes.push_back(fmt::format(
        "no *_kernel_stats.csv, *_kernel_trace.csv, *_results.json or rocpd *.db under {}",
        out.artifact_dir.string()));
  }
  out.kernels = table.sorted(out.artifact_dir.string());
  // An ordered set, not a search of the list: an agent table of n rows would cost n^2 compares.
  std::set<device_info, device_order> seen;
  for (const fs::path& file : files.agent_info) {
    for (device_info& device : detail::read_rocprof_agent_info(file, out.notes)) {
      if (seen.count(device) == 0) {
        seen.insert(device);
        out.devices.push_back(std::move(device));
      }
    }
  }
  return out;
}

}  // namespace aorta
