// Reads nvbench JSON (an nvbench executable's `--json FILE`) into the neutral capture: each
// benchmark state (a benchmark at one set of axis values) is a kernel row, so count(), time_ms(),
// top_kernel and the baseline gate address it by name (docs/collectors.md, nvbench).
#pragma once

#include "aorta/capture.hpp"

#include <filesystem>

namespace aorta {

// `dir_or_file`: one JSON file, or a directory whose `*.json` files are all read. Per state name
// ("gemm/M:2048"; "/Device:N" after the benchmark name when it ran on several devices):
//   kernel: launches = the number of files that measured it, total_ns = the median of their cold
//   GPU mean times (nv/cold/time/gpu/mean); for a file written with --jsonbin, its time is the mean
//   of the state's samples after the warm-up rule (nvbench_samples.hpp, warmup_launches.hpp)
//   numeric metrics "<name>.cpu_time_ns", "<name>.gpu_noise", "<name>.samples",
//   "<name>.batch_gpu_time_ns", "<name>.bytes_per_second", ... and other numeric summaries as
//   "<name>.<tag>": medians
//   findings: one "benchmark error" per state nvbench skipped for an exception ("Unexpected
//   error: ..."); other skipped states are notes. reported_errors is their number.
// Throws capture_error naming the file (and the benchmark, state and key) for a file that is not
// JSON, is JSON of another tool, has a meta.version.json.major other than 1, or holds a mistyped,
// negative, non-finite or overflowing value, or names a sample file that is missing, damaged or
// outside the JSON file's directory.
// `sample_times_required` (the collector's `sample_times: true`, which passed --jsonbin): a timed
// state without a sample-times summary is a capture_error naming the file and the state, never
// read as nvbench's mean.
[[nodiscard]] capture read_nvbench_capture(const std::filesystem::path& dir_or_file,
                                           bool sample_times_required = false);

}  // namespace aorta
