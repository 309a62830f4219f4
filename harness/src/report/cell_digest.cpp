#include "metrics/display_names.hpp"
#include "metrics/number_format.hpp"
#include "metrics/quantity_table.hpp"
#include "report/report_model.hpp"

#include <fmt/format.h>

#include <cctype>
#include <string_view>
#include <unordered_set>

namespace aorta::detail {

void order_summary_rows(cell_report& cell) {
  const metric_summaries& summary = cell.metrics_summary;
  std::vector<std::size_t> rows;
  rows.reserve(summary.size());
  std::vector<bool> listed(summary.size(), false);
  std::vector<std::string> folded;
  if (!cell.trials.empty()) {
    // The last trial's names come in the summary's own order but for a few (callgrind's
    // functions, names the summary lacks): the cursor finds most with one comparison.
    std::size_t cursor = 0;
    visit_ordered_metric_names(cell.last().metrics, folded, [&](std::string_view name) {
      const std::size_t index = summary.index_of(name, cursor);
      if (index == metric_summaries::npos) return;
      rows.push_back(index);
      listed[index] = true;
    });
  }
  // Few: at most the functions of the last trial's callgrind metrics.
  const std::unordered_set<std::string_view> hidden(folded.begin(), folded.end());
  for (std::size_t index = 0; index < summary.size(); ++index) {
    if (listed[index]) continue;
    const std::string_view name = summary.at(index).first;
    const auto dot = name.find('.');
    if (dot != std::string_view::npos && hidden.contains(name.substr(dot + 1))) continue;
    rows.push_back(index);
  }
  cell.summary_rows = std::move(rows);
  cell.folded_functions = std::move(folded);
}

std::pair<std::string, std::string> key_metric(const report_trial& last) {
  // A skipped trial measured nothing worth comparing; its reason says what matters.
  if (last.verdict == verdict::skip) return {"", ""};
  const auto numeric = [](const check_result& check) {
    return !check.actual.empty() && check.actual != "unknown" &&
           (std::isdigit(static_cast<unsigned char>(check.actual.front())) ||
            check.actual.front() == '-');
  };
  if (last.verdict == verdict::fail) {
    for (const auto& check : last.checks) {
      if (!check.passed && numeric(check)) return {check.expression, check.actual};
    }
  }
  for (const auto& check : last.checks) {
    if (numeric(check)) return {check.expression, check.actual};
  }
  for (const auto& [name, value] : last.metrics.values) {
    if (name.ends_with("_gpu_time_ms")) {
      if (const auto number = numeric_value(value)) return {name, format_number(*number)};
    }
  }
  const std::string total_ir(callgrind_total_ir_metric);
  if (const auto found = last.metrics.values.find(total_ir); found != last.metrics.values.end()) {
    return {total_ir, format_metric_value(found->second)};
  }
  if (last.wall_seconds > 0.0) return {"wall s", format_number(last.wall_seconds)};
  return {"", ""};
}

bool is_ambiguous_gate_check(const check_result& check) {
  return check.message.starts_with("gate AMBIGUOUS:");
}

std::string ambiguous_gate_summary(const report_trial& last) {
  std::string listed;
  std::size_t count = 0;
  for (const auto& check : last.checks) {
    if (!is_ambiguous_gate_check(check)) continue;
    listed += (count++ == 0 ? "" : ", ") + check.expression;
  }
  if (count == 0) return {};
  return fmt::format("{} gate row(s) AMBIGUOUS: {}", count, listed);
}

void digest_cell(cell_report& cell) {
  order_summary_rows(cell);
  const report_trial& last = cell.last();
  cell.last_text_values.clear();
  for (const auto& entry : last.metrics.values) {
    if (!numeric_value(entry.second)) cell.last_text_values.push_back(&entry);
  }
  cell.last_key_metric = key_metric(last);
  cell.last_kernel_groups = kernel_groups(last.metrics);
  cell.last_top_kernels = top_kernel_rows(cell.last_kernel_groups);
}

}  // namespace aorta::detail
