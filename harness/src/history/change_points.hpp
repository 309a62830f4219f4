// Change points of one series (docs/history.md, "The detector"): E-divisive means (Matteson and
// James, 2014) by binary segmentation, each split kept only when a permutation test finds it
// significant. The exchangeable unit of the permutation is a commit's block of trial samples, not
// a single sample: trials of one run share the machine's state, so shuffling single samples
// would understate the noise between runs and find steps that are not there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <utility>
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

// What binary segmentation decided for each segment it tested, kept between passes over a
// growing series (incremental detection, docs/history.md). A segment's outcome depends only on
// its own samples, its bounds and the options (its permutations are seeded by its bounds), so an
// outcome whose segment still holds the same samples is reused as it is: when a commit arrives,
// only the segments that reach the newest commit are tested again, and the answers are those of
// a full pass by construction.
class change_point_cache {
public:
  struct outcome {
    std::uint64_t digest = 0;  // of the segment's samples and the options
    bool changed = false;
    detected_change change;
  };
  using segment = std::pair<std::size_t, std::size_t>;  // [first, last) commit indexes
  // The outcome kept for the segment when it was decided on the same samples and options; a hit
  // counts as a segment reused.
  [[nodiscard]] const outcome* find(std::size_t first, std::size_t last, std::uint64_t digest);
  // A segment the pass has just tested.
  void keep(std::size_t first, std::size_t last, const outcome& decided);
  // An outcome decided by an earlier process (the store's saved detector state): it counts as
  // neither reused nor tested until a pass reaches it.
  void restore(std::size_t first, std::size_t last, const outcome& decided);
  // The segments the passes over this cache reached, found or tested: the state worth saving,
  // since a segment no pass reaches any more (its series has grown past it) is never asked again.
  [[nodiscard]] std::map<segment, outcome> reached() const;
  // Whether reached() differs from what restore() put in: saving it again would change nothing.
  [[nodiscard]] bool differs_from_restored() const;
  [[nodiscard]] std::size_t segments() const { return m_outcomes.size(); }
  // Permutations run by the passes that used this cache: the work incremental detection saves.
  long long permutations_run = 0;
  long long segments_reused = 0;
  long long segments_tested = 0;

private:
  std::map<segment, outcome> m_outcomes;
  std::set<segment> m_reached;
  std::size_t m_restored = 0;
  bool m_tested_any = false;
};

// `commits` holds each commit's samples, oldest commit first; a commit without samples is not
// allowed. Changes come back ordered by commit. Deterministic for a given seed. With `cache`,
// segments decided before (on the same samples and options) are not tested again.
[[nodiscard]] std::vector<detected_change>
find_change_points(const std::vector<std::vector<double>>& commits,
                   const change_point_options& options, change_point_cache* cache = nullptr);

// Change points as commits arrive: append() adds the newest commit's samples and returns the
// changes of the whole series, equal to find_change_points() over it, at the cost of the
// segments that reach the new commit.
class incremental_change_points {
public:
  explicit incremental_change_points(change_point_options options) : m_options(options) {}
  const std::vector<detected_change>& append(std::vector<double> samples);
  [[nodiscard]] const change_point_cache& cache() const { return m_cache; }

private:
  change_point_options m_options;
  std::vector<std::vector<double>> m_commits;
  change_point_cache m_cache;
  std::vector<detected_change> m_changes;
};

// The E-divisive statistic Q(tau) for every split of `samples` at a sample index tau in
// [1, n - 1] (index tau - 1 of the result), with |x - y| as the distance: exposed for tests
// against a direct O(n^2) computation.
[[nodiscard]] std::vector<double> e_divisive_statistics(const std::vector<double>& samples);

}  // namespace aorta::detail
