// Change points of one series (docs/history.md, "The detector"): E-divisive means (Matteson and
// James, 2014) by binary segmentation, each split kept only when a permutation test finds it
// significant. The exchangeable unit of the permutation is a commit's block of trial samples, not
// a single sample: trials of one run share the machine's state, so shuffling single samples
// would understate the noise between runs and find steps that are not there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace aorta::detail {

struct change_point_options {
  double max_p = 0.01;       // a split is a change when its permutation p is at most this
  int permutations = 199;    // p >= 1 / (permutations + 1) = 0.005
  int min_side_commits = 3;  // commits on each side of a split: one odd run is not a step
  std::uint64_t seed = 0x5eed;
};

struct detected_change {
  std::size_t commit = 0;       // index of the first commit after the step
  std::size_t range_first = 0;  // the step may equally be at any first-commit in this range
  std::size_t range_last = 0;
  double p = 1.0;
  int permutations_run = 0;
};

// `commits` holds each commit's samples, oldest commit first; a commit without samples is not
// allowed. Changes come back ordered by commit. Deterministic for a given seed.
[[nodiscard]] std::vector<detected_change>
find_change_points(const std::vector<std::vector<double>>& commits,
                   const change_point_options& options);

// The E-divisive statistic Q(tau) for every split of `samples` at a sample index tau in
// [1, n - 1] (index tau - 1 of the result), with |x - y| as the distance: exposed for tests
// against a direct O(n^2) computation.
[[nodiscard]] std::vector<double> e_divisive_statistics(const std::vector<double>& samples);

}  // namespace aorta::detail
