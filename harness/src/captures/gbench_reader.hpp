// Reads Google Benchmark JSON (--benchmark_out_format=json or --benchmark_format=json) into the
// neutral capture: each benchmark is a kernel row, so count(), time_ms(), top_kernel and the
// baseline gate address it by name (docs/collectors.md, gbench).
#pragma once

#include "aorta/capture.hpp"

#include <filesystem>

namespace aorta {

// `dir_or_file`: one JSON file, or a directory whose `*.json` files are all read. Per benchmark
// name (arguments included: "BM_Sort/1024"), over its repetition rows (run_type "iteration"; the
// aggregate rows Google Benchmark derives from them, _mean/_median/_stddev/_cv, are skipped):
//   kernel: launches = the number of repetitions, total_ns = their median real time per iteration,
//     after the warm-up rule (warmup_launches.hpp) drops the slow first ones of 8 or more
//   numeric metrics "<name>.cpu_time_ns", "<name>.iterations" and "<name>.<counter>": medians
//   findings: one "benchmark error" per run with error_occurred, its error_message as detail;
//   reported_errors is their number (0 for a clean file).
// Throws capture_error naming the file (and the benchmark) for a file that is not JSON, is JSON
// of another tool, has an unknown json_schema_version, or holds a mistyped, negative, non-finite
// or overflowing value.
[[nodiscard]] capture read_gbench_capture(const std::filesystem::path& dir_or_file);

}  // namespace aorta
