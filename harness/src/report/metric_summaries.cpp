#include "report/metric_summaries.hpp"

#include <algorithm>

namespace aorta::detail {

namespace {

void fold(metric_summary& summary, double number) {
  const bool fresh = summary.n == 0;
  if (fresh || number < summary.min) summary.min = number;
  if (fresh || summary.max < number) summary.max = number;
  summary.mean += number;  // the sum until finish()
  ++summary.n;
}

bool by_name(const metric_summaries::entry& a, const metric_summaries::entry& b) {
  return a.first < b.first;
}

}  // namespace

void metric_summaries::add(const std::map<std::string, metric_value>& values) {
  // Both sides are in name order: a name already summarised is found by walking on, a new one is
  // appended and the two sorted runs merged once at the end.
  const std::size_t known = m_entries.size();
  std::size_t at = 0;
  for (const auto& [name, value] : values) {
    const auto number = numeric_value(value);
    if (!number) continue;
    int order = -1;
    while (at < known && (order = m_entries[at].first.compare(name)) < 0) ++at;
    if (at < known && order == 0) {
      fold(m_entries[at].second, *number);
    } else {
      fold(m_entries.emplace_back(name, metric_summary{}).second, *number);
    }
  }
  if (m_entries.size() > known && known > 0) {
    std::inplace_merge(m_entries.begin(), m_entries.begin() + static_cast<std::ptrdiff_t>(known),
                       m_entries.end(), by_name);
  }
}

void metric_summaries::finish() {
  for (auto& [name, summary] : m_entries) summary.mean /= static_cast<double>(summary.n);
}

std::size_t metric_summaries::index_of(std::string_view name, std::size_t& cursor) const {
  if (cursor < m_entries.size() && m_entries[cursor].first == name) return cursor++;
  const auto found = std::lower_bound(
      m_entries.begin(), m_entries.end(), name,
      [](const entry& item, std::string_view key) { return item.first < key; });
  if (found == m_entries.end() || found->first != name) return npos;
  const auto index = static_cast<std::size_t>(found - m_entries.begin());
  cursor = index + 1;
  return index;
}

}  // namespace aorta::detail
