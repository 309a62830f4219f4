// A check whose selector matches nothing is not measured and fails, naming the closest names
// (issue 39, item 1); count() keeps its 0, and `F(A)?` opts in to "absent reads 0".
#include "aorta/check.hpp"
#include "aorta/error.hpp"
#include "baseline/gate_rule.hpp"
#include "baseline/default_gate.hpp"
#include "baseline/measured_series.hpp"
#include "cells/matrix_checks.hpp"
#include "checks/closest_names.hpp"
#include "ranks/rank_checks.hpp"

#include <gtest/gtest.h>

#include <string>

namespace aorta {
namespace {

capture kernels() {
  capture source;
  source.collector = "proton";
  source.kernels = {{"BM_add", 20, 2'000'000.0}, {"BM_mul", 40, 1'500'000.0}};
  return source;
}

capture functions() {
  capture source;
  source.collector = "callgrind";
  source.functions = {{"main", 10, 1000}, {"expensive", 600, 900}, {"cheap", 90, 90}};
  return source;
}

check_result run(std::string_view text, const std::vector<capture>& captures) {
  return evaluate_check(check_expression::parse(text), captures, metric_set{});
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST(CheckOnNothing, TimeOfAKernelThatDoesNotExistFailsNamingTheClosest) {
  const check_result typo = run("time_ms(BM_Nope) < 1", {kernels()});
  EXPECT_FALSE(typo.passed);
  EXPECT_EQ(typo.actual, "unknown");
  EXPECT_FALSE(typo.value.has_value());
  EXPECT_TRUE(contains(typo.message, "no kernel matches 'BM_Nope', so time_ms(BM_Nope) was not "
                                     "measured; did you mean: "))
      << typo.message;
  const check_result near = run("time_ms(^BM_ad$) < 100", {kernels()});
  EXPECT_TRUE(contains(near.message, "did you mean: BM_add, BM_mul")) << near.message;
  EXPECT_TRUE(contains(near.message, "write time_ms(^BM_ad$)? if its absence is fine"));
  // Either side of a ratio.
  EXPECT_FALSE(run("time_ms(BM_add) / time_ms(BM_Nope) > 0", {kernels()}).passed);
  EXPECT_FALSE(run("time_ms(BM_Nope) / time_ms(BM_add) < 1", {kernels()}).passed);
}

TEST(CheckOnNothing, CountKeepsItsDocumentedZero) {
  const check_result none = run("count(BM_Nope) == 0", {kernels()});
  EXPECT_TRUE(none.passed) << none.message;
  EXPECT_EQ(none.actual, "0 (no kernel matches 'BM_Nope')");
}

TEST(CheckOnNothing, AQuestionMarkAfterTheTermLetsAbsentReadZero) {
  const check_result absent = run("time_ms(BM_Nope)? < 1", {kernels()});
  EXPECT_TRUE(absent.passed) << absent.message;
  EXPECT_EQ(absent.actual, "0 (no kernel matches 'BM_Nope')");
  EXPECT_TRUE(run("time_ms(BM_add)? == 2", {kernels()}).passed);
  EXPECT_TRUE(run("ir(nothing)? == 0", {functions()}).passed);
  EXPECT_TRUE(run("self_ir(^nothing$)? == 0", {functions()}).passed);
  EXPECT_TRUE(run("calls(^nothing$)? == 0", {functions()}).passed);
  // Only the marked side reads 0; the other still must exist.
  const auto ratio = check_expression::parse("time_ms(BM_add)? / time_ms(BM_mul) < 2");
  EXPECT_TRUE(ratio.absent_reads_zero());
  EXPECT_FALSE(ratio.denominator_absent_reads_zero());
  EXPECT_FALSE(ratio.term(true).absent_reads_zero());
  EXPECT_TRUE(
      check_expression::parse("time_ms(a) / time_ms(b)? < 2").term(true).absent_reads_zero());
  EXPECT_FALSE(run("time_ms(BM_Nope)? / time_ms(BM_None) < 2", {kernels()}).passed);
}

TEST(CheckOnNothing, AQuestionMarkAfterAMetricIsRefused) {
  try {
    (void)check_expression::parse("proton_kernel_count? >= 1");
    FAIL() << "parsed";
  } catch (const usage_error& error) {
    EXPECT_TRUE(contains(error.what(), "a metric that was not measured always fails"))
        << error.what();
  }
}

TEST(CheckOnNothing, IrOfAFunctionThatDoesNotExistFails) {
  const check_result typo = run("ir(expensve) < 100000", {functions()});
  EXPECT_FALSE(typo.passed);
  EXPECT_EQ(typo.actual, "unknown");
  EXPECT_TRUE(contains(typo.message, "no function of the callgrind capture matches 'expensve'; "
                                     "closest: expensive"))
      << typo.message;
}

TEST(CheckOnNothing, ScopeAndCounterFormsReadZeroOnlyWhenMarked) {
  capture scopes;
  scopes.collector = "proton";
  scopes.scopes = {{"k", "loop", 10.0, 1.0}};
  EXPECT_FALSE(run("cycles(lop) < 100", {scopes}).passed);
  EXPECT_TRUE(run("cycles(lop)? < 100", {scopes}).passed);

  capture counters = kernels();
  counters.collector = "ncu";
  counters.counters = {{"BM_add", "dram__bytes.sum", "byte", 64.0}};
  const check_result typo = run("ncu(dram__bytes.sum, BM_ad_) < 100", {counters});
  EXPECT_FALSE(typo.passed);
  EXPECT_TRUE(contains(typo.message, "did you mean: BM_add")) << typo.message;
  EXPECT_TRUE(run("ncu(dram__bytes.sum, BM_ad_)? < 100", {counters}).passed);
  // A counter that was never collected is not made 0 by the marker.
  EXPECT_FALSE(run("ncu(lts__t_bytes.sum, BM_add)? < 100", {counters}).passed);
}

TEST(CheckOnNothing, RankFormsFailOnAKernelNoRankRan) {
  const std::vector<rank_captures> ranks{{0, "", "RANK", {kernels()}, {}, {}},
                                         {1, "", "RANK", {kernels()}, {}, {}}};
  const check_result result =
      evaluate_rank_check(check_expression::parse("max_over_ranks(time_ms(BM_Nope)) < 1"), ranks);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.actual, "unknown");
  EXPECT_TRUE(
      evaluate_rank_check(check_expression::parse("max_over_ranks(count(BM_Nope)) < 1"), ranks)
          .passed);
}

TEST(CheckOnNothing, TheProgramsOwnNamesComeBeforeLoaderFrames) {
  const std::vector<std::string> names{"dl_main", "my_program_entry", "_dl_start"};
  const auto closest = detail::closest_names(names, "mainx");
  ASSERT_EQ(closest.size(), 3U);
  EXPECT_EQ(closest.front(), "my_program_entry");
}

// The gate and the cells measure from result.json's kernels: a vanished kernel is not 0.
detail::measured_test measured(const std::vector<std::string>& kernel_names, int trials) {
  detail::measured_test test;
  test.test = "t";
  for (int i = 0; i < trials; ++i) {
    detail::trial_snapshot snapshot;
    for (const auto& name : kernel_names) snapshot.kernels[name] = {10.0, 1.0 + 0.01 * i};
    test.trials.push_back(snapshot);
  }
  return test;
}

TEST(CheckOnNothing, AGateCheckRowWhoseKernelVanishedFails) {
  std::string why;
  const auto check = check_expression::parse("time_ms(BM_a) <= baseline + 10%");
  EXPECT_FALSE(detail::measure(check, measured({"BM_b"}, 1).trials.front(), why).has_value());
  EXPECT_TRUE(contains(why, "did you mean: BM_b")) << why;
  auto rows = detail::check_rows({check}, measured({"BM_a", "BM_b"}, 5), measured({"BM_b"}, 5));
  ASSERT_EQ(rows.size(), 1U);
  detail::judge_rows(rows, detail::gate_params{});
  EXPECT_TRUE(detail::fails_gate(rows.front())) << rows.front().evidence;
  EXPECT_EQ(detail::verdict_label(rows.front()), "GONE");
  // Written `F(A)?`, absence reads 0 on both sides: measured, and not slower.
  auto marked = detail::check_rows({check_expression::parse("time_ms(BM_a)? <= baseline + 10%")},
                                   measured({"BM_b"}, 5), measured({"BM_b"}, 5));
  detail::judge_rows(marked, detail::gate_params{});
  EXPECT_FALSE(detail::fails_gate(marked.front())) << marked.front().evidence;
}

trial_record cell_trial(const std::string& kernel) {
  trial_record record;
  record.verdict = verdict::pass;
  record.metrics.kernels.push_back(kernel_row{kernel, 10, 0.001, "proton"});
  return record;
}

// Issue 39, item 2: `time_ms(BM_a)@head / time_ms(BM_a)@base` with head lacking BM_a was
// "PASS (actual 0 (0 / 0.001))".
TEST(CheckOnNothing, ACellWhoseKernelVanishedFailsAsUnknown) {
  std::vector<detail::cell_plan> cells(2);
  cells[0].name = "base";
  cells[1].name = "head";
  const std::vector<detail::cell_trials> trials{{cell_trial("BM_a"), cell_trial("BM_a")},
                                                {cell_trial("BM_b"), cell_trial("BM_b")}};
  const auto result = detail::judge_matrix_check(
      check_expression::parse("time_ms(BM_a)@head / time_ms(BM_a)@base <= 1.05"), cells, trials);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.actual, "unknown");
  EXPECT_TRUE(contains(result.message, "no kernel matches 'BM_a'")) << result.message;
  EXPECT_TRUE(detail::judge_matrix_check(
                  check_expression::parse("time_ms(BM_a)?@head / time_ms(BM_a)@base <= 1.05"),
                  cells, trials)
                  .passed);
}

}  // namespace
}  // namespace aorta
