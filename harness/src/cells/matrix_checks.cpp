#include "cells/matrix_checks.hpp"

#include "baseline/measured_series.hpp"
#include "baseline/statistics.hpp"
#include "checks/check_message.hpp"
#include "metrics/number_format.hpp"
#include "metrics/quantity_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>

namespace aorta::detail {
namespace {

// One side of the check on one cell: the median of its per-trial values, or why there is none.
struct cell_term {
  std::string text;  // "time_ms(gemm)@head"
  std::optional<double> median;
  std::vector<double> values;
  std::string why;
};

std::size_t cell_index(const std::vector<cell_plan>& cells, const std::string& name) {
  const auto found = std::find_if(cells.begin(), cells.end(),
                                  [&](const cell_plan& cell) { return cell.name == name; });
  return static_cast<std::size_t>(found - cells.begin());
}

cell_term measure_term(const check_expression& check, bool denominator,
                       const std::vector<cell_plan>& cells,
                       const std::vector<cell_trials>& trials) {
  const std::string& cell = denominator ? *check.denominator_cell() : *check.cell();
  const check_expression term = check.term(denominator);
  cell_term out{fmt::format("{}@{}", written_term(term.quantity(), term.argument()), cell),
                std::nullopt,
                {},
                {}};
  const std::size_t index = cell_index(cells, cell);
  // A trial that ended before a capture has no metrics; measured, it would read as 0.
  std::vector<trial_record> records;
  std::size_t present = 0;
  int failed = 0;
  int skipped = 0;
  if (index < trials.size()) {
    for (const auto& trial : trials[index]) {
      if (!trial) continue;
      ++present;
      failed += trial->verdict == verdict::fail ? 1 : 0;
      skipped += trial->verdict == verdict::skip ? 1 : 0;
      if (!trial->metrics.values.empty() || !trial->metrics.kernels.empty()) {
        records.push_back(*trial);
      }
    }
  }
  std::string why;
  out.values = measure_all(term, measured_from_records(cell, records), why);
  if (out.values.empty()) {
    out.why = fmt::format("cell '{}' has no trial that measured {} ({} trial(s): {} failed, {} "
                          "skipped{})",
                          cell, out.text, present, failed, skipped,
                          why.empty() ? "" : fmt::format("; {}", why));
    return out;
  }
  out.median = quantile(out.values, 0.5);
  return out;
}

std::string term_line(const cell_term& term) {
  if (!term.median) return fmt::format("    {}: unknown\n", term.text);
  std::vector<std::string> shown;
  for (const double value : term.values) shown.push_back(format_number(value));
  return fmt::format("    {}: median {} of {} trial(s) [{}]\n", term.text,
                     format_number(*term.median), term.values.size(), fmt::join(shown, ", "));
}

check_result finish_cell_check(const check_expression& check, bool passed, std::string actual,
                               const std::string& why, const std::vector<cell_term>& terms,
                               std::optional<double> value) {
  check_result result{check.text(),
                      passed,
                      fmt::format("{} {}", to_string(check.op()), check.threshold_text()),
                      std::move(actual),
                      {},
                      value};
  if (passed) {
    result.message = passed_check_message(result);
    return result;
  }
  result.message = failed_check_message(result, why);
  result.message += "  per cell (the median over its measured trials):\n";
  for (const auto& term : terms) result.message += term_line(term);
  return result;
}

}  // namespace

std::string unknown_cell_reason(const check_expression& check,
                                const std::vector<std::string>& cells) {
  if (!check.cell()) return {};
  if (cells.empty()) {
    return fmt::format("'{}' names cell '{}', but the recipe has no cells (mitigation_axis and "
                       "diagnostic_axis are [none]). Fix: drop '@{}' to check every trial, or put "
                       "the cells on the axes (docs/recipes.md, 'Cells')",
                       check.text(), *check.cell(), *check.cell());
  }
  for (const auto* cell : {&check.cell(), &check.denominator_cell()}) {
    if (!*cell || std::find(cells.begin(), cells.end(), **cell) != cells.end()) continue;
    return fmt::format("'{}' names cell '{}', which is not a cell of this recipe; its cells: {}. "
                       "Fix: name one of them after '@'",
                       check.text(), **cell, fmt::join(cells, ", "));
  }
  return {};
}

check_result judge_matrix_check(const check_expression& check, const std::vector<cell_plan>& cells,
                                const std::vector<cell_trials>& trials) {
  std::vector<cell_term> terms{measure_term(check, false, cells, trials)};
  if (check.is_ratio()) terms.push_back(measure_term(check, true, cells, trials));
  for (const auto& term : terms) {
    if (!term.median)
      return finish_cell_check(check, false, "unknown", term.why, terms, std::nullopt);
  }
  double value = *terms.front().median;
  std::string actual = format_number(value);
  if (check.is_ratio()) {
    const double denominator = *terms.back().median;
    const std::string parts = fmt::format("{} / {}", actual, format_number(denominator));
    if (denominator == 0.0) {
      return finish_cell_check(check, false, fmt::format("undefined ({})", parts),
                               fmt::format("the denominator {} is 0", terms.back().text), terms,
                               std::nullopt);
    }
    value /= denominator;
    actual = fmt::format("{} ({})", format_number(value), parts);
  }
  return finish_cell_check(check, compare(value, check.op(), check.threshold()), std::move(actual),
                           "", terms, value);
}

nlohmann::json matrix_checks_json(const std::vector<check_result>& results) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& result : results) {
    out.push_back({{"expression", result.expression},
                   {"passed", result.passed},
                   {"expected", result.expected},
                   {"actual", result.actual},
                   {"value", result.value ? nlohmann::json(*result.value) : nlohmann::json()},
                   {"message", result.message}});
  }
  return out;
}

}  // namespace aorta::detail
