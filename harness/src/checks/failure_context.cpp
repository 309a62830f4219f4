#include "checks/failure_context.hpp"

#include "checks/capture_pick.hpp"
#include "checks/function_checks.hpp"
#include "checks/pc_sample_checks.hpp"
#include "metrics/number_format.hpp"
#include "metrics/quantity_table.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace aorta::detail {
namespace {

constexpr std::size_t context_rows = 5;

std::string kernel_context(const capture& source) {
  std::vector<const kernel_stat*> ordered;
  for (const auto& kernel : source.kernels) ordered.push_back(&kernel);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto* a, const auto* b) { return a->total_ns > b->total_ns; });
  std::string out = fmt::format("  hottest kernels ({}):\n", source.collector);
  for (std::size_t i = 0; i < ordered.size() && i < context_rows; ++i) {
    const auto& kernel = *ordered[i];
    out += fmt::format("    {}  launches {}  total {} ms\n", kernel.name,
                       kernel.launches ? std::to_string(*kernel.launches) : "unknown",
                       format_number(kernel.total_ns / 1e6));
  }
  return out;
}

std::string scope_context(const capture& source) {
  std::vector<const scope_stat*> ordered;
  for (const auto& scope : source.scopes) ordered.push_back(&scope);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto* a, const auto* b) { return a->cycles > b->cycles; });
  std::string out = fmt::format("  scopes with the most cycles ({}):\n", source.collector);
  for (std::size_t i = 0; i < ordered.size() && i < context_rows; ++i) {
    const auto& scope = *ordered[i];
    out += fmt::format("    {}{}  cycles {}  normalized_cycles {}\n",
                       scope.kernel.empty() ? "" : scope.kernel + "/", scope.scope,
                       format_number(scope.cycles), format_number(scope.normalized_cycles));
  }
  return out;
}

// The errors a checker reported, so a failed error check names the kernel and the access.
std::string finding_context(const std::vector<capture>& captures) {
  std::string out;
  for (const auto& source : captures) {
    if (!source.reported_errors) continue;
    out += fmt::format("  errors reported ({}): {}\n", source.collector, *source.reported_errors);
    for (std::size_t i = 0; i < source.findings.size() && i < context_rows; ++i) {
      const finding& each = source.findings[i];
      out += fmt::format("    {}{} x {}{}{}\n",
                         each.severity == "error" ? "" : each.severity + ": ", each.count,
                         each.kind, each.kernel.empty() ? "" : fmt::format(" in {}", each.kernel),
                         each.location.empty() ? "" : fmt::format(" at {}", each.location));
      if (!each.detail.empty()) out += fmt::format("      {}\n", each.detail);
    }
    if (source.findings.size() > context_rows) {
      out += fmt::format("    ... {} more in {}\n", source.findings.size() - context_rows,
                         source.artifact_dir.string());
    }
  }
  return out;
}

// Where a plain metric's value came from, by its name; the other forms declare it in the table.
value_source source_of(const check_expression& expression) {
  const value_source declared = declaration_of(expression.quantity()).source;
  if (declared != value_source::metrics) return declared;
  const std::string& name = expression.argument();
  if (is_error_metric(name)) return value_source::findings;
  if (is_scope_metric(name)) return value_source::scopes;
  if (is_function_metric(name)) return value_source::functions;
  return value_source::kernels;
}

}  // namespace

// What the failed check is about: kernels, scopes, functions or a checker's errors, falling back
// to whatever exists.
std::string failure_context(const check_expression& expression,
                            const std::vector<capture>& captures) {
  const value_source source_kind = source_of(expression);
  const data_kind preferred = source_kind == value_source::findings    ? data_kind::findings
                              : source_kind == value_source::scopes    ? data_kind::scopes
                              : source_kind == value_source::functions ? data_kind::functions
                                                                         : data_kind::kernels;
  if (source_kind == value_source::pc_samples) {
    for (const auto& source : captures) {
      if (!source.pc_samples.empty()) return pc_sample_context(source);
    }
  }
  for (const data_kind kind : {preferred, data_kind::kernels, data_kind::scopes,
                               data_kind::functions, data_kind::findings}) {
    const capture* source = first_with(captures, kind);
    if (source == nullptr) continue;
    if (kind == data_kind::findings) return finding_context(captures);
    if (kind == data_kind::kernels) return kernel_context(*source);
    if (kind == data_kind::scopes) return scope_context(*source);
    return function_context(*source);
  }
  return "  no capture has kernels, scopes or functions\n";
}

}  // namespace aorta::detail
