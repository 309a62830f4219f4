// Attribution of confound verdicts (issue 43) on hand-made trials: the interval of a median, the
// shares of the change, the order answer first, "more work" vs "same work, slower", and the
// summary sentence.
#include "cells/confound.hpp"
#include "cells/confound_attribution.hpp"
#include "cells/confound_summary.hpp"
#include "recipe/cell_plan.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace {

using aorta::detail::cell_change;
using aorta::detail::cell_plan;
using aorta::detail::cell_trials;
using aorta::detail::confound_row;
using aorta::detail::confound_verdict;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::vector<cell_plan> two_cells() {
  std::vector<cell_plan> cells(2);
  cells[0].name = "base";
  cells[0].mitigation = "base";
  cells[1].name = "head";
  cells[1].mitigation = "head";
  for (auto& cell : cells) cell.diagnostic = "none";
  return cells;
}

const confound_row& row_of(const std::vector<confound_row>& rows, const std::string& quantity) {
  for (const auto& row : rows) {
    if (row.quantity == quantity) return row;
  }
  ADD_FAILURE() << "no row " << quantity;
  return rows.front();
}

// A callgrind trial: inclusive and self Ir per function, and the total.
aorta::trial_record ir_trial(const std::map<std::string, std::pair<double, double>>& functions,
                             double total) {
  aorta::trial_record record;
  record.verdict = aorta::verdict::pass;
  for (const auto& [name, cost] : functions) {
    record.metrics.values["callgrind_ir." + name] = cost.first;
    record.metrics.values["callgrind_self_ir." + name] = cost.second;
  }
  record.metrics.values["callgrind_total_ir"] = total;
  return record;
}

TEST(CellsAttribution, MedianIntervalIsTheBinomialOrderStatistics) {
  // n = 5: no pair of order statistics covers 95% (the widest covers 1 - 2/32), so [min, max].
  const auto five = aorta::detail::median_interval({5, 1, 4, 2, 3});
  EXPECT_EQ(five.first, 1.0);
  EXPECT_EQ(five.second, 5.0);
  // n = 10: P(B <= 1) = 11/1024, so k = 2 covers 1 - 22/1024 = 97.9%; k = 3 would cover
  // 1 - 2 x 56/1024 = 89.1% < 95%. The interval is [x(2), x(9)].
  const auto ten = aorta::detail::median_interval({10, 9, 8, 7, 6, 5, 4, 3, 2, 1});
  EXPECT_EQ(ten.first, 2.0);
  EXPECT_EQ(ten.second, 9.0);
  // n = 20: P(B <= 5) = 21700/1048576 = 0.0207 (k = 6 covers 95.9%), P(B <= 6) = 0.0577.
  std::vector<double> twenty;
  for (int i = 1; i <= 20; ++i) twenty.push_back(i);
  const auto interval = aorta::detail::median_interval(twenty);
  EXPECT_EQ(interval.first, 6.0);
  EXPECT_EQ(interval.second, 15.0);
}

TEST(CellsAttribution, TheFunctionThatDoesTheWorkLeadsItsCallers) {
  // head: expensive() does 10% more (self 1000 -> 1100); main and the loader's frame include it.
  const auto base = ir_trial({{"main", {2000, 10}},
                              {"expensive(unsigned long)", {1000, 1000}},
                              {"cheap()", {990, 990}},
                              {"(below main)", {2100, 100}}},
                             2100);
  const auto head = ir_trial({{"main", {2100, 10}},
                              {"expensive(unsigned long)", {1100, 1100}},
                              {"cheap()", {990, 990}},
                              {"(below main)", {2200, 100}}},
                             2200);
  std::vector<cell_change> changes;
  const auto rows = aorta::detail::judge_cells(two_cells(), {cell_trials{base}, cell_trials{head}},
                                               0, {1.04, 0.05}, &changes);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.front().quantity, "ir(expensive(unsigned long))");
  EXPECT_EQ(rows.front().verdict, confound_verdict::slower);
  EXPECT_NEAR(*rows.front().self_share, 1.0, 1e-12);
  EXPECT_NEAR(*rows.front().share, 1.0, 1e-12);
  EXPECT_EQ(rows.front().work, "more work (Ir +10.00%)");
  const auto& main = row_of(rows, "ir(main)");
  EXPECT_NEAR(*main.self_share, 0.0, 1e-12) << "main carries the change only inclusively";
  EXPECT_TRUE(row_of(rows, "ir((below main))").system_frame);
  EXPECT_EQ(rows.back().quantity, "ir(cheap())") << "SAME rows come last";
  ASSERT_EQ(changes.size(), 1U);
  EXPECT_EQ(changes.front().sentence,
            "head is 4.8% slower than base (total Ir, exact) in expensive(unsigned long) (+10.0% "
            "itself), 100% of the change (self), more work (Ir +10.00%); also moved: main "
            "(caller, self 0%); 1 other row(s) within ±0.0%; 1 loader/libc row(s) folded");
}

// A trial with one kernel's time and, when given, its ncu instruction count and launches.
aorta::trial_record kernel_trial(double ms, std::optional<double> instructions,
                                 double launches = 10) {
  aorta::trial_record record;
  record.verdict = aorta::verdict::pass;
  record.metrics.kernels.push_back(
      aorta::kernel_row{"gemm", static_cast<std::int64_t>(launches), ms, "ncu"});
  if (instructions)
    record.metrics.values["ncu_counter.smsp__inst_executed.sum/gemm"] = *instructions;
  return record;
}

cell_trials rounds_of(const std::vector<double>& times, std::optional<double> instructions,
                      double launches = 10) {
  cell_trials trials;
  for (const double t : times) trials.emplace_back(kernel_trial(t, instructions, launches));
  return trials;
}

TEST(CellsAttribution, CountersTellMoreWorkFromTheSameWorkSlower) {
  const std::vector<double> base{2.0, 2.1, 1.9, 2.05, 1.95};
  std::vector<double> slower;
  for (const double t : base) slower.push_back(t * 1.2);
  std::vector<cell_change> changes;
  const auto same_work = aorta::detail::judge_cells(
      two_cells(), {rounds_of(base, 1e6), rounds_of(slower, 1e6)}, 0, {1.05, 0.05}, &changes);
  const auto& time = row_of(same_work, "time_ms(gemm)");
  EXPECT_EQ(time.verdict, confound_verdict::slower);
  EXPECT_EQ(time.work, "same work, slower (launches 10 -> 10, instructions +0.00%)");
  EXPECT_NEAR(*time.share, 1.0, 1e-12);
  EXPECT_NEAR(*time.ratio_low, 1.2, 1e-12);
  EXPECT_THAT(changes.front().sentence,
              StartsWith("head is 20.0% slower [+20.0%, +20.0%] than base (total kernel time) in "
                         "gemm (+20.0% itself), 100% of the change, same work, slower"));

  const auto more_work = aorta::detail::judge_cells(
      two_cells(), {rounds_of(base, 1e6), rounds_of(slower, 1.2e6)}, 0, {1.05, 0.05});
  EXPECT_EQ(row_of(more_work, "time_ms(gemm)").work, "more work (instructions +20.00%)");

  std::vector<cell_change> launch_changes;
  const auto more_launches = aorta::detail::judge_cells(
      two_cells(), {rounds_of(base, std::nullopt), rounds_of(slower, std::nullopt, 12)}, 0,
      {1.05, 0.05}, &launch_changes);
  EXPECT_EQ(row_of(more_launches, "time_ms(gemm)").work, "more work (launches 10 -> 12)");
  EXPECT_EQ(row_of(more_launches, "count(gemm)").verdict, confound_verdict::slower);
  EXPECT_THAT(launch_changes.front().sentence, ::testing::Not(HasSubstr("also moved")))
      << "count(gemm) is the evidence the words cite, not another move";

  const auto uncounted = aorta::detail::judge_cells(
      two_cells(), {rounds_of(base, std::nullopt), rounds_of(slower, std::nullopt)}, 0,
      {1.05, 0.05});
  EXPECT_THAT(row_of(uncounted, "time_ms(gemm)").work,
              StartsWith("same launches, slower (launches 10 -> 10); no instruction counter"));
}

TEST(CellsAttribution, ARowWithinTheThresholdButSignificantSaysSo) {
  confound_row row;
  row.verdict = confound_verdict::same;
  row.ratio = 1.022;
  row.p_value = 0.0001;
  EXPECT_EQ(aorta::detail::within_threshold_note(row, 1.05, 0.05), "+2.2%, within 5%");
  row.p_value = 0.4;
  EXPECT_EQ(aorta::detail::within_threshold_note(row, 1.05, 0.05), "");
  row.exact = true;
  EXPECT_EQ(aorta::detail::within_threshold_note(row, 1.05, 0.05), "+2.2%, within 5%");
  row.verdict = confound_verdict::slower;
  EXPECT_EQ(aorta::detail::within_threshold_note(row, 1.05, 0.05), "");
}

}  // namespace
