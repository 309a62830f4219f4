#include "history/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <utility>

namespace aorta::detail {
namespace {

// Sums and counts of the values seen so far, by rank: the distances from a new value to all
// earlier ones in O(log n) (Σ|x_i - x| = x·below - sum_below + sum_above - x·above).
class rank_sums {
public:
  explicit rank_sums(std::size_t size) : m_count(size + 1, 0), m_sum(size + 1, 0.0) {}
  void add(std::size_t rank, double value) {
    for (std::size_t i = rank + 1; i < m_count.size(); i += i & (~i + 1)) {
      ++m_count[i];
      m_sum[i] += value;
    }
  }
  // Count and sum of the values of rank below `rank`.
  [[nodiscard]] std::pair<double, double> below(std::size_t rank) const {
    double count = 0.0, sum = 0.0;
    for (std::size_t i = rank; i > 0; i -= i & (~i + 1)) {
      count += static_cast<double>(m_count[i]);
      sum += m_sum[i];
    }
    return {count, sum};
  }

private:
  std::vector<std::int64_t> m_count;
  std::vector<double> m_sum;
};

// A sample with its rank among the samples of its segment: a permutation moves samples, never
// changes their ranks, so the segment is sorted once rather than once per permutation.
struct ranked_sample {
  double value = 0.0;
  std::size_t rank = 0;
};

// distance[k] = Σ |x_i - x_k| over the i before k (or after k when `backwards`).
std::vector<double> distances_to_earlier(const std::vector<ranked_sample>& x, bool backwards) {
  const std::size_t n = x.size();
  rank_sums seen(n);
  std::vector<double> distance(n, 0.0);
  double seen_count = 0.0, seen_sum = 0.0;
  for (std::size_t step = 0; step < n; ++step) {
    const std::size_t k = backwards ? n - 1 - step : step;
    const auto [below_count, below_sum] = seen.below(x[k].rank);
    const double above_count = seen_count - below_count, above_sum = seen_sum - below_sum;
    distance[k] = x[k].value * below_count - below_sum + above_sum - x[k].value * above_count;
    seen.add(x[k].rank, x[k].value);
    seen_count += 1.0;
    seen_sum += x[k].value;
  }
  return distance;
}

std::vector<double> ranked_statistics(const std::vector<ranked_sample>& samples) {
  const std::size_t n = samples.size();
  if (n < 2) return {};
  const std::vector<double> to_earlier = distances_to_earlier(samples, false);
  const std::vector<double> to_later = distances_to_earlier(samples, true);
  const double all_pairs = std::accumulate(to_earlier.begin(), to_earlier.end(), 0.0);
  // within_left = Σ pairs among the first tau; within_right = among the rest.
  double within_left = 0.0;
  double within_right = all_pairs;
  std::vector<double> q(n - 1);
  for (std::size_t tau = 1; tau < n; ++tau) {
    within_left += to_earlier[tau - 1];
    within_right -= to_later[tau - 1];
    const double left = static_cast<double>(tau), right = static_cast<double>(n - tau);
    const double between = all_pairs - within_left - within_right;
    const double mean_left = tau > 1 ? within_left / (left * (left - 1.0) / 2.0) : 0.0;
    const double mean_right = n - tau > 1 ? within_right / (right * (right - 1.0) / 2.0) : 0.0;
    const double energy = 2.0 * between / (left * right) - mean_left - mean_right;
    q[tau - 1] = left * right / static_cast<double>(n) * energy;
  }
  return q;
}

std::vector<ranked_sample> rank_samples(const std::vector<double>& samples) {
  std::vector<std::size_t> order(samples.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return samples[a] < samples[b]; });
  std::vector<ranked_sample> out(samples.size());
  for (std::size_t r = 0; r < order.size(); ++r) out[order[r]] = {samples[order[r]], r};
  return out;
}

// A deterministic generator (splitmix64) and unbiased bounded draws, so a seed gives the same
// permutations with every standard library.
class permutation_source {
public:
  explicit permutation_source(std::uint64_t seed) : m_state(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t bound) {
    const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() -
                                std::numeric_limits<std::uint64_t>::max() % bound;
    std::uint64_t draw = next();
    while (draw >= limit) draw = next();
    return static_cast<std::size_t>(draw % bound);
  }
  template <typename T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[below(i)]);
  }

private:
  std::uint64_t m_state;
};

struct best_split {
  double statistic = -std::numeric_limits<double>::infinity();
  std::size_t block = 0;  // the first block of the right side
};

using ranked_block = std::vector<ranked_sample>;

// The largest Q over splits between blocks, with at least `min_side` blocks a side.
best_split best_block_split(const std::vector<const ranked_block*>& blocks, std::size_t min_side) {
  std::vector<ranked_sample> samples;
  std::vector<std::size_t> ends;
  for (const auto* block : blocks) {
    samples.insert(samples.end(), block->begin(), block->end());
    ends.push_back(samples.size());
  }
  const std::vector<double> q = ranked_statistics(samples);
  best_split best;
  for (std::size_t b = min_side; b + min_side <= blocks.size(); ++b) {
    const double value = q[ends[b - 1] - 1];
    if (value > best.statistic) best = {value, b};
  }
  return best;
}

// The segment's commits with every sample ranked among the segment's samples.
std::vector<ranked_block> ranked_blocks(const std::vector<std::vector<double>>& commits,
                                        std::size_t first, std::size_t last) {
  std::vector<double> values;
  for (std::size_t c = first; c < last; ++c) {
    values.insert(values.end(), commits[c].begin(), commits[c].end());
  }
  const std::vector<ranked_sample> all = rank_samples(values);
  std::vector<ranked_block> blocks;
  std::size_t at = 0;
  for (std::size_t c = first; c < last; ++c) {
    blocks.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(at),
                        all.begin() + static_cast<std::ptrdiff_t>(at + commits[c].size()));
    at += commits[c].size();
  }
  return blocks;
}

// The first-commits at which a single mean step fits the segment about as well as at `split`:
// within 3.84 (chi-square, 1 degree of freedom, 95%) of the best residual sum of squares in units
// of the residual variance, a profile-likelihood interval for the step's position.
std::pair<std::size_t, std::size_t>
step_range(const std::vector<const std::vector<double>*>& blocks, std::size_t split,
           std::size_t min_side) {
  std::vector<double> sum{0.0}, squares{0.0}, count{0.0};
  for (const auto* block : blocks) {
    double s = 0.0, s2 = 0.0;
    for (const double v : *block) s += v, s2 += v * v;
    sum.push_back(sum.back() + s);
    squares.push_back(squares.back() + s2);
    count.push_back(count.back() + static_cast<double>(block->size()));
  }
  const std::size_t last = blocks.size();
  const auto residual = [&](std::size_t b) {
    const double left = squares[b] - sum[b] * sum[b] / count[b];
    const double rs = sum[last] - sum[b], rn = count[last] - count[b];
    return left + (squares[last] - squares[b]) - rs * rs / rn;
  };
  double smallest = std::numeric_limits<double>::infinity();
  for (std::size_t b = min_side; b + min_side <= last; ++b)
    smallest = std::min(smallest, residual(b));
  const double variance =
      std::max(smallest / std::max(count[last] - 2.0, 1.0), std::numeric_limits<double>::min());
  std::pair<std::size_t, std::size_t> range{split, split};
  for (std::size_t b = min_side; b + min_side <= last; ++b) {
    if ((residual(b) - smallest) / variance > 3.84) continue;
    range.first = std::min(range.first, b);
    range.second = std::max(range.second, b);
  }
  return range;
}

// FNV-1a over the segment's samples (their bytes, commit by commit) and the options.
std::uint64_t segment_digest(const std::vector<std::vector<double>>& commits, std::size_t first,
                             std::size_t last, const change_point_options& options) {
  std::uint64_t state = 0xcbf29ce484222325ULL;
  const auto mix = [&state](const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) {
      state ^= bytes[i];
      state *= 0x100000001b3ULL;
    }
  };
  mix(&options.max_p, sizeof options.max_p);
  mix(&options.permutations, sizeof options.permutations);
  mix(&options.min_side_commits, sizeof options.min_side_commits);
  mix(&options.seed, sizeof options.seed);
  for (std::size_t c = first; c < last; ++c) {
    const std::size_t count = commits[c].size();
    mix(&count, sizeof count);
    mix(commits[c].data(), count * sizeof(double));
  }
  return state;
}

// The permutation test of one segment: its change, or nullopt.
std::optional<detected_change> test_segment(const std::vector<std::vector<double>>& commits,
                                            std::size_t first, std::size_t last,
                                            const change_point_options& options,
                                            long long& permutations_run) {
  const auto min_side = static_cast<std::size_t>(std::max(options.min_side_commits, 1));
  const std::vector<ranked_block> ranked_commits = ranked_blocks(commits, first, last);
  std::vector<const ranked_block*> blocks;
  for (const auto& block : ranked_commits) blocks.push_back(&block);
  const best_split observed = best_block_split(blocks, min_side);
  // Stop as soon as the split cannot be significant any more: a segment without a step costs a
  // few permutations, not all of them.
  const double allowed_exceedances = options.max_p * (options.permutations + 1) - 1.0;
  permutation_source source(options.seed ^ (first * 0x9e3779b97f4a7c15ULL) ^ (last << 32));
  std::vector<const ranked_block*> shuffled = blocks;
  int exceedances = 0, run = 0;
  while (run < options.permutations && exceedances <= allowed_exceedances) {
    source.shuffle(shuffled);
    if (best_block_split(shuffled, min_side).statistic >= observed.statistic) ++exceedances;
    ++run;
  }
  permutations_run += run;
  const double p = (exceedances + 1.0) / (run + 1.0);
  if (run < options.permutations || p > options.max_p) return std::nullopt;
  std::vector<const std::vector<double>*> plain;
  for (std::size_t c = first; c < last; ++c) plain.push_back(&commits[c]);
  const auto [range_first, range_last] = step_range(plain, observed.block, min_side);
  return detected_change{first + observed.block, first + range_first, first + range_last, p, run};
}

void segment(const std::vector<std::vector<double>>& commits, std::size_t first, std::size_t last,
             const change_point_options& options, std::vector<detected_change>& found,
             change_point_cache* cache) {
  const auto min_side = static_cast<std::size_t>(std::max(options.min_side_commits, 1));
  if (last - first < 2 * min_side) return;
  long long uncached_permutations = 0;
  std::optional<detected_change> change;
  if (cache == nullptr) {
    change = test_segment(commits, first, last, options, uncached_permutations);
  } else {
    const std::uint64_t digest = segment_digest(commits, first, last, options);
    if (const auto* known = cache->find(first, last, digest)) {
      if (known->changed) change = known->change;
    } else {
      change = test_segment(commits, first, last, options, cache->permutations_run);
      cache->keep(first, last, {digest, change.has_value(), change.value_or(detected_change{})});
    }
  }
  if (!change) return;
  found.push_back(*change);
  segment(commits, first, change->commit, options, found, cache);
  segment(commits, change->commit, last, options, found, cache);
}

}  // namespace

std::vector<double> e_divisive_statistics(const std::vector<double>& samples) {
  return ranked_statistics(rank_samples(samples));
}

const change_point_cache::outcome* change_point_cache::find(std::size_t first, std::size_t last,
                                                            std::uint64_t digest) {
  const auto found = m_outcomes.find({first, last});
  if (found == m_outcomes.end() || found->second.digest != digest) return nullptr;
  m_reached.insert(found->first);
  ++segments_reused;
  return &found->second;
}

void change_point_cache::keep(std::size_t first, std::size_t last, const outcome& decided) {
  m_outcomes[{first, last}] = decided;
  m_reached.insert({first, last});
  m_tested_any = true;
  ++segments_tested;
}

void change_point_cache::restore(std::size_t first, std::size_t last, const outcome& decided) {
  if (m_outcomes.insert_or_assign({first, last}, decided).second) ++m_restored;
}

std::map<change_point_cache::segment, change_point_cache::outcome>
change_point_cache::reached() const {
  std::map<segment, outcome> kept;
  for (const auto& bounds : m_reached) kept.emplace(bounds, m_outcomes.at(bounds));
  return kept;
}

bool change_point_cache::differs_from_restored() const {
  return m_tested_any || m_reached.size() != m_restored;
}

const std::vector<detected_change>& incremental_change_points::append(std::vector<double> samples) {
  m_commits.push_back(std::move(samples));
  m_changes = find_change_points(m_commits, m_options, &m_cache);
  return m_changes;
}

std::vector<detected_change> find_change_points(const std::vector<std::vector<double>>& commits,
                                                const change_point_options& options,
                                                change_point_cache* cache) {
  std::vector<detected_change> found;
  segment(commits, 0, commits.size(), options, found, cache);
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.commit < b.commit; });
  return found;
}

}  // namespace aorta::detail
