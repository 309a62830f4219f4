// The change-point detector of `aorta history changes`: its statistic against a direct O(n^2)
// computation of the same definition, and its behaviour on seeded series with and without a step.
#include "history/change_points.hpp"
#include "history/iso_time.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace aorta::detail {
namespace {

// Matteson and James's Q(tau) written out from the definition, pair by pair.
double direct_statistic(const std::vector<double>& x, std::size_t tau) {
  const std::size_t n = x.size();
  double between = 0.0, left = 0.0, right = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      const double d = std::fabs(x[i] - x[j]);
      if (j < tau)
        left += d;
      else if (i >= tau)
        right += d;
      else
        between += d;
    }
  }
  const double a = static_cast<double>(tau), b = static_cast<double>(n - tau);
  const double within_left = tau > 1 ? left / (a * (a - 1) / 2) : 0.0;
  const double within_right = n - tau > 1 ? right / (b * (b - 1) / 2) : 0.0;
  return a * b / static_cast<double>(n) * (2 * between / (a * b) - within_left - within_right);
}

std::vector<std::vector<double>> series(std::uint64_t seed, std::size_t commits, std::size_t trials,
                                        double noise, std::size_t step_at, double step) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal(0.0, noise);
  std::vector<std::vector<double>> out(commits);
  for (std::size_t c = 0; c < commits; ++c) {
    for (std::size_t t = 0; t < trials; ++t) {
      out[c].push_back((c >= step_at ? 1.0 + step : 1.0) * (1.0 + normal(random)));
    }
  }
  return out;
}

TEST(HistoryChangePoints, StatisticEqualsTheDirectDefinition) {
  std::mt19937_64 random(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (std::size_t n : {2U, 3U, 7U, 40U}) {
    std::vector<double> x;
    for (std::size_t i = 0; i < n; ++i) x.push_back(i % 5 == 0 ? 1.0 : normal(random));  // ties
    const auto q = e_divisive_statistics(x);
    ASSERT_EQ(q.size(), n - 1);
    for (std::size_t tau = 1; tau < n; ++tau) {
      EXPECT_NEAR(q[tau - 1], direct_statistic(x, tau), 1e-9 * (1 + std::fabs(q[tau - 1])))
          << "n " << n << " tau " << tau;
    }
  }
}

TEST(HistoryChangePoints, FindsAStepAtItsCommit) {
  const auto commits = series(1, 40, 3, 0.01, 25, 0.02);
  const auto found = find_change_points(commits, {});
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0].commit, 25U);
  EXPECT_LE(found[0].range_first, 25U);
  EXPECT_GE(found[0].range_last, 25U);
  EXPECT_LE(found[0].p, 0.01);
}

TEST(HistoryChangePoints, FindsTwoSteps) {
  auto commits = series(2, 60, 3, 0.01, 20, 0.03);
  for (std::size_t c = 40; c < 60; ++c) {
    for (auto& v : commits[c]) v *= 0.95;
  }
  const auto found = find_change_points(commits, {});
  ASSERT_EQ(found.size(), 2U);
  EXPECT_NEAR(static_cast<double>(found[0].commit), 20.0, 1.0);
  EXPECT_NEAR(static_cast<double>(found[1].commit), 40.0, 1.0);
}

TEST(HistoryChangePoints, NoStepMostlyNoChange) {
  int false_changes = 0;
  for (std::uint64_t seed = 100; seed < 150; ++seed) {
    false_changes +=
        static_cast<int>(find_change_points(series(seed, 40, 3, 0.01, 40, 0.0), {}).size());
  }
  // 50 segments tested at p <= 0.01: 0.5 expected; 4 or more has probability below 0.2%.
  EXPECT_LE(false_changes, 3);
}

TEST(HistoryChangePoints, DeterministicForASeed) {
  const auto commits = series(3, 30, 3, 0.01, 15, 0.01);
  change_point_options options;
  const auto first = find_change_points(commits, options);
  const auto second = find_change_points(commits, options);
  ASSERT_EQ(first.size(), second.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(first[i].commit, second[i].commit);
    EXPECT_EQ(first[i].p, second[i].p);
  }
}

TEST(HistoryChangePoints, TooShortASeriesHasNoChange) {
  EXPECT_TRUE(find_change_points(series(4, 5, 3, 0.01, 3, 0.5), {}).empty());
  EXPECT_TRUE(find_change_points({}, {}).empty());
}

// Incremental detection (docs/history.md): commits arriving one at a time give, after each, the
// changes of a full pass over the series so far, field for field, while testing again only the
// segments that reach the newest commit.
TEST(HistoryChangePoints, IncrementalEqualsTheFullPassAndCostsLess) {
  auto commits = series(3, 150, 3, 0.01, 50, 0.03);
  for (std::size_t c = 100; c < commits.size(); ++c) {
    for (double& value : commits[c]) value *= 1.04;  // a second step, at 100
  }
  incremental_change_points incremental({});
  std::vector<std::vector<double>> so_far;
  long long full_permutations = 0;
  for (const auto& commit : commits) {
    so_far.push_back(commit);
    const auto& found = incremental.append(commit);
    change_point_cache fresh;
    const auto full = find_change_points(so_far, {}, &fresh);
    full_permutations += fresh.permutations_run;
    ASSERT_EQ(found.size(), full.size()) << "after commit " << so_far.size();
    for (std::size_t i = 0; i < full.size(); ++i) {
      EXPECT_EQ(found[i].commit, full[i].commit);
      EXPECT_EQ(found[i].range_first, full[i].range_first);
      EXPECT_EQ(found[i].range_last, full[i].range_last);
      EXPECT_EQ(found[i].p, full[i].p);
      EXPECT_EQ(found[i].permutations_run, full[i].permutations_run);
    }
    // And a pass without any cache agrees too: the cache changes the cost, never the answer.
    ASSERT_EQ(find_change_points(so_far, {}).size(), full.size());
  }
  const auto& last = incremental.append(commits.back());  // one more: the series grows to 151
  EXPECT_EQ(last.size(), find_change_points(
                             [&] {
                               auto more = commits;
                               more.push_back(commits.back());
                               return more;
                             }(),
                             {})
                             .size());
  ASSERT_EQ(find_change_points(commits, {}).size(), 2U);
  // The segments that reach the newest commit are most of the work (measured: 25,128 of 30,442
  // permutations here), so the saving is the subtrees left of the newest change.
  EXPECT_LT(incremental.cache().permutations_run, full_permutations)
      << "incremental: " << incremental.cache().permutations_run
      << " permutations, full passes: " << full_permutations;
}

// A commit whose samples change (another run added to it) is tested again, not read from the
// cache: the digest covers every sample of a segment.
TEST(HistoryChangePoints, CacheNeverReusesASegmentWhoseSamplesChanged) {
  auto commits = series(4, 40, 3, 0.01, 40, 0.0);  // no step
  change_point_cache cache;
  EXPECT_TRUE(find_change_points(commits, {}, &cache).empty());
  for (std::size_t c = 25; c < commits.size(); ++c) {
    for (double& value : commits[c]) value *= 1.05;
  }
  const auto found = find_change_points(commits, {}, &cache);
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0].commit, 25U);
}

// The state a process saves (the segments its pass reached) restored into a new cache by the next
// process: the same answer with no segment tested, and nothing to save again. A commit more: only
// segments that reach it are tested, the answer a full pass's.
TEST(HistoryChangePoints, ReachedSegmentsRestoredAnswerWithoutATest) {
  auto commits = series(5, 60, 3, 0.01, 30, 0.04);
  change_point_cache first;
  const auto found = find_change_points(commits, {}, &first);
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(first.segments_reused, 0);
  EXPECT_TRUE(first.differs_from_restored());
  const auto saved = first.reached();
  EXPECT_EQ(static_cast<long long>(saved.size()), first.segments_tested);

  change_point_cache second;
  for (const auto& [bounds, decided] : saved) second.restore(bounds.first, bounds.second, decided);
  const auto again = find_change_points(commits, {}, &second);
  ASSERT_EQ(again.size(), found.size());
  EXPECT_EQ(again[0].commit, found[0].commit);
  EXPECT_EQ(again[0].p, found[0].p);
  EXPECT_EQ(second.segments_tested, 0);
  EXPECT_EQ(second.segments_reused, static_cast<long long>(saved.size()));
  EXPECT_FALSE(second.differs_from_restored());

  commits.push_back(commits.back());
  change_point_cache third;
  for (const auto& [bounds, decided] : saved) third.restore(bounds.first, bounds.second, decided);
  const auto grown = find_change_points(commits, {}, &third);
  const auto full = find_change_points(commits, {});
  ASSERT_EQ(grown.size(), full.size());
  for (std::size_t i = 0; i < full.size(); ++i) EXPECT_EQ(grown[i].commit, full[i].commit);
  EXPECT_GT(third.segments_reused, 0);  // the segment left of the step does not reach the end
  EXPECT_GT(third.segments_tested, 0);
  EXPECT_TRUE(third.differs_from_restored());
  // The segment [0, 60) no pass asks for any more is not in the state saved next.
  EXPECT_FALSE(third.reached().contains({0, 60}));
}

TEST(HistoryIsoTime, ParsesZonesAndRefusesNonsense) {
  const auto utc = parse_iso_time("2026-12-06T05:00:00Z");
  ASSERT_TRUE(utc);
  EXPECT_EQ(utc->unix_seconds, 1796533200);
  EXPECT_EQ(utc->text, "2026-12-06T05:00:00Z");
  const auto zoned = parse_iso_time("2026-12-06T06:30:00.123+01:30");
  ASSERT_TRUE(zoned);
  EXPECT_EQ(zoned->unix_seconds, utc->unix_seconds);
  EXPECT_EQ(parse_iso_time("2024-02-29")->text, "2024-02-29T00:00:00Z");
  EXPECT_EQ(parse_iso_time("1969-12-31T23:59:59Z")->unix_seconds, -1);
  for (const char* bad : {"", "2026-13-01", "2023-02-29", "2026-12-06T25:00:00Z",
                          "2026-12-06T05:00:00+1", "yesterday", "2026-12-06T05:00Z"}) {
    EXPECT_FALSE(parse_iso_time(bad)) << bad;
  }
}

}  // namespace
}  // namespace aorta::detail
