#include "report/report_model.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace aorta::detail {

std::vector<collector_kernel_rows> kernel_rows_by_collector(const metric_set& metrics) {
  // An index of the groups by name, not a search of them per row: a result.json whose 20,000
  // kernel rows each name another collector made the report quadratic.
  std::vector<collector_kernel_rows> groups;
  std::unordered_map<std::string_view, std::size_t> group_of;
  for (const kernel_row& row : metrics.kernels) {
    const auto [where, fresh] = group_of.try_emplace(row.collector, groups.size());
    if (fresh) groups.push_back({row.collector, {}});
    groups[where->second].rows.push_back(&row);
  }
  return groups;
}

std::vector<kernel_row> top_kernel_rows(const metric_set& metrics) {
  std::vector<kernel_row> top;
  for (collector_kernel_rows& group : kernel_rows_by_collector(metrics)) {
    std::stable_sort(
        group.rows.begin(), group.rows.end(),
        [](const kernel_row* a, const kernel_row* b) { return a->total_ms > b->total_ms; });
    if (group.rows.size() > top_kernel_limit) group.rows.resize(top_kernel_limit);
    for (const kernel_row* row : group.rows) top.push_back(*row);
  }
  return top;
}

}  // namespace aorta::detail
