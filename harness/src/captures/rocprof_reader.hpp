// Reads what rocprofv3 wrote (CSV, or its JSON results) into the neutral capture.
#pragma once

#include "aorta/capture.hpp"

#include <filesystem>

namespace aorta {

// Searches `dir` recursively, so both the flat `-o aorta` layout and the nested
// `<host>/<pid>_*.csv` one work. Sources, first one that yields data wins (docs/collectors.md):
//   1. *_kernel_stats.csv  (Name, Calls, TotalDurationNs), summed across files (ranks);
//   2. *_kernel_trace.csv  (Kind, Kernel_Name, Start_Timestamp, End_Timestamp; by header name);
//   3. *_results.json      (buffer_records.kernel_dispatch joined with kernel_symbols).
// *agent_info.csv GPU rows become capture.devices. A missing directory gives an empty capture with
// a note; dropped rows and files without data give notes. Throws capture_error when a file cannot
// be read, a JSON file is not JSON, or a summed total overflows. `dir` may also be one such file
// (`aorta check --collector rocprof FILE`); a file of any other name is a capture_error.
// `keep_frame_tree`: whether a rocpd database's kernels are placed under one frame per agent
// (capture::frames and placements); only under(...) checks and `aorta view` read them.
[[nodiscard]] capture read_rocprof_capture(const std::filesystem::path& dir,
                                           bool keep_frame_tree = true);

}  // namespace aorta
