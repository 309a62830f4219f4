#include "aorta/check.hpp"

#include "checks/capture_pick.hpp"
#include "checks/check_message.hpp"
#include "checks/closest_names.hpp"
#include "checks/failure_context.hpp"
#include "checks/function_checks.hpp"
#include "checks/ncu_checks.hpp"
#include "checks/pc_sample_checks.hpp"
#include "checks/scope_checks.hpp"
#include "metrics/anchor_hint.hpp"
#include "metrics/number_format.hpp"
#include "metrics/quantity_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace aorta {
namespace {

using detail::data_kind;
using detail::failure_context;
using detail::first_with;

constexpr std::size_t listed_names = 10;

// A measured quantity, or why it could not be measured.
struct measured {
  std::optional<double> value;
  std::string reason;  // set when value is empty; for a value, an optional remark
};

measured unmeasured(std::string reason) {
  return {std::nullopt, std::move(reason)};
}

std::string none_with(const std::vector<capture>& captures, std::string_view what) {
  if (captures.empty()) return fmt::format("there is no capture, so no {} to measure", what);
  std::vector<std::string> collectors;
  for (const auto& each : captures) collectors.push_back(each.collector);
  return fmt::format("no capture has {} (captures: {})", what, fmt::join(collectors, ", "));
}

// The first listed_names of `total` names, and how many more there are.
std::string joined_names(const std::vector<std::string>& names, std::size_t total) {
  if (total <= listed_names) return fmt::format("{}", fmt::join(names, ", "));
  const std::vector<std::string> shown(names.begin(), names.begin() + listed_names);
  return fmt::format("{}, ... ({} more)", fmt::join(shown, ", "), total - listed_names);
}

std::string joined_names(const std::vector<std::string>& names) {
  return joined_names(names, names.size());
}

// A selector that matched nothing: 0 for count() (asserting that a kernel does not run is a real
// use) and for a term written `F(A)?`; otherwise not measured, so a misspelt or renamed name
// cannot pass an upper bound.
measured nothing_matched(check_quantity quantity, bool absent_reads_zero, std::string what,
                         const std::vector<std::string>& names, const std::string& argument,
                         std::string_view wanted) {
  if (detail::reads_zero_when_absent(quantity, absent_reads_zero)) return {0.0, std::move(what)};
  return unmeasured(fmt::format("{}, so {}({}) was not measured{}. Fix: correct the name, or "
                                "write {}({})? if its absence is fine (it then reads 0)",
                                what, to_string(quantity), argument,
                                detail::closest_names_text(names, wanted), to_string(quantity),
                                argument));
}

measured kernel_quantity(const std::vector<capture>& captures, check_quantity quantity,
                         const std::string& argument, const name_regex& pattern,
                         bool absent_reads_zero) {
  const capture* source = first_with(captures, data_kind::kernels);
  if (source == nullptr) return unmeasured(none_with(captures, "kernels"));
  double total = 0.0;
  std::size_t matched = 0;
  std::vector<std::string> unknown_counts;
  const auto read = detail::declaration_of(quantity).reads.kernel;
  for (const auto& kernel : source->kernels) {
    if (!pattern.search(kernel.name)) continue;
    ++matched;
    if (const std::optional<double> value = read(kernel)) {
      total += *value;
    } else {
      unknown_counts.push_back(kernel.name.str());
    }
  }
  if (!unknown_counts.empty()) {
    return unmeasured(
        fmt::format("the launch count of {} is unknown ({} gave no trustworthy count)",
                    joined_names(unknown_counts), source->collector));
  }
  if (matched == 0) {
    std::vector<std::string> names;
    names.reserve(source->kernels.size());
    for (const auto& kernel : source->kernels) names.push_back(kernel.name.str());
    return nothing_matched(quantity, absent_reads_zero,
                           fmt::format("no kernel matches '{}'", argument), names, argument,
                           argument);
  }
  if (!std::isfinite(total)) {
    return unmeasured(fmt::format("the sum over the {} kernel(s) matching '{}' is not finite",
                                  matched, argument));
  }
  return {total, {}};
}

measured scope_quantity(const std::vector<capture>& captures, check_quantity quantity,
                        const std::string& argument, bool absent_reads_zero) {
  const capture* source = first_with(captures, data_kind::scopes);
  if (source == nullptr) return unmeasured(none_with(captures, "scopes"));
  const auto field = detail::declaration_of(quantity).reads.scope;
  const auto value_of = [field](const scope_stat& entry) { return entry.*field; };

  std::set<std::string> kernels;
  double total = 0.0;
  for (const auto& entry : source->scopes) {
    if (entry.scope != argument) continue;
    kernels.insert(entry.kernel);
    total += value_of(entry);
  }
  if (kernels.size() > 1) {
    return unmeasured(fmt::format(
        "scope '{}' occurs in {} kernels ({}); qualify it as kernel/scope, e.g. {}({}/{})",
        argument, kernels.size(), joined_names({kernels.begin(), kernels.end()}),
        to_string(quantity), *kernels.begin(), argument));
  }
  if (kernels.size() == 1) return {total, {}};

  const auto slash = argument.rfind('/');
  if (slash != std::string::npos) {
    const std::string kernel = argument.substr(0, slash);
    const std::string scope = argument.substr(slash + 1);
    bool found = false;
    for (const auto& entry : source->scopes) {
      if (entry.kernel != kernel || entry.scope != scope) continue;
      found = true;
      total += value_of(entry);
    }
    if (found) return {total, {}};
  }
  if (detail::reads_zero_when_absent(quantity, absent_reads_zero))
    return {0.0, fmt::format("no scope '{}'", argument)};
  // In first-seen order, without a walk over the names before each one (100,000 scopes made
  // this message quadratic).
  const detail::scope_names known = detail::known_scope_names(*source, listed_names);
  return unmeasured(fmt::format("no scope '{}' in the {} capture; its scopes: {}", argument,
                                source->collector, joined_names(known.first, known.total)));
}

// The findings of every checker's report of the quantity's severity (count_errors: errors, and
// warnings do not count) whose kind or kernel matches.
measured finding_quantity(const std::vector<capture>& captures, check_quantity quantity,
                          const std::string& argument, const name_regex& pattern) {
  if (first_with(captures, data_kind::findings) == nullptr) {
    return unmeasured(none_with(captures, "a checker's report (collect: sanitizer)"));
  }
  const std::string_view severity = detail::declaration_of(quantity).finding_severity;
  double total = 0.0;
  for (const auto& source : captures) {
    for (const auto& each : source.findings) {
      if (each.severity != severity) continue;
      if (pattern.search(each.kind) || pattern.search(each.kernel))
        total += static_cast<double>(each.count);
    }
  }
  if (total == 0.0) return {0.0, fmt::format("no reported {} matches '{}'", severity, argument)};
  return {total, {}};
}

// One term of a check: the numerator, or the denominator of a ratio.
struct operand {
  const std::string& argument;
  const std::optional<name_regex>& pattern;
  const std::optional<scope_path>& scope;
  bool absent_reads_zero;
  check_quantity quantity;  // a ratio's terms differ only as samples() and stalls()
};

operand numerator_of(const check_expression& expression) {
  return {expression.argument(), expression.pattern(), expression.scope(),
          expression.absent_reads_zero(), expression.quantity()};
}

operand denominator_of(const check_expression& expression) {
  return {*expression.denominator(), expression.denominator_pattern(),
          expression.denominator_scope(), expression.denominator_absent_reads_zero(),
          expression.denominator_quantity()};
}

measured scoped_operand(const check_expression& expression, const std::vector<capture>& captures,
                        const operand& term) {
  detail::scoped_measure value =
      detail::scoped_kernel_quantity(captures, expression.quantity(), *term.scope, *term.pattern);
  if (value.value && value.nothing_matched) {
    return nothing_matched(expression.quantity(), term.absent_reads_zero, std::move(value.reason),
                           value.kernels_there, term.argument, term.pattern->pattern());
  }
  return {value.value, std::move(value.reason)};
}

measured pc_sample_operand(check_quantity quantity, const std::vector<capture>& captures,
                           const operand& term) {
  detail::pc_sample_measure value = detail::pc_sample_quantity(captures, quantity, term.argument);
  if (value.value && value.nothing_matched) {
    return nothing_matched(quantity, term.absent_reads_zero, std::move(value.reason),
                           value.names_there, term.argument, value.wanted);
  }
  return {value.value, std::move(value.reason)};
}

measured measure_operand(const check_expression& expression, const std::vector<capture>& captures,
                         const operand& term) {
  const std::string& argument = term.argument;
  const std::optional<name_regex>& pattern = term.pattern;
  if (term.scope) return scoped_operand(expression, captures, term);
  switch (detail::declaration_of(term.quantity).source) {
  case detail::value_source::kernels:
    return kernel_quantity(captures, term.quantity, argument, *pattern, term.absent_reads_zero);
  case detail::value_source::scopes:
    return scope_quantity(captures, term.quantity, argument, term.absent_reads_zero);
  case detail::value_source::functions: {
    const capture* source = first_with(captures, data_kind::functions);
    if (source == nullptr) return unmeasured(none_with(captures, "functions"));
    detail::function_measure value = detail::function_quantity(*source, term.quantity, argument,
                                                               *pattern, term.absent_reads_zero);
    return {value.value, std::move(value.reason)};
  }
  case detail::value_source::findings:
    return finding_quantity(captures, term.quantity, argument, *pattern);
  case detail::value_source::counters: {
    detail::counter_sum sum = detail::ncu_counter_in_capture(captures, argument, *pattern);
    if (!sum.value && sum.no_kernel_matched &&
        detail::reads_zero_when_absent(term.quantity, term.absent_reads_zero))
      return {0.0, sum.why};
    if (!sum.value) return unmeasured(std::move(sum.why));
    return {*sum.value, {}};
  }
  case detail::value_source::pc_samples: return pc_sample_operand(term.quantity, captures, term);
  case detail::value_source::metrics: break;
  }
  return unmeasured("not a measured quantity");
}

measured metric_quantity(const std::string& name, const metric_set& metrics) {
  const auto found = metrics.values.find(name);
  if (found == metrics.values.end()) {
    std::vector<std::string> numeric;
    for (const auto& [key, value] : metrics.values) {
      if (numeric_value(value)) numeric.push_back(key);
    }
    return unmeasured(fmt::format("metric '{}' is not in this trial's metrics; numeric metrics: {}",
                                  name, numeric.empty() ? "none" : joined_names(numeric)));
  }
  if (const auto value = numeric_value(found->second)) return {*value, {}};
  // A profiler's user metric kept as text (capture::text_metrics) says where it came from.
  const bool user_text = name.find("_text.") != std::string::npos &&
                         std::holds_alternative<std::string>(found->second);
  return unmeasured(fmt::format("metric '{}' is text ('{}'), not a number{}", name,
                                format_metric_value(found->second),
                                user_text ? "; the profiler wrote this user metric as a string or "
                                            "array, which aorta keeps as text and a check cannot "
                                            "compare"
                                          : ""));
}

check_result finish(const check_expression& expression, const std::vector<capture>& captures,
                    bool passed, std::string expected, std::string actual, const std::string& why,
                    std::optional<double> value = std::nullopt) {
  check_result result{expression.text(), passed, std::move(expected), std::move(actual), {}, value};
  result.message = passed ? detail::passed_check_message(result)
                          : detail::failed_check_message(result, why) +
                                failure_context(expression, captures);
  return result;
}

check_result evaluate_top_kernel(const check_expression& expression,
                                 const std::vector<capture>& captures) {
  const std::string expected = fmt::format("~ {}", expression.argument());
  if (expression.scope()) {
    const detail::scoped_top top = detail::scoped_top_kernel(captures, *expression.scope());
    if (!top.name) return finish(expression, captures, false, expected, "unknown", top.reason);
    const bool passed = expression.pattern()->search(*top.name);
    return finish(expression, captures, passed, expected, *top.name,
                  passed ? ""
                         : fmt::format("the hottest kernel under {} does not match '{}'",
                                       expression.scope()->text(), expression.argument()));
  }
  const capture* source = first_with(captures, data_kind::kernels);
  if (source == nullptr) {
    return finish(expression, captures, false, expected, "unknown", none_with(captures, "kernels"));
  }
  const auto top = std::max_element(
      source->kernels.begin(), source->kernels.end(),
      [](const kernel_stat& a, const kernel_stat& b) { return a.total_ns < b.total_ns; });
  const bool passed = expression.pattern()->search(top->name);
  return finish(
      expression, captures, passed, expected, top->name.str(),
      passed ? "" : fmt::format("the hottest kernel does not match '{}'", expression.argument()));
}

}  // namespace

check_result evaluate_check(const check_expression& expression,
                            const std::vector<capture>& captures, const metric_set& metrics) {
  const detail::quantity_declaration& declared = detail::declaration_of(expression.quantity());
  if (!declared.numeric) return evaluate_top_kernel(expression, captures);
  const std::string expected =
      fmt::format("{} {}", to_string(expression.op()), expression.threshold_text());
  if (expression.cell()) {
    return finish(expression, captures, false, expected, "not judged",
                  "a cell-addressed check is judged once per `aorta sweep run` over the cells' "
                  "trials, not on one capture");
  }
  if (expression.baseline()) {
    return finish(expression, captures, false, expected, "not judged",
                  "a baseline check is judged over all trials by `aorta sweep run --baseline DIR` "
                  "(or `aorta compare`), not on one capture");
  }

  if (declared.source == detail::value_source::metrics) {
    const measured value = metric_quantity(expression.argument(), metrics);
    if (!value.value) return finish(expression, captures, false, expected, "missing", value.reason);
    const bool passed = compare(*value.value, expression.op(), expression.threshold());
    return finish(expression, captures, passed, expected, detail::format_number(*value.value), "",
                  value.value);
  }

  const measured numerator = measure_operand(expression, captures, numerator_of(expression));
  if (!numerator.value)
    return finish(expression, captures, false, expected, "unknown", numerator.reason);

  if (!expression.is_ratio()) {
    const bool passed = compare(*numerator.value, expression.op(), expression.threshold());
    std::string actual = detail::format_number(*numerator.value);
    if (!numerator.reason.empty()) actual += fmt::format(" ({})", numerator.reason);
    return finish(expression, captures, passed, expected, std::move(actual), "", numerator.value);
  }

  const measured denominator = measure_operand(expression, captures, denominator_of(expression));
  if (!denominator.value) {
    return finish(expression, captures, false, expected, "unknown",
                  fmt::format("denominator: {}", denominator.reason));
  }
  const std::string parts = fmt::format("{} / {}", detail::format_number(*numerator.value),
                                        detail::format_number(*denominator.value));
  if (*denominator.value == 0.0) {
    std::string why = fmt::format("the denominator {}({}) is 0",
                                  to_string(expression.denominator_quantity()),
                                  *expression.denominator());
    if (!denominator.reason.empty()) why += fmt::format(": {}", denominator.reason);
    return finish(expression, captures, false, expected, fmt::format("undefined ({})", parts), why);
  }
  const double ratio = *numerator.value / *denominator.value;
  const bool passed = compare(ratio, expression.op(), expression.threshold());
  return finish(expression, captures, passed, expected,
                fmt::format("{} ({})", detail::format_number(ratio), parts), "", ratio);
}

}  // namespace aorta
