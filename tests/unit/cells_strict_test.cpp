// A strict confound verdict that could never fail is refused, and a row still AMBIGUOUS at the end
// of a strict run follows confound.ambiguous (issue 39, item 6).
#include "aorta/error.hpp"
#include "cells/signed_rank.hpp"
#include "reporting/console_reporter.hpp"
#include "sweep/confound_policy.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

namespace {

using aorta::ambiguous_policy;
using aorta::exit_code;
using aorta::detail::confound_pair;
using aorta::detail::confound_row;
using aorta::detail::confound_verdict;
using ::testing::HasSubstr;

// The exact one-sided p of n positive differences is 1/2^n: 4 pairs give 0.0625, 5 give 0.031.
TEST(CellsStrict, TheRoundsTheSignedRankTestNeedsForAnAlpha) {
  EXPECT_FALSE(aorta::detail::can_reach(0.05, 4));
  EXPECT_TRUE(aorta::detail::can_reach(0.05, 5));
  EXPECT_EQ(aorta::detail::pairs_to_reach(0.05), 5);
  EXPECT_EQ(aorta::detail::pairs_to_reach(0.01), 7);  // 1/128 < 0.01 <= 1/64
  const int absurd = aorta::detail::pairs_to_reach(1e-300);
  EXPECT_GT(absurd, 500);
  EXPECT_TRUE(aorta::detail::can_reach(1e-300, absurd));
  EXPECT_FALSE(aorta::detail::can_reach(1e-300, absurd - 1));
}

std::string refusal(const std::vector<confound_pair>& pairs, double alpha) {
  try {
    aorta::detail::refuse_unreachable_confound(pairs, alpha, "--strict");
  } catch (const aorta::usage_error& error) {
    return error.what();
  }
  return "accepted";
}

TEST(CellsStrict, AStrictVerdictThatCouldNeverFailOnATimeIsRefused) {
  EXPECT_THAT(refusal({{"head", "base", 3, true}}, 0.05),
              HasSubstr("--strict with 3 round(s) of cell head against base: the paired "
                        "signed-rank test needs at least 5 rounds"));
  EXPECT_THAT(refusal({{"head", "base", 10, true}}, 1e-300), HasSubstr("at alpha 1e-300"));
  EXPECT_EQ(refusal({{"head", "base", 5, true}}, 0.05), "accepted");
  // Exact counts (callgrind's Ir) are judged without the test, on any number of rounds.
  EXPECT_EQ(refusal({{"head", "base", 1, false}}, 0.05), "accepted");
}

confound_row row(confound_verdict verdict) {
  confound_row out;
  out.cell = "head";
  out.quantity = "time_ms(gemm)";
  out.verdict = verdict;
  return out;
}

TEST(CellsStrict, AnAmbiguousRowFollowsThePolicy) {
  const std::vector<confound_row> rows{row(confound_verdict::same),
                                       row(confound_verdict::ambiguous)};
  std::ostringstream out;
  aorta::reporting::console_reporter console(out, out);
  EXPECT_EQ(
      aorta::detail::apply_ambiguous_policy(rows, ambiguous_policy::fail, exit_code::ok, console),
      exit_code::failed);
  EXPECT_THAT(out.str(), HasSubstr("FAILED: 1 confound row(s) still AMBIGUOUS at the end of the "
                                   "run (head: time_ms(gemm))"));
  EXPECT_EQ(
      aorta::detail::apply_ambiguous_policy(rows, ambiguous_policy::skip, exit_code::ok, console),
      exit_code::skipped);
  // A failed run stays failed.
  EXPECT_EQ(aorta::detail::apply_ambiguous_policy(rows, ambiguous_policy::skip, exit_code::failed,
                                                  console),
            exit_code::failed);
  EXPECT_EQ(
      aorta::detail::apply_ambiguous_policy(rows, ambiguous_policy::pass, exit_code::ok, console),
      exit_code::ok);
  EXPECT_EQ(aorta::detail::apply_ambiguous_policy({row(confound_verdict::same)},
                                                  ambiguous_policy::fail, exit_code::ok, console),
            exit_code::ok);
}

}  // namespace
