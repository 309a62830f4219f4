// Checks over ranks and the default sum over ranks, on hand-made per-rank captures.
#include "aorta/capture.hpp"
#include "aorta/check.hpp"
#include "aorta/error.hpp"
#include "ranks/rank_checks.hpp"
#include "aorta/recipe.hpp"
#include "ranks/rank_reading.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {

aorta::capture kernels(int rank, std::optional<std::uint64_t> launches, double total_ns) {
  aorta::capture got;
  got.collector = "proton";
  got.rank = rank;
  got.kernels.push_back({"add_kernel", launches, total_ns});
  return got;
}

std::vector<aorta::rank_captures> two_ranks(std::optional<std::uint64_t> second = 20) {
  return {{0, "a", "RANK", {kernels(0, 10, 1e6)}, {}, {}},
          {1, "b", "RANK", {kernels(1, second, 3e6)}, {}, {}}};
}

aorta::check_result run(const char* text, const std::vector<aorta::rank_captures>& ranks) {
  return aorta::evaluate_rank_check(aorta::check_expression::parse(text), ranks);
}

TEST(RankChecks, ParseKeepsTheInnerFunctionAndTheReduction) {
  const auto check = aorta::check_expression::parse("imbalance(time_ms(^add)) < 1.5");
  EXPECT_EQ(check.over_ranks(), aorta::rank_reduction::imbalance);
  EXPECT_EQ(check.quantity(), aorta::check_quantity::time_ms);
  EXPECT_EQ(check.argument(), "^add");
  EXPECT_EQ(check.per_rank().over_ranks(), aorta::rank_reduction::none);
  EXPECT_EQ(aorta::check_expression::parse("max_over_ranks(count(a) / count(b)) > 1").denominator(),
            "b");
}

TEST(RankChecks, ParseErrorsNameTheColumn) {
  EXPECT_THROW((void)aorta::check_expression::parse("imbalance(top_kernel) < 2"),
               aorta::usage_error);
  EXPECT_THROW((void)aorta::check_expression::parse("max_over_ranks(count(a) > 1"),
               aorta::usage_error);
}

TEST(RankChecks, MaxMinAndImbalanceReadEachRank) {
  EXPECT_TRUE(run("max_over_ranks(count(add)) == 20", two_ranks()).passed);
  EXPECT_TRUE(run("min_over_ranks(count(add)) == 10", two_ranks()).passed);
  const auto imbalance = run("imbalance(time_ms(add)) < 2", two_ranks());
  EXPECT_FALSE(imbalance.passed);
  EXPECT_DOUBLE_EQ(*imbalance.value, 3.0);
  EXPECT_NE(imbalance.actual.find("max 3 on rank 1 / min 1 on rank 0"), std::string::npos)
      << imbalance.actual;
}

TEST(RankChecks, AnUnknownRankValueFailsNamingTheRank) {
  const auto result = run("max_over_ranks(count(add)) >= 1", two_ranks(std::nullopt));
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.message.find("rank 1 on b"), std::string::npos) << result.message;
}

TEST(RankChecks, ImbalanceWithARankAtZeroIsUndefined) {
  auto ranks = two_ranks();
  ranks[0].captures[0].kernels[0].launches = 0;
  const auto result = run("imbalance(count(add)) < 100", ranks);
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.message.find("rank 0 measured 0"), std::string::npos) << result.message;
  EXPECT_FALSE(run("imbalance(count(add)) < 2", {}).passed);
}

std::vector<aorta::rank_captures> ranks_with_times(const std::vector<double>& ms) {
  std::vector<aorta::rank_captures> ranks;
  for (std::size_t r = 0; r < ms.size(); ++r) {
    const int rank = static_cast<int>(r);
    ranks.push_back(
        {rank, "node" + std::to_string(r / 4), "RANK", {kernels(rank, 10, ms[r] * 1e6)}, {}, {}});
  }
  return ranks;
}

TEST(RankChecks, StragglerIsTheSlowestRankOverTheMedianOfItsPeers) {
  // Peers of rank 2 are {10, 10, 12}: median 10, so 11 / 10 = 1.1. The fast rank 3 (12 ms is the
  // slow one here) is measured against {10, 10, 11}: 12 / 10 = 1.2, the largest.
  const auto result = run("straggler(time_ms(add)) <= 1.05", ranks_with_times({10, 10, 11, 12}));
  EXPECT_FALSE(result.passed);
  ASSERT_TRUE(result.value);
  EXPECT_DOUBLE_EQ(*result.value, 1.2);
  EXPECT_NE(result.actual.find("rank 3 at 12 / median of its peers 10"), std::string::npos)
      << result.actual;
  // One rank 10% slower among 8 reads 1.1; balanced ranks read 1 and pass.
  std::vector<double> eight(8, 5.0);
  eight[5] = 5.5;
  const auto one_slow = run("straggler(time_ms(add)) <= 1.05", ranks_with_times(eight));
  EXPECT_FALSE(one_slow.passed);
  EXPECT_NEAR(*one_slow.value, 1.1, 1e-12);
  EXPECT_NE(one_slow.actual.find("rank 5 at"), std::string::npos) << one_slow.actual;
  EXPECT_TRUE(run("straggler(time_ms(add)) <= 1.05", ranks_with_times({5, 5, 5, 5})).passed);
}

TEST(RankChecks, StragglerWithoutPeersOrWithALostKernelFails) {
  const auto alone = run("straggler(time_ms(add)) <= 1.05", ranks_with_times({5}));
  EXPECT_FALSE(alone.passed);
  EXPECT_NE(alone.message.find("only rank 0 measured"), std::string::npos) << alone.message;
  auto lost = ranks_with_times({5, 5, 5, 5});
  lost[2].captures[0].kernels[0].name = "other_kernel";
  const auto missing = run("straggler(time_ms(add)) <= 1.05", lost);
  EXPECT_FALSE(missing.passed);
  EXPECT_NE(missing.message.find("rank 2 on node0"), std::string::npos) << missing.message;
  const auto zero = run("straggler(time_ms(add)) <= 1.05", ranks_with_times({5, 0, 0, 0}));
  EXPECT_FALSE(zero.passed);
  EXPECT_NE(zero.message.find("rank / peers is undefined"), std::string::npos) << zero.message;
  EXPECT_FALSE(run("straggler(time_ms(add)) <= 1.05", {}).passed);
}

TEST(RankSum, LaunchesAndTimeAddUpAndUnknownStaysUnknown) {
  const auto a = kernels(0, 10, 1e6);
  const auto b = kernels(1, 20, 3e6);
  const auto sum = aorta::sum_over_ranks({&a, &b});
  ASSERT_EQ(sum.kernels.size(), 1U);
  EXPECT_EQ(sum.kernels[0].launches, 30U);
  EXPECT_DOUBLE_EQ(sum.kernels[0].total_ns, 4e6);
  EXPECT_FALSE(sum.rank);
  const auto unknown = kernels(1, std::nullopt, 1.0);
  EXPECT_FALSE(aorta::sum_over_ranks({&a, &unknown}).kernels[0].launches);
}

// Every scope and function field the quantity table sums over ranks adds up: calls() of a
// multi-rank trial used to read the first rank's count alone.
TEST(RankSum, ScopeAndFunctionFieldsAddUpAsTheTableSays) {
  aorta::capture a;
  a.rank = 0;
  a.scopes.push_back({"k", "loop", 100.0, 1.0});
  a.functions.push_back({"parse_row", 10, 40, 3});
  aorta::capture b = a;
  b.rank = 1;
  b.scopes[0] = {"k", "loop", 50.0, 0.5};
  b.functions[0] = {"parse_row", 5, 20, 4};
  const auto sum = aorta::sum_over_ranks({&a, &b});
  ASSERT_EQ(sum.scopes.size(), 1U);
  EXPECT_DOUBLE_EQ(sum.scopes[0].cycles, 150.0);
  EXPECT_DOUBLE_EQ(sum.scopes[0].normalized_cycles, 1.5);
  ASSERT_EQ(sum.functions.size(), 1U);
  EXPECT_EQ(sum.functions[0].self_ir, 15U);
  EXPECT_EQ(sum.functions[0].inclusive_ir, 60U);
  EXPECT_EQ(sum.functions[0].calls, 7U);
}

}  // namespace

// The H200 torchrun captures (tests/fixtures/h200-ranks/README.md) read back per rank.
namespace {

struct fixture_case {
  const char* directory;
  const char* recipe;
};

class RankFixtures : public ::testing::TestWithParam<fixture_case> {};

TEST_P(RankFixtures, EachRankHasItsShareAndTheSumIsBoth) {
  const auto spec = aorta::load_recipe(std::string(AORTA_SOURCE_DIR) + "/" + GetParam().recipe);
  const auto reading = aorta::detail::read_rank_captures(
      spec, std::string(AORTA_FIXTURES_DIR) + "/h200-ranks/" + GetParam().directory + "/trial_0",
      2);
  EXPECT_TRUE(reading.problems.empty()) << reading.problems.front();
  ASSERT_EQ(reading.ranks.size(), 2U);
  EXPECT_EQ(reading.complete, 2);
  for (const auto& check : {"min_over_ranks(count(^add_kernel$)) == 10",
                            "max_over_ranks(count(^add_kernel$)) == 20",
                            "imbalance(count(^add_kernel$)) == 2"}) {
    EXPECT_TRUE(
        aorta::evaluate_rank_check(aorta::check_expression::parse(check), reading.ranks).passed)
        << check;
  }
  ASSERT_EQ(reading.summed.size(), 1U);
  EXPECT_TRUE(aorta::evaluate_check(aorta::check_expression::parse("count(^add_kernel$) == 30"),
                                    reading.summed, {})
                  .passed);
}

TEST(RankFixturesMissing, ThreeExpectedRanksNameTheMissingOne) {
  const auto spec = aorta::load_recipe(std::string(AORTA_SOURCE_DIR) +
                                       "/examples/profiling/ncu/torchrun-ranks/recipe.yaml");
  const auto reading = aorta::detail::read_rank_captures(
      spec, std::string(AORTA_FIXTURES_DIR) + "/h200-ranks/ncu/trial_0", 3);
  ASSERT_EQ(reading.problems.size(), 1U);
  EXPECT_NE(reading.problems[0].find("rank 2 wrote nothing"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    H200, RankFixtures,
    ::testing::Values(fixture_case{"proton-env", "examples/profiling/proton/torchrun-ranks/recipe.env.yaml"},
                      fixture_case{"proton-cli", "examples/profiling/proton/torchrun-ranks/recipe.yaml"},
                      fixture_case{"ncu", "examples/profiling/ncu/torchrun-ranks/recipe.yaml"}));

}  // namespace

// A rank whose compute-sanitizer report shows errors fails the trial as a single-process one
// does (failure_in_capture), whatever the checks; a clean rank is no problem.
namespace {

TEST(RankSanitizer, ARankWithErrorsIsAProblemNamingTheRank) {
  const auto trial = std::filesystem::temp_directory_path() /
                     ("aorta-rank-sanitizer-" + std::to_string(::getpid()));
  std::filesystem::remove_all(trial);
  const std::string h200 = std::string(AORTA_FIXTURES_DIR) + "/sanitizer/h200/";
  const char* logs[] = {"memcheck-clean.log", "memcheck-oob-padding.log"};
  for (int rank = 0; rank < 2; ++rank) {
    const auto dir = trial / ("rank_" + std::to_string(rank));
    std::filesystem::create_directories(dir / "sanitizer");
    std::filesystem::copy_file(h200 + logs[rank], dir / "sanitizer" / "sanitizer.log");
    std::ofstream(dir / "rank.json") << R"({"host": "h", "rank": )" << rank
                                     << R"(, "variable": "RANK", "world_size": 2})";
  }
  const auto spec = aorta::load_recipe_from_string(
      "schema_version: 1\nmode: probe\ncollect:\n  sanitizer: {}\n", "r.yaml");
  const auto reading = aorta::detail::read_rank_captures(spec, trial, 2);
  std::filesystem::remove_all(trial);
  ASSERT_EQ(reading.problems.size(), 1U);
  EXPECT_NE(reading.problems[0].find("rank 1 on h: compute-sanitizer (memcheck) reported"),
            std::string::npos)
      << reading.problems[0];
}

}  // namespace
