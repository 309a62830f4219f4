#include "metrics/quantity_table.hpp"

#include <fmt/format.h>

#include <array>

namespace aorta::detail {
namespace {

std::optional<double> entry_kernel_time_ms(const kernel_stat& kernel) {
  return kernel.total_ns / 1e6;
}
std::optional<double> entry_kernel_launches(const kernel_stat& kernel) {
  if (!kernel.launches) return std::nullopt;
  return static_cast<double>(*kernel.launches);
}

constexpr std::string_view pc_samples_refusal =
    "PC samples are not recorded in baselines, so the gate cannot judge them yet; check a share "
    "against a number";

// Order: the gate and the cells judge walk the rows with a gate item in this order for each
// kernel (time before count), so it is also the order of their rows. The enumerators are brought
// in at block scope: at namespace scope they would reach every source of a unity batch.
constexpr std::array<quantity_declaration, 14> declarations = [] {
  using enum value_source;
  using enum quantity_timing;
  using enum rank_combination;
  return std::array<quantity_declaration, 14>{{
      {.quantity = check_quantity::metric,
       .check_name = "metric",
       .source = metrics,
       .timing = by_metric_name,
       .ranks = lowest_rank,
       .display_name = "metric",
       .baseline_section = "metrics",
       .matches_add_up = false},
      {.quantity = check_quantity::time_ms,
       .check_name = "time_ms",
       .source = kernels,
       .timing = timed,
       .ranks = summed,
       .display_name = "kernel time",
       .unit = "ms",
       .baseline_section = "kernels",
       .baseline_field = "time_ms",
       .gate_item = "time",
       .straggler_judged = true,
       .reads = {.kernel = entry_kernel_time_ms}},
      {.quantity = check_quantity::count,
       .check_name = "count",
       .source = kernels,
       .timing = exact,
       .ranks = summed,
       .display_name = "launches",
       .baseline_section = "kernels",
       .baseline_field = "launches",
       .gate_item = "count",
       .absent_reads_zero = true,
       .reads = {.kernel = entry_kernel_launches}},
      {.quantity = check_quantity::cycles,
       .check_name = "cycles",
       .source = scopes,
       .timing = timed,
       .ranks = summed,
       .display_name = "scope cycles",
       .unit = "cycles",
       .metric_prefix = "proton_scope_cycles.",
       .baseline_section = "scopes",
       .baseline_field = "cycles",
       .gate_item = "cycles",
       .reads = {.scope = &scope_stat::cycles}},
      {.quantity = check_quantity::normalized_cycles,
       .check_name = "normalized_cycles",
       .source = scopes,
       .timing = timed,
       .ranks = summed,
       .display_name = "normalized scope cycles",
       .metric_prefix = "proton_scope_normalized_cycles.",
       .baseline_section = "scopes",
       .baseline_field = "normalized_cycles",
       .reads = {.scope = &scope_stat::normalized_cycles}},
      {.quantity = check_quantity::ir,
       .check_name = "ir",
       .source = functions,
       .timing = exact,
       .ranks = summed,
       .display_name = "inclusive Ir",
       .unit = "Ir",
       .metric_prefix = "callgrind_ir.",
       .baseline_section = "functions",
       .baseline_field = "ir",
       .gate_item = "ir",
       .matches_add_up = false,
       .straggler_judged = true,
       .reads = {.function = &function_cost::inclusive_ir}},
      {.quantity = check_quantity::self_ir,
       .check_name = "self_ir",
       .source = functions,
       .timing = exact,
       .ranks = summed,
       .display_name = "self Ir",
       .unit = "Ir",
       .metric_prefix = "callgrind_self_ir.",
       .baseline_section = "functions",
       .baseline_field = "self_ir",
       .reads = {.function = &function_cost::self_ir}},
      {.quantity = check_quantity::calls,
       .check_name = "calls",
       .source = functions,
       .timing = exact,
       .ranks = summed,
       .display_name = "calls",
       .reads = {.function = &function_cost::calls},
       .baseline_refusal = "call counts are not recorded in baselines, so calls() cannot be "
                           "gated yet; check an exact count instead"},
      {.quantity = check_quantity::top_kernel,
       .check_name = "top_kernel",
       .source = kernels,
       .timing = not_compared,
       .ranks = none,
       .display_name = "hottest kernel",
       .numeric = false,
       .matches_add_up = false},
      {.quantity = check_quantity::errors,
       .check_name = "count_errors",
       .source = findings,
       .timing = not_compared,
       .ranks = summed,
       .display_name = "checker errors",
       .absent_reads_zero = true,
       .finding_severity = "error",
       .baseline_refusal = "errors are judged against a count, not a baseline"},
      {.quantity = check_quantity::warnings,
       .check_name = "count_warnings",
       .source = findings,
       .timing = not_compared,
       .ranks = summed,
       .display_name = "checker warnings",
       .absent_reads_zero = true,
       .finding_severity = "warning",
       .baseline_refusal = "warnings are judged against a count, not a baseline"},
      {.quantity = check_quantity::ncu,
       .check_name = "ncu",
       .source = counters,
       .timing = exact,
       .ranks = summed,
       .display_name = "ncu counter",
       .metric_prefix = "ncu_counter.",
       .baseline_section = "metrics",
       .gate_item = "ncu"},
      {.quantity = check_quantity::samples,
       .check_name = "samples",
       .source = pc_samples,
       .timing = not_compared,
       .ranks = summed,
       .display_name = "PC samples",
       .unit = "samples",
       .baseline_refusal = pc_samples_refusal},
      {.quantity = check_quantity::stalls,
       .check_name = "stalls",
       .source = pc_samples,
       .timing = not_compared,
       .ranks = summed,
       .display_name = "stalled PC samples",
       .unit = "samples",
       .baseline_refusal = pc_samples_refusal,
       .argument_names_reason = true},
  }};
}();

}  // namespace

std::span<const quantity_declaration> quantity_table() noexcept {
  return declarations;
}

const quantity_declaration& declaration_of(check_quantity quantity) noexcept {
  for (const auto& declared : declarations) {
    if (declared.quantity == quantity) return declared;
  }
  return declarations.front();  // unreachable: the unit test holds every quantity declared
}

const quantity_declaration& kernel_time_row() noexcept {
  return declaration_of(check_quantity::time_ms);
}
const quantity_declaration& scope_cycles_row() noexcept {
  return declaration_of(check_quantity::cycles);
}
const quantity_declaration& normalized_cycles_row() noexcept {
  return declaration_of(check_quantity::normalized_cycles);
}
const quantity_declaration& inclusive_ir_row() noexcept {
  return declaration_of(check_quantity::ir);
}
const quantity_declaration& self_ir_row() noexcept {
  return declaration_of(check_quantity::self_ir);
}
const quantity_declaration& counter_row() noexcept {
  return declaration_of(check_quantity::ncu);
}
const quantity_declaration& line_samples_row() noexcept {
  return declaration_of(check_quantity::samples);
}
const quantity_declaration& stall_samples_row() noexcept {
  return declaration_of(check_quantity::stalls);
}

// A gate row's quantity defaults to its value-initialized one (baseline/gate_rule.hpp): a plain
// metric, so the table's first value must stay the plain metric.
static_assert(check_quantity{} == check_quantity::metric);

const quantity_declaration* declaration_of_metric(std::string_view key) noexcept {
  for (const auto& declared : declarations) {
    if (!declared.metric_prefix.empty() && key.starts_with(declared.metric_prefix))
      return &declared;
  }
  return nullptr;
}

std::string metric_key(check_quantity quantity, std::string_view name) {
  return fmt::format("{}{}", declaration_of(quantity).metric_prefix, name);
}

std::optional<std::string_view> metric_name_in(check_quantity quantity,
                                               std::string_view key) noexcept {
  const std::string_view prefix = declaration_of(quantity).metric_prefix;
  if (prefix.empty() || !key.starts_with(prefix)) return std::nullopt;
  return key.substr(prefix.size());
}

bool kept_in_baseline(check_quantity quantity) noexcept {
  return !declaration_of(quantity).baseline_section.empty();
}

std::string written_term(check_quantity quantity, std::string_view argument) {
  const quantity_declaration& declared = declaration_of(quantity);
  if (declared.source == value_source::metrics) return std::string(argument);
  return fmt::format("{}({})", declared.check_name, argument);
}

bool is_exact_quantity(check_quantity quantity, std::string_view metric_name) {
  switch (declaration_of(quantity).timing) {
  case quantity_timing::exact: return true;
  case quantity_timing::by_metric_name: break;
  case quantity_timing::timed:
  case quantity_timing::not_compared: return false;
  }
  if (is_kernel_count_metric(metric_name) || is_function_metric(metric_name)) return true;
  const auto* declared = declaration_of_metric(metric_name);
  return declared != nullptr && declared->timing == quantity_timing::exact;
}

bool is_timed_quantity(check_quantity quantity) noexcept {
  return declaration_of(quantity).timing == quantity_timing::timed;
}

bool reads_zero_when_absent(check_quantity quantity, bool written_optional) noexcept {
  return written_optional || declaration_of(quantity).absent_reads_zero;
}

bool is_error_metric(std::string_view name) noexcept {
  return name.ends_with("_error_count") || name.find("_errors.") != std::string_view::npos;
}

bool is_kernel_count_metric(std::string_view name) noexcept {
  return name.ends_with(kernel_count_suffix);
}

bool is_scope_metric(std::string_view name) noexcept {
  const auto* declared = declaration_of_metric(name);
  return declared != nullptr && declared->source == value_source::scopes;
}

bool is_function_metric(std::string_view name) noexcept {
  return name.starts_with("callgrind_");
}

std::string quantity_label(const quantity_declaration& declared, std::string_view name) {
  if (declared.source == value_source::counters) {
    // `<metric>/<kernel>`: the kernel is the selector, as in the check ncu(METRIC, REGEX).
    const std::size_t slash = name.find('/');
    if (slash != std::string_view::npos) {
      return fmt::format("{}({}, {})", declared.check_name, name.substr(0, slash),
                         name.substr(slash + 1));
    }
  }
  return fmt::format("{}({})", declared.check_name, name);
}

}  // namespace aorta::detail
