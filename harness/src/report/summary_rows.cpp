#include "metrics/display_names.hpp"
#include "report/report_model.hpp"

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

}  // namespace aorta::detail
