#include "report/report_model.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace aorta::detail {

kernel_groups::kernel_groups(const metric_set& metrics) {
  // An index of the groups by name, not a search of them per row: a result.json whose 20,000
  // kernel rows each name another collector made the report quadratic. The rows are then placed
  // by a counting sort into one array: a vector per collector was 80,000 allocations for as many
  // collectors, and a fifth of that report's last-level cache misses.
  const std::vector<kernel_row>& rows = metrics.kernels;
  std::vector<std::size_t> group_of_row;
  group_of_row.reserve(rows.size());
  std::unordered_map<std::string_view, std::size_t> group_of;
  for (const kernel_row& row : rows) {
    // A collector's rows come together: the row before names the same one, no hash needed.
    if (!m_groups.empty() && m_groups[group_of_row.back()].collector == row.collector) {
      group_of_row.push_back(group_of_row.back());
    } else {
      const auto [where, fresh] = group_of.try_emplace(row.collector, m_groups.size());
      if (fresh) m_groups.push_back({row.collector, 0, 0});
      group_of_row.push_back(where->second);
    }
    ++m_groups[group_of_row.back()].count;
  }
  std::size_t first = 0;
  for (group& each : m_groups) {
    each.first = first;
    first += each.count;
  }
  m_rows.resize(rows.size());
  std::vector<std::size_t> next(m_groups.size());
  for (std::size_t g = 0; g < m_groups.size(); ++g) next[g] = m_groups[g].first;
  for (std::size_t i = 0; i < rows.size(); ++i) m_rows[next[group_of_row[i]]++] = &rows[i];
}

std::vector<const kernel_row*> top_kernel_rows(const kernel_groups& grouped) {
  std::vector<const kernel_row*> top;
  std::vector<const kernel_row*> hottest;
  for (const kernel_groups::group& group : grouped.groups()) {
    const auto rows = grouped.rows(group);
    hottest.assign(rows.begin(), rows.end());
    std::stable_sort(hottest.begin(), hottest.end(), [](const kernel_row* a, const kernel_row* b) {
      return a->total_ms > b->total_ms;
    });
    const std::size_t kept = std::min(hottest.size(), top_kernel_limit);
    top.insert(top.end(), hottest.begin(), hottest.begin() + static_cast<std::ptrdiff_t>(kept));
  }
  return top;
}

}  // namespace aorta::detail
