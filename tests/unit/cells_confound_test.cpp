// The interleaved schedule and the paired confound verdicts on hand-made trials.
#include "baseline/default_gate.hpp"
#include "cells/confound.hpp"
#include "cells/interleave.hpp"
#include "cells/signed_rank.hpp"
#include "metrics/quantity_table.hpp"
#include "recipe/cell_plan.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

namespace {

using aorta::detail::cell_plan;
using aorta::detail::cell_trials;
using aorta::detail::confound_row;
using aorta::detail::confound_verdict;
using aorta::detail::interleaved_schedule;
using ::testing::HasSubstr;

TEST(CellsSchedule, EveryRoundRunsEachCellOnceInAShuffledSeededOrder) {
  const auto schedule = interleaved_schedule({20, 20, 20}, 42);
  ASSERT_EQ(schedule.size(), 60U);
  std::set<std::vector<std::size_t>> orders;
  for (int round = 0; round < 20; ++round) {
    std::vector<std::size_t> order;
    for (int position = 0; position < 3; ++position) {
      const auto& slot = schedule[static_cast<std::size_t>(round * 3 + position)];
      EXPECT_EQ(slot.round, round);
      EXPECT_EQ(slot.position, position);
      order.push_back(slot.cell);
    }
    EXPECT_EQ(std::set<std::size_t>(order.begin(), order.end()).size(), 3U);
    orders.insert(order);
  }
  EXPECT_GT(orders.size(), 1U) << "the order must change between rounds";
  const auto again = interleaved_schedule({20, 20, 20}, 42);
  const auto other = interleaved_schedule({20, 20, 20}, 43);
  bool same = true;
  bool differs = false;
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    same = same && again[i].cell == schedule[i].cell;
    differs = differs || other[i].cell != schedule[i].cell;
  }
  EXPECT_TRUE(same);
  EXPECT_TRUE(differs);
}

TEST(CellsSchedule, ACellWithFewerTrialsSitsOutTheLaterRounds) {
  const auto schedule = interleaved_schedule({1, 3, 0}, 7);
  ASSERT_EQ(schedule.size(), 4U);
  int ones = 0;
  for (const auto& slot : schedule) {
    EXPECT_NE(slot.cell, 2U);
    if (slot.cell == 0) {
      ++ones;
      EXPECT_EQ(slot.round, 0);
    }
  }
  EXPECT_EQ(ones, 1);
}

TEST(CellsSignedRank, SmallSamplesUseTheExactDistribution) {
  const auto all_up = aorta::detail::wilcoxon_signed_rank({0.1, 0.2, 0.3, 0.4, 0.5});
  EXPECT_DOUBLE_EQ(all_up.w_plus, 15.0);
  EXPECT_DOUBLE_EQ(all_up.p_greater, 1.0 / 32.0);
  EXPECT_DOUBLE_EQ(all_up.p_two_sided, 2.0 / 32.0);
  const auto with_zero = aorta::detail::wilcoxon_signed_rank({0.1, 0.2, 0.0, 0.4, -0.05});
  EXPECT_DOUBLE_EQ(with_zero.w_plus, 9.0);
  EXPECT_DOUBLE_EQ(with_zero.p_greater, 0.125);  // scipy.stats.wilcoxon(..., 'greater')
  const auto none = aorta::detail::wilcoxon_signed_rank({0.0, 0.0});
  EXPECT_DOUBLE_EQ(none.p_two_sided, 1.0);
}

aorta::trial_record trial(double gemm_ms, aorta::verdict outcome = aorta::verdict::pass) {
  aorta::trial_record record;
  record.verdict = outcome;
  record.metrics.kernels.push_back(aorta::kernel_row{"gemm", 10, gemm_ms, "proton"});
  return record;
}

cell_trials cell_of(const std::vector<double>& times) {
  cell_trials trials;
  for (const double t : times) trials.emplace_back(trial(t));
  return trials;
}

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

TEST(CellsConfound, PairingSeesASmallShiftThroughADriftCommonToBothCells) {
  // Each round drifts by up to 20%, the same for both cells; head is 10% slower in every round.
  const std::vector<double> drift{1.00, 1.20, 0.90, 1.15, 0.95};
  std::vector<double> base;
  std::vector<double> head;
  for (const double d : drift) {
    base.push_back(2.0 * d);
    head.push_back(2.2 * d);
  }
  const auto rows = aorta::detail::judge_cells(two_cells(), {cell_of(base), cell_of(head)}, 0,
                                               {1.05, 0.05});
  const auto& time = row_of(rows, "time_ms(gemm)");
  EXPECT_EQ(time.verdict, confound_verdict::slower);
  EXPECT_NEAR(*time.ratio, 1.1, 1e-12);
  EXPECT_NEAR(*time.p_value, 1.0 / 32.0, 1e-12);
  EXPECT_EQ(row_of(rows, "count(gemm)").verdict, confound_verdict::same);

  // A/A: no shift, the drift alone is not SLOWER.
  const auto aa = aorta::detail::judge_cells(two_cells(), {cell_of(base), cell_of(base)}, 0,
                                             {1.05, 0.05});
  EXPECT_EQ(row_of(aa, "time_ms(gemm)").verdict, confound_verdict::same);
}

TEST(CellsConfound, TooFewPairsOrAMixedSignAreAmbiguous) {
  const auto four = aorta::detail::judge_cells(
      two_cells(), {cell_of({2, 2, 2, 2}), cell_of({2.4, 2.4, 2.4, 2.4})}, 0, {1.05, 0.05});
  EXPECT_EQ(row_of(four, "time_ms(gemm)").verdict, confound_verdict::ambiguous)
      << "4 pairs: the smallest one-sided p is 1/16 > 0.05";
  const auto mixed = aorta::detail::judge_cells(
      two_cells(), {cell_of({2, 2, 2, 2, 2, 2}), cell_of({2.2, 2.2, 2.2, 2.2, 1.9, 1.9})}, 0,
      {1.05, 0.05});
  // Two rounds the other way: p = 4/64 (scipy.stats.wilcoxon(..., alternative="greater")). (At
  // 2.4 instead of 2.2 the head's trials would be two modes 1.26x apart, judged by mode.)
  EXPECT_EQ(row_of(mixed, "time_ms(gemm)").verdict, confound_verdict::ambiguous);
  EXPECT_NEAR(*row_of(mixed, "time_ms(gemm)").p_value, 4.0 / 64.0, 1e-12);
}

TEST(CellsConfound, ACellThatMeasuredNothingIsUnknownNeverSame) {
  cell_trials failed;
  for (int i = 0; i < 3; ++i) {
    aorta::trial_record record;
    record.verdict = aorta::verdict::skip;
    failed.emplace_back(record);
  }
  const auto rows =
      aorta::detail::judge_cells(two_cells(), {cell_of({2, 2, 2}), failed}, 0, {1.05, 0.05});
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_EQ(rows[0].verdict, confound_verdict::unknown);
  EXPECT_THAT(rows[0].evidence, HasSubstr("cell head measured no trial"));
}

TEST(CellsConfound, InstructionCountsAreComparedExactly) {
  auto with_ir = [](double ir) {
    aorta::trial_record record;
    record.verdict = aorta::verdict::pass;
    record.metrics.values["callgrind_ir.work"] = ir;
    return record;
  };
  cell_trials base{with_ir(1000), with_ir(1000)};
  cell_trials head{with_ir(2000), with_ir(2000)};
  const auto rows = aorta::detail::judge_cells(two_cells(), {base, head}, 0, {1.05, 0.05});
  const auto& ir = row_of(rows, "ir(work)");
  EXPECT_TRUE(ir.exact);
  EXPECT_EQ(ir.verdict, confound_verdict::slower);
  EXPECT_EQ(ir.evidence, "exact");
}

// The cells judge and the gate judge judge the same quantities (issue 39): the confound table
// once left out the ncu counters the default gate judges exactly. Both take their lists from the
// quantity table, so the trial here holds one value of every quantity the table gives a gate item.
TEST(CellsConfound, JudgesTheQuantitiesTheDefaultGateJudges) {
  std::string gate_text;
  std::set<std::string_view> gated;
  auto record = aorta::trial_record{};
  record.verdict = aorta::verdict::pass;
  for (const auto& declared : aorta::detail::quantity_table()) {
    if (declared.gate_item.empty()) continue;
    gated.insert(declared.check_name);
    gate_text += (gate_text.empty() ? "" : ", ") + std::string(declared.gate_item) + " +5%";
    if (declared.source == aorta::detail::value_source::kernels) {
      if (record.metrics.kernels.empty())
        record.metrics.kernels.push_back(aorta::kernel_row{"gemm", 10, 2.0, "ncu"});
    } else if (!declared.metric_prefix.empty()) {
      const bool counter = declared.source == aorta::detail::value_source::counters;
      record.metrics.values[aorta::detail::metric_key(
          declared.quantity, counter ? "dram__bytes.sum/gemm" : "loop")] = 100.0;
    } else {
      ADD_FAILURE() << declared.check_name << " has a gate item but neither the kernel table nor "
                                              "a metric prefix to read it from";
    }
  }
  record.metrics.values["ncu_kernel_count"] = 10.0;  // a total: judged by neither
  const cell_trials cell{record, record, record};
  std::set<std::string> confound;
  for (const auto& row : aorta::detail::judge_cells(two_cells(), {cell, cell}, 0, {1.05, 0.05}))
    confound.insert(row.quantity);
  const auto measured = aorta::detail::measured_from_records("t", {record, record, record});
  std::set<std::string> gate;
  for (const auto& row : aorta::detail::default_gate_rows(aorta::detail::parse_gate_spec(gate_text),
                                                          measured, measured))
    gate.insert(row.label);
  EXPECT_EQ(confound, gate);
  // Every gated quantity has its row: "time_ms(gemm)", "cycles(loop)", "ncu(dram__bytes.sum, ...".
  std::set<std::string_view> judged;
  for (const auto& label : gate) judged.insert(std::string_view(label).substr(0, label.find('(')));
  EXPECT_EQ(judged, gated);
  EXPECT_TRUE(confound.contains("ncu(dram__bytes.sum, gemm)"));
}

}  // namespace
