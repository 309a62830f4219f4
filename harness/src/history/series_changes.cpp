#include "history/series_changes.hpp"

#include <algorithm>
#include <cmath>

namespace aorta::detail {
namespace {

// The seed of one series: the same store gives the same permutations, run after run.
std::uint64_t series_seed(const series_key& key, std::uint64_t base) {
  std::uint64_t state = 0xcbf29ce484222325ULL ^ base;
  for (const std::string* part : {&key.test, &key.quantity, &key.card, &key.unit}) {
    for (const char c : *part) {
      state ^= static_cast<unsigned char>(c);
      state *= 0x100000001b3ULL;
    }
    state *= 0x100000001b3ULL;
  }
  return state;
}

double segment_median(const std::vector<series_commit>& commits, std::size_t first,
                      std::size_t last) {
  std::vector<double> values;
  for (std::size_t c = first; c < last; ++c) {
    values.insert(values.end(), commits[c].samples.begin(), commits[c].samples.end());
  }
  return median_of(std::move(values));
}

}  // namespace

double median_of(std::vector<double> values) {
  if (values.empty()) return std::nan("");
  const std::size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle),
                   values.end());
  const double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  const double lower =
      *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle));
  return (lower + upper) / 2.0;
}

series_analysis analyse_series(const series_key& key, std::vector<series_commit> commits,
                               const change_point_options& options, change_point_cache* cache) {
  series_analysis analysis{key, std::move(commits), {}};
  std::vector<std::vector<double>> samples;
  samples.reserve(analysis.commits.size());
  for (const auto& commit : analysis.commits) samples.push_back(commit.samples);
  change_point_options seeded = options;
  seeded.seed = series_seed(key, options.seed);
  const auto found = find_change_points(samples, seeded, cache);
  for (std::size_t i = 0; i < found.size(); ++i) {
    const std::size_t previous = i == 0 ? 0 : found[i - 1].commit;
    const std::size_t next = i + 1 == found.size() ? analysis.commits.size() : found[i + 1].commit;
    series_change change;
    change.commit_index = found[i].commit;
    change.commit = analysis.commits[found[i].commit].commit;
    change.range_first = analysis.commits[found[i].range_first].commit;
    change.range_last = analysis.commits[found[i].range_last].commit;
    change.last_before = analysis.commits[found[i].range_first - 1].commit;
    change.before = segment_median(analysis.commits, previous, found[i].commit);
    change.after = segment_median(analysis.commits, found[i].commit, next);
    change.delta_percent = change.before != 0.0
                               ? (change.after - change.before) / std::fabs(change.before) * 100.0
                               : std::nan("");
    change.p = found[i].p;
    analysis.changes.push_back(std::move(change));
  }
  return analysis;
}

}  // namespace aorta::detail
