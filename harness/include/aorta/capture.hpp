// The neutral capture model: whatever a profiler wrote (hatchet JSON, rocprofv3 CSV/JSON, ncu CSV,
// callgrind out files) is read into this one shape, and metrics and checks look only at it.
#pragma once

#include "aorta/shared_name.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aorta {

// One kernel, summed over all launches and all files of a capture.
struct kernel_stat {
  // Shared with the capture's other kernels when a reader interned them in one block.
  shared_name name;
  // Launch count; nullopt when a source row's count was missing or untrustworthy. One unknown
  // count suppresses <c>_kernel_count for the whole capture (docs/checks-and-metrics.md).
  std::optional<std::uint64_t> launches;
  double total_ns = 0.0;
};

// One intra-kernel scope of a Proton instrumentation capture.
struct scope_stat {
  std::string kernel;  // the kernel frame the scope sits under ("" if none)
  std::string scope;
  double cycles = 0.0;
  double normalized_cycles = 0.0;
};

// One function of a callgrind capture; instruction counts (event Ir).
struct function_cost {
  std::string name;
  std::uint64_t self_ir = 0;
  std::uint64_t inclusive_ir = 0;
  // Times it was called: the `calls=` counts of every call site naming it, recursive ones included.
  std::uint64_t calls = 0;
};

// One hardware counter of one kernel, summed over the kernel's profiled launches (ncu's
// `metrics:`, e.g. smsp__inst_executed.sum). Instructions and bytes are what the code does, not
// how fast the card did it, so a gate can hold them exactly (docs/regression-gate.md).
struct kernel_counter {
  std::string kernel;
  std::string metric;  // the profiler's name
  std::string unit;    // as the profiler printed it ("inst", "byte")
  double value = 0.0;
};

// One stall reason of PC samples and how many samples stalled for it (Proton's `stalled_<reason>`
// metrics, the prefix dropped: "long_scoreboard", "math_pipe_throttle", ...).
struct pc_stall {
  std::string reason;
  std::uint64_t samples = 0;
};

// The PC samples that landed on one source line of one kernel (Proton `mode: pcsampling`), summed
// over the capture. Samples are statistical: a share of a kernel's samples estimates the share of
// its time, with binomial noise (docs/collectors.md).
struct pc_sample_line {
  std::string kernel;
  // "gelu.py:60": the line node's `file:line` with the directory and the `@kernel` suffix
  // dropped, so a check names the line the same way on every machine.
  std::string location;
  std::uint64_t samples = 0;
  std::uint64_t stalled = 0;
  std::vector<pc_stall> stalls;  // non-zero reasons, sorted by reason
};

// One device from the hatchet device table or rocprofv3's agent_info.
struct device_info {
  std::string type;  // "CUDA", "HIP", "CPU", ...
  std::string id;
  std::map<std::string, std::string> properties;  // arch, num_sms, clock_rate, ...
};

// One frame of the calling-context tree above the kernels: a Proton scope, a Python call-path
// frame, or (rocpd) the agent that ran them. Scope-addressed checks select a subtree by a path of
// these frames (docs/checks-and-metrics.md).
struct context_frame {
  static constexpr std::size_t no_parent = static_cast<std::size_t>(-1);
  std::string name;
  std::size_t parent = no_parent;  // index into capture::frames; no_parent for a top-level frame
};

// One error a correctness checker reported (compute-sanitizer's memcheck, racecheck, initcheck,
// synccheck): not a measurement but a verdict, so it has its own list. Identical reports (same
// severity, kind, kernel and location, e.g. one bad write by many threads) are one finding whose
// count says how many there were.
struct finding {
  std::string severity = "error";  // "error" or "warning", as the tool classed it
  std::string kind;                // "Invalid __global__ write of size 4 bytes", "Leak", ...
  std::string kernel;              // the device function it happened in; "" for host-side errors
  std::string location;            // "oob.cu:36" (or the API call) when the tool says; else ""
  std::string detail;              // thread, block, address: the first report's own lines
  std::uint64_t count = 1;
};

// A kernel's totals at one place in the tree, summed over its launches there.
struct placed_kernel {
  std::size_t frame = context_frame::no_parent;  // index into capture::frames; no_parent = root
  kernel_stat kernel;
};

// A user metric whose value is not a number: Proton's flexible metrics may be strings or arrays
// (`proton.scope(name, metrics={...})`; Triton's third_party/proton TreeData.cpp,
// appendFlexibleMetrics). Kept as text so a report shows it and a numeric check on it fails
// saying so, instead of reading 0.
struct text_metric {
  // The frame names below ROOT down to the node that carries the metric (a scope frame or a
  // kernel); empty for ROOT. A `<metric>` helper node's metrics belong to its parent.
  std::vector<std::string> path;
  std::string key;
  std::string text;  // a string as written; an array as its JSON text
};

// A number a tool reports for something that is not a kernel, scope or function (a benchmark's CPU
// time or user counter): the metric `<collector>.<key>`.
struct numeric_metric {
  std::string key;
  double value = 0.0;
};

// Bounds on what a capture keeps of text metrics, so a hostile or huge file cannot grow memory
// (docs/guards.md): a longer value is cut (ending in "...", with a note), and metrics beyond the
// count are dropped with a note.
inline constexpr std::size_t text_metric_max_bytes = 1024;
inline constexpr std::size_t text_metric_max_count = 1000;

struct capture {
  std::string collector;                     // "proton", "rocprof", "ncu", "callgrind", ...
  std::filesystem::path artifact_dir;        // absolute
  std::vector<std::filesystem::path> files;  // every file that contributed data
  std::vector<kernel_stat> kernels;          // sorted by total_ns, descending
  std::vector<scope_stat> scopes;            // in first-seen order
  std::vector<function_cost> functions;      // sorted by inclusive_ir, descending
  std::vector<kernel_counter> counters;      // sorted by kernel, then metric
  std::vector<device_info> devices;
  // Where the kernels ran in the calling-context tree, for readers that know it (Proton tree and
  // trace, rocpd by agent); both empty otherwise. Each path occurs once in frames, parents first.
  std::vector<context_frame> frames;
  std::vector<placed_kernel> placements;
  // A checker's report, read to its end: the errors it listed, and its error total (the summary
  // line's, which can exceed the findings' counts when the tool stopped printing, or the listed
  // errors' when more). reported_errors is set only when the whole report was read, so a clean
  // run (0 errors) is a result, not an empty capture.
  std::vector<finding> findings;
  std::optional<std::uint64_t> reported_errors;
  // Non-numeric user metrics, in first-seen order; a later file's value for the same path and key
  // replaces the earlier one (Proton replaces a string metric on update).
  std::vector<text_metric> text_metrics;
  // Named numbers, in first-seen order, each key once (gbench's CPU times and counters).
  std::vector<numeric_metric> numeric_metrics;
  // PC samples per (kernel, source line), sorted by kernel then location; empty unless the
  // profiler sampled (a recipe that asked for samples and got none fails: docs/collectors.md).
  std::vector<pc_sample_line> pc_samples;
  // The backend that actually ran, when the capture or its environment tells (e.g. "cupti").
  std::string backend;
  // Things the reader skipped or doubted (a dropped row, an unreadable count), for the report.
  std::vector<std::string> notes;
  // The rank that wrote it, for one rank's capture of a multi-rank trial; nullopt for a
  // single-process capture and for the sum over all ranks.
  std::optional<int> rank;

  // No kernels, scopes, functions, PC samples or checker's report: a silently empty profile.
  [[nodiscard]] bool empty() const noexcept {
    return kernels.empty() && scopes.empty() && functions.empty() && findings.empty() &&
           pc_samples.empty() && !reported_errors;
  }
};

// One rank of a multi-rank trial: what it wrote, one capture per attaching collector.
struct rank_captures {
  int rank = 0;
  std::string host;          // where it ran (gethostname of the rank's process)
  std::string variable;      // the variable its rank came from: RANK, OMPI_COMM_WORLD_RANK, ...
  std::vector<capture> captures;
  std::string card;          // the card it ran on, as rank.json tells (ranks/rank_card.hpp)
  std::string card_source;   // how rank-exec knew it
};

// The ranks' captures of one collector summed into one: launches, times, cycles and Ir add up per
// kernel, scope and function; an unknown launch count on any rank stays unknown. `rank` is nullopt.
[[nodiscard]] capture sum_over_ranks(const std::vector<const capture*>& per_rank);

}  // namespace aorta
