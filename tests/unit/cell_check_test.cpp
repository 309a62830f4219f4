// Cell-addressed checks (`time_ms(gemm)@head / time_ms(gemm)@base <= 1.05`): the grammar and the
// judgement over hand-made trials of two cells (the shape sweep/cell_sweep.cpp keeps per round).
#include "aorta/check.hpp"
#include "aorta/error.hpp"
#include "cells/matrix_checks.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using aorta::check_expression;
using aorta::check_quantity;
using aorta::detail::cell_plan;
using aorta::detail::cell_trials;

std::string parse_error(std::string_view text) {
  try {
    (void)check_expression::parse(text);
  } catch (const aorta::usage_error& error) {
    return error.what();
  }
  return "parsed";
}

TEST(CellCheckGrammar, EveryTermMayNameItsCell) {
  const auto ratio = check_expression::parse("time_ms(gemm)@head / time_ms(gemm)@base <= 1.05");
  EXPECT_EQ(ratio.quantity(), check_quantity::time_ms);
  EXPECT_EQ(ratio.cell(), "head");
  EXPECT_EQ(ratio.denominator_cell(), "base");
  EXPECT_EQ(ratio.argument(), "gemm");
  EXPECT_EQ(ratio.threshold(), 1.05);
  const auto stacked = check_expression::parse("ir(^main$) @fast+big.cg > 0");
  EXPECT_EQ(stacked.cell(), "fast+big.cg");
  EXPECT_FALSE(stacked.is_ratio());
  const auto metric = check_expression::parse("callgrind_total_ir@base < 1e9");
  EXPECT_EQ(metric.quantity(), check_quantity::metric);
  EXPECT_EQ(metric.argument(), "callgrind_total_ir");
  EXPECT_EQ(metric.cell(), "base");
  EXPECT_FALSE(check_expression::parse("time_ms(gemm) < 5").cell().has_value());
}

TEST(CellCheckGrammar, TermsPickedForOneSideDropCellsAndRatio) {
  const auto check = check_expression::parse("self_ir(^a)@x / self_ir(^b)@y >= 2");
  const auto numerator = check.term(false);
  const auto denominator = check.term(true);
  EXPECT_EQ(numerator.argument(), "^a");
  EXPECT_EQ(denominator.argument(), "^b");
  EXPECT_TRUE(denominator.pattern()->search("b"));
  EXPECT_FALSE(denominator.is_ratio());
  EXPECT_FALSE(denominator.cell().has_value());
}

TEST(CellCheckGrammar, MixedOrUnjudgeableCellTermsAreRefused) {
  EXPECT_NE(parse_error("time_ms(gemm)@head / time_ms(gemm) <= 1.05").find("after both terms"),
            std::string::npos);
  EXPECT_NE(parse_error("time_ms(gemm) / time_ms(gemm)@base <= 1.05").find("after both terms"),
            std::string::npos);
  EXPECT_NE(parse_error("time_ms(gemm)@ < 1").find("a cell name after '@'"), std::string::npos);
  EXPECT_NE(parse_error("time_ms(gemm)@head <= baseline").find("not with a recorded baseline"),
            std::string::npos);
  EXPECT_NE(parse_error("calls(f)@head == 1").find("calls() cannot be addressed to a cell"),
            std::string::npos);
  EXPECT_NE(parse_error("count(under(decode))@head == 1").find("under(...) cannot be addressed"),
            std::string::npos);
  EXPECT_NE(parse_error("max_over_ranks(time_ms(g)@a) < 1").find("no @cell inside"),
            std::string::npos);
}

aorta::trial_record trial(double gemm_ms, aorta::verdict outcome = aorta::verdict::pass) {
  aorta::trial_record record;
  record.verdict = outcome;
  record.metrics.kernels.push_back(aorta::kernel_row{"gemm", 10, gemm_ms, "proton"});
  return record;
}

std::vector<cell_plan> two_cells() {
  std::vector<cell_plan> cells(2);
  cells[0].name = "base";
  cells[1].name = "head";
  return cells;
}

aorta::check_result judge(std::string_view text, const std::vector<cell_trials>& trials) {
  return aorta::detail::judge_matrix_check(check_expression::parse(text), two_cells(), trials);
}

// Each term is the median over its cell's trials: base {10, 11, 30} -> 11, head {11, 12, 12} -> 12.
TEST(CellCheckJudge, EachTermIsTheMedianOfItsCellsTrials) {
  const std::vector<cell_trials> trials{{trial(10), trial(30), trial(11)},
                                        {trial(12), trial(11), trial(12)}};
  const auto passed = judge("time_ms(gemm)@head / time_ms(gemm)@base <= 1.1", trials);
  EXPECT_TRUE(passed.passed) << passed.message;
  ASSERT_TRUE(passed.value.has_value());
  EXPECT_DOUBLE_EQ(*passed.value, 12.0 / 11.0);
  EXPECT_EQ(passed.actual, "1.0909 (12 / 11)");
  const auto failed = judge("time_ms(gemm)@head / time_ms(gemm)@base <= 1.05", trials);
  EXPECT_FALSE(failed.passed);
  EXPECT_NE(failed.message.find("time_ms(gemm)@base: median 11 of 3 trial(s) [10, 30, 11]"),
            std::string::npos)
      << failed.message;
  EXPECT_TRUE(judge("count(gemm)@base == 10", trials).passed);
}

// A trial that failed its own checks still measured; one that failed before a capture did not.
TEST(CellCheckJudge, ACellWithNoMeasuredTrialIsUnknownNeverAPass) {
  aorta::trial_record crashed;
  crashed.verdict = aorta::verdict::fail;
  aorta::trial_record skipped;
  skipped.verdict = aorta::verdict::skip;
  const std::vector<cell_trials> trials{{trial(10), trial(10, aorta::verdict::fail)},
                                        {crashed, skipped, std::nullopt}};
  for (const char* text :
       {"time_ms(gemm)@head / time_ms(gemm)@base <= 100",
        "time_ms(gemm)@head / time_ms(gemm)@base > 0", "time_ms(gemm)@head != 3"}) {
    const auto result = judge(text, trials);
    EXPECT_FALSE(result.passed) << text;
    EXPECT_EQ(result.actual, "unknown");
    EXPECT_FALSE(result.value.has_value());
    EXPECT_NE(result.message.find("cell 'head' has no trial that measured time_ms(gemm)@head (2 "
                                  "trial(s): 1 failed, 1 skipped"),
              std::string::npos)
        << result.message;
  }
  EXPECT_TRUE(judge("time_ms(gemm)@base == 10", trials).passed);
}

TEST(CellCheckJudge, AZeroDenominatorIsUndefined) {
  const std::vector<cell_trials> trials{{trial(0)}, {trial(3)}};
  const auto result = judge("time_ms(gemm)@head / time_ms(gemm)@base < 5", trials);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.actual, "undefined (3 / 0)");
}

TEST(CellCheckJudge, UnknownCellsAreNamedWithTheCellsThereAre) {
  const auto check = check_expression::parse("time_ms(gemm)@haed / time_ms(gemm)@base < 2");
  const std::string why = aorta::detail::unknown_cell_reason(check, {"base", "head"});
  EXPECT_NE(why.find("names cell 'haed', which is not a cell of this recipe; its cells: base, "
                     "head"),
            std::string::npos)
      << why;
  EXPECT_NE(aorta::detail::unknown_cell_reason(check, {}).find("the recipe has no cells"),
            std::string::npos);
  EXPECT_EQ(aorta::detail::unknown_cell_reason(check, {"base", "haed"}), "");
  EXPECT_EQ(aorta::detail::unknown_cell_reason(check_expression::parse("time_ms(g) < 1"), {}), "");
}

}  // namespace
