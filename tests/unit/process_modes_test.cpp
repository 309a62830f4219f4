// Process modes (baseline/process_modes.hpp) and the confound verdict on multi-modal trials. Values
// are times with modes near 30 and 45 (the H100 GEMM of benchmarks/gpu-2026-12-06/gemm-modes.json)
// and a few percent of spread within a mode.
#include "cells/confound.hpp"
#include "baseline/process_modes.hpp"
#include "recipe/cell_plan.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>

namespace {

using aorta::detail::confound_verdict;
using aorta::detail::detect_modes;
using aorta::detail::test_multimodal;
using ::testing::HasSubstr;

// `trials` processes, each in mode 30 or 45 by `mode_of(i)`, with lognormal spread `sigma`.
std::vector<double> processes(std::mt19937_64& engine, std::size_t trials, double scale,
                              double sigma, const std::function<bool(std::size_t)>& slow_mode) {
  std::normal_distribution<double> noise(0.0, sigma);
  std::vector<double> values;
  for (std::size_t i = 0; i < trials; ++i) {
    values.push_back((slow_mode(i) ? 45.0 : 30.0) * scale * std::exp(noise(engine)));
  }
  return values;
}

TEST(ProcessModes, TwoSeparatedGroupsAreTwoModesOneNormalSampleIsOne) {
  std::mt19937_64 engine(39);
  const auto two = processes(engine, 20, 1.0, 0.03, [](std::size_t i) { return i % 3 == 0; });
  const auto split = detect_modes(two);
  ASSERT_EQ(split.centres.size(), 2U);
  EXPECT_NEAR(split.centres[0], 30.0, 1.5);
  EXPECT_NEAR(split.centres[1], 45.0, 2.5);
  for (std::size_t i = 0; i < two.size(); ++i) EXPECT_EQ(split.mode_of[i], i % 3 == 0 ? 1U : 0U);
  // One mode with 5% spread: a cut of a normal sample of 20 is rarely 1.2x apart at this spread,
  // and passes Ashman's D of 3 in about 40% of draws, of 5 (what parts less than 1.2x apart need)
  // in under 1%.
  int split_unimodal = 0;
  for (int draw = 0; draw < 1000; ++draw) {
    split_unimodal += detect_modes(processes(engine, 20, 1.0, 0.05, [](std::size_t) {
                        return false;
                      })).centres.size() > 1;
  }
  EXPECT_LE(split_unimodal, 15);
}

TEST(ProcessModes, TileModesCloserThanTwentyPercentAreModes) {
  // The H100 Triton GEMM whose processes draw one of two tile configurations: 23.75 us or
  // 25.79 us (1.086x), 1.0% / 1.4% spread within each (benchmarks/gpu-2026-12-06d/h39).
  std::mt19937_64 engine(3939);
  int found = 0;
  for (int draw = 0; draw < 200; ++draw) {
    std::vector<double> times;
    std::vector<bool> slow;
    for (int t = 0; t < 20; ++t) {
      slow.push_back(std::bernoulli_distribution(0.5)(engine));
      const double spread = slow.back() ? 0.014 : 0.010;
      times.push_back((slow.back() ? 25.79 : 23.75) *
                      std::exp(std::normal_distribution<double>(0.0, spread)(engine)));
    }
    const auto split = detect_modes(times);
    if (split.centres.size() != 2) continue;
    bool matches = true;
    for (std::size_t t = 0; t < times.size(); ++t) matches &= (split.mode_of[t] == 1U) == slow[t];
    found += matches;
  }
  // The modes' tails overlap now and then (a slow process below the fastest fast one).
  EXPECT_GE(found, 180) << "of 200 draws split exactly into the two tile modes";
}

TEST(ProcessModes, ASingleOutlierIsNoModeAndAShiftOfTheCellAloneIsNotMultiModal) {
  EXPECT_EQ(detect_modes({30, 30.5, 29.8, 31, 30.2, 60}).centres.size(), 1U)
      << "a mode needs two trials";
  // The cell 1.5x slower in every round: two groups, but each cell has one: a shift.
  const auto shift = test_multimodal({45, 45.5, 44.8, 46, 45.2}, {30, 30.5, 29.8, 31, 30.2});
  EXPECT_LE(shift.modes, 1U);
}

TEST(ProcessModes, ADriftCommonToBothCellsOfARoundIsNotMultiModal) {
  // Rounds alternate between 30 and 45 for both cells: every round has both in one mode.
  const std::vector<double> reference{30, 45, 30.5, 45.5, 29.8, 44.6};
  std::vector<double> cell;
  for (const double v : reference) cell.push_back(v * 1.1);
  EXPECT_LE(test_multimodal(cell, reference).modes, 1U);
}

TEST(ProcessModes, WithinModeShiftMatchesLeastSquaresWithAPerModeIntercept) {
  // Hand-solvable: mode 0 cell {31, 33} vs reference {30, 30}, mode 1 cell {45} vs {44, 46};
  // each of the 3 rounds has its two cells in different modes.
  const std::vector<double> cell{31, 45, 33};
  const std::vector<double> reference{44, 30, 46, 30};
  const auto test = test_multimodal(cell, reference);
  ASSERT_EQ(test.modes, 2U);
  EXPECT_EQ(test.cell_per_mode, (std::vector<std::size_t>{2, 1}));
  EXPECT_EQ(test.reference_per_mode, (std::vector<std::size_t>{2, 2}));
  // Per-mode mean differences of the logs, weighted by n_c n_r / (n_c + n_r): 1 and 2/3.
  const double d0 = (std::log(31.0) + std::log(33.0)) / 2 - std::log(30.0);
  const double d1 = std::log(45.0) - (std::log(44.0) + std::log(46.0)) / 2;
  EXPECT_NEAR(std::log(test.within_ratio), (1.0 * d0 + 2.0 / 3.0 * d1) / (5.0 / 3.0), 1e-12);
  EXPECT_DOUBLE_EQ(test.within_df, 7.0 - 2.0 - 1.0);
  EXPECT_LT(test.within_p_greater, 0.5);
  EXPECT_NEAR(test.within_p_greater + test.within_p_less, 1.0, 1e-12);
}

std::vector<aorta::detail::cell_plan> two_cells() {
  std::vector<aorta::detail::cell_plan> cells(2);
  cells[0].name = "base";
  cells[0].mitigation = "base";
  cells[1].name = "head";
  cells[1].mitigation = "head";
  for (auto& cell : cells) cell.diagnostic = "none";
  return cells;
}

aorta::detail::cell_trials cell_of(const std::vector<double>& times_us) {
  aorta::detail::cell_trials trials;
  for (const double t : times_us) {
    aorta::trial_record record;
    record.verdict = aorta::verdict::pass;
    record.metrics.kernels.push_back(aorta::kernel_row{"gemm", 10, t / 1000.0, "gbench"});
    trials.emplace_back(record);
  }
  return trials;
}

const aorta::detail::confound_row& time_row(const std::vector<aorta::detail::confound_row>& rows) {
  for (const auto& row : rows) {
    if (row.quantity == "time_ms(gemm)") return row;
  }
  ADD_FAILURE() << "no time_ms(gemm) row";
  return rows.front();
}

TEST(CellsConfoundModes, APlusTenPercentGemmInRandomModesIsSlowerAndSaysMultiModal) {
  std::mt19937_64 engine(3939);
  std::bernoulli_distribution coin(0.5);
  std::vector<bool> base_slow, head_slow;
  for (int i = 0; i < 10; ++i) {
    base_slow.push_back(coin(engine));
    head_slow.push_back(coin(engine));
  }
  const auto base = processes(engine, 10, 1.0, 0.03, [&](std::size_t i) { return base_slow[i]; });
  const auto head = processes(engine, 10, 1.1, 0.03, [&](std::size_t i) { return head_slow[i]; });
  const auto rows =
      aorta::detail::judge_cells(two_cells(), {cell_of(base), cell_of(head)}, 0, {1.05, 0.05});
  const auto& row = time_row(rows);
  ASSERT_TRUE(row.modes.has_value());
  EXPECT_EQ(row.modes->modes, 2U);
  EXPECT_EQ(row.verdict, confound_verdict::slower) << row.evidence;
  EXPECT_NEAR(*row.ratio, 1.1, 0.04);
  EXPECT_THAT(row.evidence, HasSubstr("multi-modal, 2 modes"));
  // The same trials with no change: SAME, still multi-modal.
  const auto again = processes(engine, 10, 1.0, 0.03, [&](std::size_t i) { return head_slow[i]; });
  const auto aa = time_row(
      aorta::detail::judge_cells(two_cells(), {cell_of(base), cell_of(again)}, 0, {1.05, 0.05}));
  EXPECT_EQ(aa.verdict, confound_verdict::same) << aa.evidence;
  EXPECT_TRUE(aa.modes.has_value());
}

TEST(CellsConfoundModes, TrialsMovedToTheSlowModeAreSlowerThoughNoModeMoved) {
  // Same locations, but 8 of 10 head processes in the slow mode against 2 of 10.
  std::mt19937_64 engine(7);
  const auto base = processes(engine, 10, 1.0, 0.02, [](std::size_t i) { return i < 2; });
  const auto head = processes(engine, 10, 1.0, 0.02, [](std::size_t i) { return i >= 2; });
  const auto row = time_row(
      aorta::detail::judge_cells(two_cells(), {cell_of(base), cell_of(head)}, 0, {1.05, 0.05}));
  ASSERT_TRUE(row.modes.has_value());
  EXPECT_LT(row.modes->frequency_p_greater, 0.025);
  EXPECT_NEAR(row.modes->within_ratio, 1.0, 0.03);
  EXPECT_EQ(row.verdict, confound_verdict::slower) << row.evidence;
}

}  // namespace

TEST(ProcessModes, ATimeThatCannotBeLoggedLeavesOneModeForTheSingleModeRule) {
  // Modes are cut on log times. A zero, negative or non-finite time (a round whose reference lost
  // its kernel) must not pass as a mode of its own: the caller's single-mode rule judges the row.
  const std::vector<double> tiles{23.7, 23.8, 23.6, 25.8, 25.9, 25.7, 23.75, 25.75};
  for (const double bad : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::infinity()}) {
    auto values = tiles;
    values.push_back(bad);
    EXPECT_EQ(detect_modes(values).centres.size(), 1U) << bad;
    EXPECT_LE(test_multimodal(tiles, values).modes, 1U) << bad;
    EXPECT_LE(test_multimodal(values, tiles).modes, 1U) << bad;
  }
}
