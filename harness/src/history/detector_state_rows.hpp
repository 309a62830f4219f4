// A saved detector-state row checked before a pass may index commits with it: both stores read
// their rows through this, so a damaged or hand-edited table costs a retest, never a wrong index.
#pragma once

#include "history/change_points.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>

namespace aorta::detail {

struct detector_state_row {
  std::int64_t first = 0;
  std::int64_t last = 0;
  std::int64_t digest = 0;  // the uint64 digest's bits, as both stores keep signed integers
  std::int64_t changed = 0;
  std::int64_t change_commit = 0;
  std::int64_t range_first = 0;
  std::int64_t range_last = 0;
  double p = 1.0;
  std::int64_t permutations = 0;
};

// The row as the cache's segment and outcome; nullopt when its numbers cannot be one: a change
// lies inside its segment with a commit before its range (the last good one), p in (0, 1].
[[nodiscard]] inline std::optional<
    std::pair<change_point_cache::segment, change_point_cache::outcome>>
segment_of_row(const detector_state_row& row) {
  if (row.first < 0 || row.last <= row.first || (row.changed != 0 && row.changed != 1) ||
      row.permutations < 0 || row.permutations > 1'000'000 || !std::isfinite(row.p) ||
      row.p <= 0.0 || row.p > 1.0)
    return std::nullopt;
  change_point_cache::outcome outcome;
  outcome.digest = std::bit_cast<std::uint64_t>(row.digest);
  outcome.changed = row.changed == 1;
  if (outcome.changed) {
    if (!(row.first < row.range_first && row.range_first <= row.change_commit &&
          row.change_commit <= row.range_last && row.range_last < row.last))
      return std::nullopt;
    outcome.change = {
        static_cast<std::size_t>(row.change_commit), static_cast<std::size_t>(row.range_first),
        static_cast<std::size_t>(row.range_last), row.p, static_cast<int>(row.permutations)};
  }
  return std::make_pair(change_point_cache::segment{static_cast<std::size_t>(row.first),
                                                    static_cast<std::size_t>(row.last)},
                        outcome);
}

// The outcome as a row's numbers (the inverse of segment_of_row).
[[nodiscard]] inline detector_state_row row_of_segment(const change_point_cache::segment& bounds,
                                                       const change_point_cache::outcome& decided) {
  detector_state_row row;
  row.first = static_cast<std::int64_t>(bounds.first);
  row.last = static_cast<std::int64_t>(bounds.second);
  row.digest = std::bit_cast<std::int64_t>(decided.digest);
  row.changed = decided.changed ? 1 : 0;
  if (decided.changed) {
    row.change_commit = static_cast<std::int64_t>(decided.change.commit);
    row.range_first = static_cast<std::int64_t>(decided.change.range_first);
    row.range_last = static_cast<std::int64_t>(decided.change.range_last);
    row.p = decided.change.p;
    row.permutations = decided.change.permutations_run;
  }
  return row;
}

}  // namespace aorta::detail
