// Metrics: the flat, named numbers (and a few strings) computed from one capture. Names follow the
// original aorta so dashboards carry over (`<c>_kernel_count`, `<c>_gpu_time_ms`, ...), plus what
// the original lacked: `<c>_backend`, per-scope cycles, callgrind instruction counts and a
// per-kernel table.
#pragma once

#include "aorta/capture.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace aorta {

using metric_value = std::variant<std::int64_t, double, std::string, std::vector<std::string>>;

// One row of the per-kernel table (not a metric: it has no single value).
struct kernel_row {
  shared_name name;  // shared with the capture's kernel it was made from
  std::optional<std::uint64_t> launches;  // nullopt: the profiler gave no trustworthy count
  double total_ms = 0.0;
  std::string collector;  // which capture the row came from, once several are merged
};

struct metric_set {
  std::map<std::string, metric_value> values;
  std::vector<kernel_row> kernels;  // hottest first within each collector
  // Why a metric is missing (a non-finite total, an ambiguous scope) or was overwritten.
  std::vector<std::string> notes;
};

// How many functions get `callgrind_ir.<f>` / `callgrind_self_ir.<f>` keys (those with the largest
// inclusive Ir). A real program has thousands of functions; the ir() check still sees all of them.
inline constexpr std::size_t callgrind_metric_function_limit = 25;

// How many kernels (those with the most time) get `ncu_counter.<metric>/<kernel>` keys; the
// ncu() gate and checks read the keys, so a kernel past the limit is not gated by its counters.
inline constexpr std::size_t ncu_counter_kernel_limit = 50;

// `ncu_counter.<metric>/<kernel>`: a kernel's sum of one ncu metric over its launches.
[[nodiscard]] std::string ncu_counter_key(std::string_view metric, std::string_view kernel);

// How many error kinds get `<c>_errors.<kind>` keys (those with the most errors); the errors of
// the other kinds are summed in `<c>_errors_in_other_kinds`, so a report of 10^6 distinct kinds
// cannot make 10^6 metrics.
inline constexpr std::size_t finding_metric_kind_limit = 50;

// How many names `<c>_top_kernels` holds.
inline constexpr std::size_t top_kernel_limit = 5;

// Metrics of one capture, prefixed with capture.collector:
// - `<c>_artifact_dir` (string) always;
// - `<c>_backend` (string) when the capture knows the backend that ran;
// - with kernels: `<c>_gpu_time_ms`, `<c>_top_kernel_ms` (doubles), `<c>_top_kernels` (up to 5
//   names, hottest first) and `<c>_kernel_count` (int, summed launches) unless any kernel's count
//   is unknown; a non-finite total omits its metric and adds a note;
// - with scopes: `proton_scope_cycles.<scope>` and `proton_scope_normalized_cycles.<scope>`, summed
//   over entries of the same kernel and scope. When one scope name occurs under several kernels the
//   bare key would be ambiguous, so only `<kernel>/<scope>` keys are written for it (and a note);
// - with functions: `callgrind_total_ir` (the largest inclusive Ir, i.e. the program total) and
//   `callgrind_ir.<f>` / `callgrind_self_ir.<f>` for the callgrind_metric_function_limit functions
//   with the largest inclusive Ir;
// - with counters (ncu's `metrics:`): `ncu_counter.<metric>/<kernel>` (double) for the
//   ncu_counter_kernel_limit kernels with the most time;
// - with text metrics: `<c>_text.<path>:<key>` (string) per capture::text_metrics entry, named by
//   text_metric_name; two entries of one name (a frame "a/b" and frames a > b) give neither, and
//   a note;
// - with a checker's report (capture::reported_errors): `<c>_error_count` (the report's total),
//   `<c>_errors.<kind>` (errors of each kind, the kind lower-cased with runs of other characters
//   as `_`: `sanitizer_errors.invalid_global_write_of_size_4_bytes`) for the
//   finding_metric_kind_limit kinds with the most errors, `<c>_errors_in_other_kinds` (and a note)
//   when there are more, and `<c>_warning_count` when the report listed warnings.
// Counts are never wrapped: a launch-count sum past int64 omits `<c>_kernel_count` with a note.
// With kernel_rows::deferred the per-kernel table is left empty (every value is computed as with
// `copied`): the caller adds it with move_kernel_rows once nothing reads the capture's kernels, so
// their names are not held twice (80,000 kernels: a third of `aorta check`'s peak memory).
enum class kernel_rows : std::uint8_t { copied, deferred };
[[nodiscard]] metric_set compute_metrics(const capture& source,
                                         kernel_rows rows = kernel_rows::copied);

// Appends the rows compute_metrics(source) would make to out.kernels, moving the kernels' names
// instead of copying them; source.kernels is left empty (source.empty() may become true).
void move_kernel_rows(capture& source, metric_set& out);

// `<collector>_text.<frame/path>:<key>`, or `<collector>_text.<key>` for a metric of ROOT.
[[nodiscard]] std::string text_metric_name(const std::string& collector, const text_metric& metric);

// Adds `from` to `into`: values by name (a clash keeps `from`'s value and adds a note), kernel rows
// and notes appended.
void merge_metrics(metric_set& into, const metric_set& from);
// The same, moving `from`'s metrics and kernel rows (a copy of 80,000 rows was the largest
// allocation of a check; 100,000 scope metrics were copied key and value).
void merge_metrics(metric_set& into, metric_set&& from);

// Aligned text for the terminal: one `name  value` line per metric, then the per-kernel table
// (name, launches, total ms), then the notes.
[[nodiscard]] std::string format_metrics_table(const metric_set& metrics);

// The value as a double when it is numeric (int or double), nullopt for strings and lists.
[[nodiscard]] std::optional<double> numeric_value(const metric_value& value);

// The value as text: integers exactly, doubles with up to 4 decimals (or 6 significant digits when
// very small or large), lists comma-separated.
[[nodiscard]] std::string format_metric_value(const metric_value& value);

}  // namespace aorta
