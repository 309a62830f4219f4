// The PC samples a trial records in result.json, so a baseline can hold them and the gate judge
// the shares (baseline/pc_sample_gate.hpp): per sampled kernel its samples and its stalls per
// reason, and its lines with the most samples.
//
//   <c>_pc_kernel_samples.<kernel>              every sample of the kernel
//   <c>_pc_line_samples.<kernel>/<location>     one of its pc_line_metric_limit hottest lines
//   <c>_pc_stalls.<kernel>/<reason>             its samples stalled for the reason
//   <c>_pc_line_stalls.<kernel>/<location>/<reason>
//                                               a listed line's pc_line_stall_limit largest
//                                               stall reasons (report.html's per-line bars)
//
// A location ("matmul.py:63", "lib.py:9@helper") and a reason hold no '/', so the last '/' of a
// key splits it. The lines left out are the kernel's samples minus the lines listed.
#pragma once

#include "aorta/capture.hpp"
#include "aorta/metrics.hpp"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace aorta::detail {

// Kernels (those with the most samples) and lines per kernel that get keys: a capture may hold
// 200,000 lines, and a result.json with a metric per line would be larger than the capture.
inline constexpr std::size_t pc_kernel_metric_limit = 8;
inline constexpr std::size_t pc_line_metric_limit = 16;
inline constexpr std::size_t pc_line_stall_limit = 4;

inline constexpr std::string_view pc_kernel_samples_infix = "_pc_kernel_samples.";
inline constexpr std::string_view pc_line_samples_infix = "_pc_line_samples.";
inline constexpr std::string_view pc_stalls_infix = "_pc_stalls.";
inline constexpr std::string_view pc_line_stalls_infix = "_pc_line_stalls.";

// Adds the keys above for `source` under `prefix` (its collector). Sums are checked
// (checked_sum.hpp) and throw capture_error past max_count.
void add_pc_sample_detail_metrics(const capture& source, const std::string& prefix,
                                  metric_set& out);

// What one trial's metrics say of one kernel's samples.
struct pc_kernel_record {
  double samples = 0.0;
  std::map<std::string, double> lines;                               // by location
  std::map<std::string, double> reasons;                             // by stall reason
  std::map<std::string, std::map<std::string, double>> line_stalls;  // location -> reason -> count
};

// The kernels of one trial's numeric metrics (every collector's keys together), by kernel name.
[[nodiscard]] std::map<std::string, pc_kernel_record>
pc_kernels_in_metrics(const std::map<std::string, double>& metrics);

}  // namespace aorta::detail
