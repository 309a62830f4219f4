// The quantity table: one declaration per quantity a check can name (kernel time and launches,
// scope cycles, Ir, calls, a checker's errors, ncu counters, PC samples, plain metrics). Checks,
// metrics, the baseline file, the gate and the cells judge read it, so adding a quantity is one
// row here rather than a prefix retyped in each of them (docs/architecture.md, "How to add a
// quantity").
#pragma once

#include "aorta/capture.hpp"
#include "aorta/check.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace aorta::detail {

// Where a quantity's value comes from in a capture (and so which capture a check reads).
enum class value_source : std::uint8_t {
  metrics, kernels, scopes, functions, findings, counters, pc_samples
};

// Whether a trial-to-trial difference is noise (timed: judged by a test over trials) or a change
// (exact: any difference counts). by_metric_name: a plain metric, decided by its name
// (is_exact_quantity). not_compared: never judged against a baseline.
enum class quantity_timing : std::uint8_t { timed, exact, by_metric_name, not_compared };

// How the ranks of a multi-rank trial combine into the one view plain checks read.
enum class rank_combination : std::uint8_t {
  summed,       // a share of a total: kernel time, launches, cycles, Ir, counters, samples
  lowest_rank,  // a rate or a text: the lowest rank's value stands, a different one is noted
  none,         // not a number over ranks
};

// Where a quantity sits in one entry of its capture source, so that evaluation and the sum over
// ranks ask the row rather than switching on the quantity. Only the member of the row's source is
// set. A kernel's value is read by a function: its time is kept in ns, its launches may be unknown.
struct entry_reader {
  // nullopt: the capture does not know it (a launch count a tracer could not trust).
  std::optional<double> (*kernel)(const kernel_stat&) = nullptr;
  double scope_stat::*scope = nullptr;
  std::uint64_t function_cost::*function = nullptr;
};

// One row. The table (quantity_table.cpp) names each field it sets (designated initializers);
// a field left out takes the default here.
struct quantity_declaration {
  check_quantity quantity;
  std::string_view check_name = {};  // the function a check writes: "time_ms"
  value_source source;
  quantity_timing timing;
  rank_combination ranks;
  std::string_view display_name = {};
  std::string_view unit = {};
  // A trial's metrics hold it under `<prefix><name>` ("" when it has no per-name metric).
  std::string_view metric_prefix = {};
  // Where a baseline file keeps it: [section, field] ("" when the gate does not record it).
  std::string_view baseline_section = {};
  std::string_view baseline_field = {};
  // The default gate's item that judges it ("time", "count", ...); "" when not judged by default.
  // The gate (default_gate_rows) and the cells judge (judge_cells) both take their lists here.
  std::string_view gate_item = {};
  // A selector that matches nothing reads 0 (asserting that a kernel does not run, or that no
  // error was reported, is a real use); the others are then not measured unless written `F(A)?`.
  bool absent_reads_zero = false;
  // A check of it compares a number (false: top_kernel compares the hottest kernel's name).
  bool numeric = true;
  // Several entries a regex matches add up. Inclusive Ir does not: a caller's Ir holds its
  // callees', so a sum would count them twice.
  bool matches_add_up = true;
  // The straggler gate (baseline/straggler_gate.cpp) compares each rank's value with the median of
  // its peers' for every kernel or function of a multi-rank trial.
  bool straggler_judged = false;
  entry_reader reads = {};
  // A checker's findings it counts: "error" or "warning" ("" for the other sources).
  std::string_view finding_severity = {};
  // Why `F(A) OP baseline` is refused when the row has no baseline section: the text after
  // "a number after F(...): " in the parser's message ("" for a row a baseline keeps).
  std::string_view baseline_refusal = {};
  // Its argument names a stall reason after the kernel regex: stalls(KERNEL, REASON[, LINE]).
  bool argument_names_reason = false;
};

[[nodiscard]] std::span<const quantity_declaration> quantity_table() noexcept;
[[nodiscard]] const quantity_declaration& declaration_of(check_quantity quantity) noexcept;

// The rows that code outside the checks reaches by role: a metric family, a gate row's tag, the
// calibration's kernel time. Only the table, the check grammar and the evaluation forms name a
// check_quantity, so a row is renamed or split in those three files.
[[nodiscard]] const quantity_declaration& kernel_time_row() noexcept;
[[nodiscard]] const quantity_declaration& scope_cycles_row() noexcept;
[[nodiscard]] const quantity_declaration& normalized_cycles_row() noexcept;
[[nodiscard]] const quantity_declaration& inclusive_ir_row() noexcept;
[[nodiscard]] const quantity_declaration& self_ir_row() noexcept;
[[nodiscard]] const quantity_declaration& counter_row() noexcept;
[[nodiscard]] const quantity_declaration& line_samples_row() noexcept;
[[nodiscard]] const quantity_declaration& stall_samples_row() noexcept;

// The declaration whose metric prefix `key` starts with, or nullptr (a plain metric).
[[nodiscard]] const quantity_declaration* declaration_of_metric(std::string_view key) noexcept;

// A baseline file keeps its per-trial values, so `F(A) OP baseline` and `F(A)@cell` can judge it.
[[nodiscard]] bool kept_in_baseline(check_quantity quantity) noexcept;

// How a check writes one term of it: the metric's name, or `F(A)`.
[[nodiscard]] std::string written_term(check_quantity quantity, std::string_view argument);

// `<prefix><name>`: the metric key of one scope, function or counter.
[[nodiscard]] std::string metric_key(check_quantity quantity, std::string_view name);
// The name after the quantity's prefix, or nullopt when `key` is not one of its metrics.
[[nodiscard]] std::optional<std::string_view> metric_name_in(check_quantity quantity,
                                                             std::string_view key) noexcept;

// Judged exactly (any change counts) rather than as a sample of noisy trials. For a plain metric
// the name decides: launch totals, every callgrind metric and ncu counters are exact.
[[nodiscard]] bool is_exact_quantity(check_quantity quantity, std::string_view metric_name);
// A time-like quantity: gate rows say SLOWER/FASTER, calibration and noise floors apply.
[[nodiscard]] bool is_timed_quantity(check_quantity quantity) noexcept;

// The not-measured rule: whether a selector that matched nothing reads 0 (count(), count_errors(),
// or a term written `F(A)?`) instead of leaving the check not measured.
[[nodiscard]] bool reads_zero_when_absent(check_quantity quantity, bool written_optional) noexcept;

// `<c>_error_count` or `<c>_errors.<kind>`: a checker's report.
[[nodiscard]] bool is_error_metric(std::string_view name) noexcept;
// `<c>_kernel_count`: summed launches.
[[nodiscard]] bool is_kernel_count_metric(std::string_view name) noexcept;
// A metric of the scopes (cycles or normalized cycles) or of the functions (any callgrind metric).
[[nodiscard]] bool is_scope_metric(std::string_view name) noexcept;
[[nodiscard]] bool is_function_metric(std::string_view name) noexcept;

// `<c>_kernel_count`: a capture's summed launches.
inline constexpr std::string_view kernel_count_suffix = "_kernel_count";

// The whole program's Ir (the largest inclusive Ir of any function).
inline constexpr std::string_view callgrind_total_ir_metric = "callgrind_total_ir";

// The label a gate or cells row gives one scope, function, kernel or counter: "cycles(loop)",
// "ncu(dram__bytes.sum, gemm)".
[[nodiscard]] std::string quantity_label(const quantity_declaration& declared,
                                         std::string_view name);

}  // namespace aorta::detail
