#include "checks/ncu_checks.hpp"

#include "aorta/error.hpp"
#include "aorta/metrics.hpp"
#include "checks/closest_names.hpp"
#include "metrics/quantity_table.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace aorta::detail {
namespace {

// The sum of matching values, refusing one that overflows to infinity (never a silent inf).
struct summing {
  double total = 0.0;
  std::size_t matched = 0;
  std::set<std::string> metrics_seen;  // for the message when nothing matched
  std::vector<std::string> kernels_with_metric;
};

counter_sum finish_ncu_sum(const summing& sum, std::string_view argument, std::string_view metric) {
  if (sum.matched == 0) {
    const bool collected = sum.metrics_seen.contains(std::string(metric));
    return {std::nullopt,
            collected
                ? fmt::format("ncu({}): no kernel with counter {} matches{}", argument, metric,
                              closest_names_text(sum.kernels_with_metric,
                                                 split_ncu_argument(argument)->kernels))
                : fmt::format("ncu({}): counter {} was not collected (counters here: {}); add it "
                              "to collect.ncu.metrics",
                              argument, metric,
                              sum.metrics_seen.empty()
                                  ? "none"
                                  : fmt::format("{}", fmt::join(sum.metrics_seen, ", "))),
            collected};
  }
  if (!std::isfinite(sum.total)) {
    return {std::nullopt, fmt::format("ncu({}): the sum over kernels is not finite", argument)};
  }
  return {sum.total, {}};
}

}  // namespace

std::optional<ncu_argument> split_ncu_argument(std::string_view argument) {
  const std::size_t comma = argument.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  const std::string_view metric = trim(argument.substr(0, comma));
  const std::string_view kernels = trim(argument.substr(comma + 1));
  if (kernels.empty() || metric.empty()) return std::nullopt;
  return ncu_argument{metric, kernels};
}

counter_sum ncu_counter_in_capture(const std::vector<capture>& captures, std::string_view argument,
                                   const name_regex& kernels) {
  const auto parts = split_ncu_argument(argument);
  if (!parts)
    return {std::nullopt, fmt::format("ncu({}) needs a metric and a kernel regex", argument)};
  summing sum;
  for (const auto& source : captures) {
    for (const auto& counter : source.counters) {
      sum.metrics_seen.insert(counter.metric);
      if (counter.metric != parts->metric) continue;
      if (!kernels.search(counter.kernel)) {
        sum.kernels_with_metric.push_back(counter.kernel);
        continue;
      }
      sum.total += counter.value;
      ++sum.matched;
    }
  }
  return finish_ncu_sum(sum, argument, parts->metric);
}

counter_sum ncu_counter_in_metrics(const std::map<std::string, double>& metrics,
                                   std::string_view argument, const name_regex& kernels) {
  const auto parts = split_ncu_argument(argument);
  if (!parts)
    return {std::nullopt, fmt::format("ncu({}) needs a metric and a kernel regex", argument)};
  summing sum;
  const std::string_view prefix = counter_row().metric_prefix;
  for (auto it = metrics.lower_bound(std::string(prefix));
       it != metrics.end() && it->first.starts_with(prefix); ++it) {
    const std::string_view rest = std::string_view(it->first).substr(prefix.size());
    const std::size_t slash = rest.find('/');
    if (slash == std::string_view::npos) continue;
    const std::string_view metric = rest.substr(0, slash);
    sum.metrics_seen.emplace(metric);
    if (metric != parts->metric) continue;
    if (!kernels.search(rest.substr(slash + 1))) {
      sum.kernels_with_metric.emplace_back(rest.substr(slash + 1));
      continue;
    }
    sum.total += it->second;
    ++sum.matched;
  }
  return finish_ncu_sum(sum, argument, parts->metric);
}

namespace {

// The counter a check reads, if it reads one.
std::optional<std::string> counter_metric_of(check_quantity quantity, const std::string& argument) {
  const quantity_declaration& declared = declaration_of(quantity);
  if (declared.source == value_source::counters) {
    if (const auto parts = split_ncu_argument(argument)) return std::string(parts->metric);
    return std::nullopt;
  }
  if (declared.source != value_source::metrics) return std::nullopt;
  const quantity_declaration* counter = declaration_of_metric(argument);
  if (counter == nullptr || counter->source != value_source::counters) return std::nullopt;
  const std::string_view rest = std::string_view(argument).substr(counter->metric_prefix.size());
  return std::string(rest.substr(0, rest.find('/')));
}

}  // namespace

bool is_ncu_metric_name(std::string_view metric) {
  const bool plain = !metric.empty() && std::all_of(metric.begin(), metric.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.';
  });
  return plain && metric.find("__") != std::string_view::npos;
}

void require_collected_ncu_metrics(const recipe& spec, const std::vector<check_expression>& checks,
                                   const std::optional<std::vector<std::string>>& requested) {
  const std::vector<std::string> collected = requested.value_or(std::vector<std::string>{});
  for (const auto& check : checks) {
    std::vector<std::string> read;
    if (auto metric = counter_metric_of(check.quantity(), check.argument()))
      read.push_back(*metric);
    if (check.denominator()) {
      if (auto metric = counter_metric_of(check.quantity(), *check.denominator()))
        read.push_back(*metric);
    }
    for (const auto& metric : read) {
      if (std::find(collected.begin(), collected.end(), metric) != collected.end()) continue;
      throw recipe_error(fmt::format(
          "{}: check '{}' reads the ncu counter {}, which the recipe does not collect{}. Fix: add "
          "it to collect.ncu.metrics (e.g. `collect: {{ncu: {{metrics: \"{}\"}}}}`; the set "
          "`work` holds smsp__inst_executed.sum, dram__bytes.sum and lts__t_bytes.sum)",
          spec.path.empty() ? std::string("recipe") : spec.path.string(), check.text(), metric,
          !requested
              ? " (there is no ncu collector)"
              : fmt::format(" (collect.ncu.metrics: {})", fmt::join(collected, ", ")),
          metric));
    }
  }
}

}  // namespace aorta::detail
