// A cell's metric summaries: one flat vector in name order, not a std::map. For a trial of
// 200,000 metrics the map's node per name (an allocation, a pointer chase per level) made the
// report grow faster than its input; the trials' values come in name order already, so each
// trial is merged in with one walk.
#pragma once

#include "aorta/metrics.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace aorta::detail {

struct metric_summary {
  double mean = 0.0;
  double min = 0.0;
  double max = 0.0;
  std::size_t n = 0;
};

class metric_summaries {
public:
  using entry = std::pair<std::string, metric_summary>;

  // Folds one trial's numeric values in; trials in order. min and max keep the first of equals as
  // min_element and max_element do, and `mean` holds the sum, added in trial order from 0.0,
  // until finish().
  void add(const std::map<std::string, metric_value>& values);
  void finish();

  // The index of `name`'s entry, or npos. `cursor` is where the last lookup ended: names asked
  // for in name order cost one comparison each, others a binary search.
  [[nodiscard]] std::size_t index_of(std::string_view name, std::size_t& cursor) const;
  [[nodiscard]] const entry& at(std::size_t index) const { return m_entries.at(index); }
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  [[nodiscard]] bool empty() const { return m_entries.empty(); }
  [[nodiscard]] std::size_t size() const { return m_entries.size(); }
  [[nodiscard]] auto begin() const { return m_entries.cbegin(); }
  [[nodiscard]] auto end() const { return m_entries.cend(); }

private:
  std::vector<entry> m_entries;  // by name, as std::less<std::string> orders them
};

}  // namespace aorta::detail
