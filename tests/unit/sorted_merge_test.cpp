#include "metrics/sorted_merge.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <tuple>
#include <vector>

namespace aorta::detail {
namespace {

struct clash {
  std::string name;
  metric_value kept;
  metric_value replaced;
  bool operator==(const clash&) const = default;
};

// Keys `prefix<i>` for i in [first, first + count) step `step`, zero-padded so that the map's
// order is i's order; the value tells the maps apart.
metric_map keys(int first, int count, int step, std::int64_t value) {
  metric_map out;
  for (int i = 0; i < count; ++i) out[fmt::format("m.{:06}", first + i * step)] = value;
  return out;
}

// What merge_sorted must do, one assignment per node of `from`.
std::pair<metric_map, std::vector<clash>> one_at_a_time(metric_map into, const metric_map& from) {
  std::vector<clash> clashes;
  for (const auto& [name, value] : from) {
    const auto held = into.find(name);
    if (held != into.end()) clashes.push_back({name, value, held->second});
    into[name] = value;
  }
  return {into, clashes};
}

// (into, from): every path of merge_sorted (either map empty, either far smaller, both alike),
// with keys that interleave, clash, and lie before and after the other map's.
class SortedMerge : public ::testing::TestWithParam<std::tuple<metric_map, metric_map>> {};

TEST_P(SortedMerge, GivesWhatOneAssignmentPerNodeGives) {
  metric_map into = std::get<0>(GetParam());
  metric_map from = std::get<1>(GetParam());
  const auto [expected, expected_clashes] = one_at_a_time(into, from);
  std::vector<clash> clashes;
  merge_sorted(
      into, from,
      [&clashes](const std::string& name, const metric_value& kept, const metric_value& replaced) {
        clashes.push_back({name, kept, replaced});
      });
  EXPECT_EQ(into, expected);
  EXPECT_TRUE(from.empty());
  EXPECT_EQ(clashes, expected_clashes);
}

INSTANTIATE_TEST_SUITE_P(
    Paths, SortedMerge,
    ::testing::Values(
        std::make_tuple(metric_map{}, keys(0, 50, 1, 2)),
        std::make_tuple(keys(0, 50, 1, 1), metric_map{}),
        // A few into many: before, inside (clashing and not) and after the other's keys.
        std::make_tuple(keys(-3, 4, 21, 1), keys(0, 200, 1, 2)),
        std::make_tuple(keys(0, 200, 1, 1), keys(-3, 4, 21, 2)),
        std::make_tuple(keys(190, 5, 3, 1), keys(0, 200, 1, 2)),
        // Alike in size: every other key, every third clashing.
        std::make_tuple(keys(0, 300, 2, 1), keys(1, 300, 3, 2)),
        std::make_tuple(keys(1, 300, 3, 1), keys(0, 300, 2, 2)),
        std::make_tuple(keys(0, 100, 1, 1), keys(0, 100, 1, 2))));

// A check of 100,000 scopes merges its metrics into a set of a few: the few go in by search and
// the result is the same map object's content, with the clash reported.
TEST(SortedMergeNotes, MergeMetricsNotesEachClashInKeyOrder) {
  metric_set into;
  into.values = keys(0, 3, 50, 1);
  metric_set from;
  from.values = keys(0, 200, 1, 2);
  merge_metrics(into, std::move(from));
  EXPECT_EQ(into.values.size(), 200U);
  ASSERT_EQ(into.notes.size(), 3U);
  EXPECT_EQ(into.notes[0], "metric m.000000 was produced twice; the later value 2 replaced 1");
  EXPECT_EQ(into.notes[2], "metric m.000100 was produced twice; the later value 2 replaced 1");
}

}  // namespace
}  // namespace aorta::detail
