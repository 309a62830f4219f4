// Proton's `data: trace` output (<name>.chrome_trace): Chrome Trace Event JSON, one object
// {"displayTimeUnit": ..., "traceEvents": [...]} per GPU stream and line (Triton's
// third_party/proton/csrc/lib/Data/TraceData.cpp, dumpKernelMetricTrace), or one such object or a
// bare event array. Each complete event ("ph": "X") of category "kernel" is one launch lasting
// "dur" microseconds; "args": {"call_stack": ["ROOT", scope..., kernel]} places it in the tree.
#pragma once

#include "aorta/capture.hpp"
#include "captures/frame_tree.hpp"
#include "captures/json_scanner.hpp"
#include "captures/launch_series.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace aorta::detail {

// Sums what the trace events say; several files may feed one.
struct chrome_trace_totals {
  frame_tree_builder tree;
  // The current file's launches, summed into `tree` when it ends (the warm-up rule).
  launch_series launches;
  std::uint64_t kernel_events = 0;
  std::uint64_t other_complete_events = 0;  // "X" events of another category
  std::string other_category;               // the first such category, for the note
  std::vector<std::string> notes;
};

// Streams `reader` (bounded memory: the scanner's buffer plus one event). Throws json_error.
void scan_chrome_trace(json_chunk_reader reader, std::size_t chunk_size, chrome_trace_totals& out);

// Opens and scans one file; errors name the file, byte and line (capture_error).
void read_chrome_trace_file(const std::filesystem::path& file, chrome_trace_totals& out);

// Moves the totals into `out`: placements, frames, kernels summed by name, notes. Launches not
// yet summed (a trace scanned without read_chrome_trace_file) are taken as one process's.
void finish_chrome_trace(chrome_trace_totals& totals, capture& out);

}  // namespace aorta::detail
