#include "checks/metric_selection.hpp"

#include "metrics/display_names.hpp"
#include "metrics/number_format.hpp"
#include "metrics/quantity_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace aorta::detail {
namespace {

bool read_by(const check_expression& check, const std::string& name) {
  const auto suffix_after = [&](check_quantity quantity) { return metric_name_in(quantity, name); };
  const auto pattern_matches = [&](std::string_view function) {
    if (check.pattern() && check.pattern()->search(function)) return true;
    return check.denominator_pattern() && check.denominator_pattern()->search(function);
  };
  const auto scope_matches = [&](std::string_view scope) {
    const auto ends_with = [&](const std::string& wanted) {
      return scope == wanted || scope.ends_with("/" + wanted);
    };
    return ends_with(check.argument()) ||
           (check.denominator() && ends_with(*check.denominator()));
  };
  switch (check.quantity()) {
  case check_quantity::metric: return name == check.argument();
  case check_quantity::ir:
    for (const check_quantity function_metric : {check_quantity::ir, check_quantity::self_ir}) {
      if (const auto function = suffix_after(function_metric)) return pattern_matches(*function);
    }
    return false;
  case check_quantity::self_ir:
  case check_quantity::cycles:
  case check_quantity::normalized_cycles: {
    const auto selected = suffix_after(check.quantity());
    if (!selected) return false;
    return check.quantity() == check_quantity::self_ir ? pattern_matches(*selected)
                                                        : scope_matches(*selected);
  }
  case check_quantity::errors: return is_error_metric(name);
  case check_quantity::ncu:
    if (const auto counter = suffix_after(check_quantity::ncu)) {
      const std::size_t slash = counter->find('/');
      return slash != std::string_view::npos && pattern_matches(counter->substr(slash + 1));
    }
    return false;
  default: return false;
  }
}

// callgrind's per-function keys of the loader and libc, which "all" leaves out.
bool is_folded_function(const std::string& name) {
  for (const check_quantity function_metric : {check_quantity::ir, check_quantity::self_ir}) {
    if (const auto function = metric_name_in(function_metric, name))
      return is_system_frame(*function);
  }
  return false;
}

}  // namespace

metric_set select_metrics(const metric_set& metrics, const std::vector<check_expression>& checks,
                          const std::vector<std::string>& chosen, std::size_t& hidden) {
  const bool all = std::find(chosen.begin(), chosen.end(), "all") != chosen.end();
  metric_set selected;
  selected.kernels = metrics.kernels;
  selected.notes = metrics.notes;
  // Not a structured binding: C++20 lets a lambda capture one, clang 14 (the fuzz build) does not.
  for (const auto& entry : metrics.values) {
    const std::string& name = entry.first;
    const bool wanted =
        (all && !is_folded_function(name)) ||
        std::find(chosen.begin(), chosen.end(), name) != chosen.end() ||
        std::any_of(checks.begin(), checks.end(),
                    [&](const check_expression& check) { return read_by(check, name); });
    if (wanted) selected.values.emplace(name, entry.second);
  }
  hidden = metrics.values.size() - selected.values.size();
  return selected;
}

std::vector<reporting::measurement> check_measurements(const std::vector<check_result>& results) {
  std::vector<reporting::measurement> out;
  for (const auto& result : results) {
    const char* begin = result.actual.c_str();
    char* end = nullptr;
    const double value = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(value)) continue;
    out.push_back({"check: " + result.expression, exact_number(value)});
  }
  return out;
}

}  // namespace aorta::detail
