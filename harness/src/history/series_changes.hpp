// The change points of every series in a store, described as `aorta history changes` and `show`
// print them: the commits around each step, the medians on either side and the relative delta.
#pragma once

#include "history/change_points.hpp"
#include "history/history_store.hpp"

#include <string>
#include <vector>

namespace aorta::detail {

struct series_change {
  std::string commit;       // the first commit after the step
  std::string range_first;  // the step's uncertain range of first-commits (== commit if certain)
  std::string range_last;
  std::string last_before;  // the commit before range_first: the last one known good
  std::size_t commit_index = 0;
  double before = 0.0;  // median of the samples since the previous change
  double after = 0.0;   // median of the samples up to the next change
  double delta_percent = 0.0;
  double p = 1.0;
};

struct series_analysis {
  series_key key;
  std::vector<series_commit> commits;
  std::vector<series_change> changes;
};

// With `cache`, segments it holds decided on the same samples are not tested again (the answer is
// a full pass's all the same).
[[nodiscard]] series_analysis analyse_series(const series_key& key,
                                             std::vector<series_commit> commits,
                                             const change_point_options& options,
                                             change_point_cache* cache = nullptr);

[[nodiscard]] double median_of(std::vector<double> values);

}  // namespace aorta::detail
