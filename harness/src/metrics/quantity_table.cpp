#include "metrics/quantity_table.hpp"

#include <fmt/format.h>

#include <array>

namespace aorta::detail {
namespace {

// Order: the gate and the cells judge walk the rows with a gate item in this order for each
// kernel (time before count), so it is also the order of their rows. The enumerators are brought
// in at block scope: at namespace scope they would reach every source of a unity batch.
constexpr std::array<quantity_declaration, 13> declarations = [] {
  using enum value_source;
  using enum quantity_timing;
  using enum rank_combination;
  return std::array<quantity_declaration, 13>{{
      {check_quantity::metric, "metric", metrics, "", by_metric_name, lowest_rank, "metrics", "",
       "", "metric", "", false},
      {check_quantity::time_ms, "time_ms", kernels, "", timed, summed, "kernels", "time_ms", "time",
       "kernel time", "ms", false},
      {check_quantity::count, "count", kernels, "", exact, summed, "kernels", "launches", "count",
       "launches", "", true},
      {check_quantity::cycles, "cycles", scopes, "proton_scope_cycles.", timed, summed, "scopes",
       "cycles", "cycles", "scope cycles", "cycles", false},
      {check_quantity::normalized_cycles, "normalized_cycles", scopes,
       "proton_scope_normalized_cycles.", timed, summed, "scopes", "normalized_cycles", "",
       "normalized scope cycles", "", false},
      {check_quantity::ir, "ir", functions, "callgrind_ir.", exact, summed, "functions", "ir", "ir",
       "inclusive Ir", "Ir", false},
      {check_quantity::self_ir, "self_ir", functions, "callgrind_self_ir.", exact, summed,
       "functions", "self_ir", "", "self Ir", "Ir", false},
      {check_quantity::calls, "calls", functions, "", exact, summed, "", "", "", "calls", "",
       false},
      {check_quantity::top_kernel, "top_kernel", kernels, "", not_compared, none, "", "", "",
       "hottest kernel", "", false},
      {check_quantity::errors, "count_errors", findings, "", not_compared, summed, "", "", "",
       "checker errors", "", true},
      {check_quantity::ncu, "ncu", counters, "ncu_counter.", exact, summed, "metrics", "", "ncu",
       "ncu counter", "", false},
      {check_quantity::samples, "samples", pc_samples, "", not_compared, summed, "", "", "",
       "PC samples", "samples", false},
      {check_quantity::stalls, "stalls", pc_samples, "", not_compared, summed, "", "", "",
       "stalled PC samples", "samples", false},
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
