// Issue 39, multi-modal timing: the cells (confound) judge on trials whose processes settle in one
// of two modes at random, replayed with fixed seeds.
//   - Through the aorta binary: `aorta sweep run` of a two-cell recipe whose payload
//     (modes_payload.cpp) is a simulated GEMM in the 30 us or the 45 us mode, read by the gbench
//     collector with its warm-up rule, judged as a user's run is; 20 A/A runs and 20 runs with the
//     head 10% slower, 10 trials a cell.
//   - Through judge_cells, the function the sweep calls, at 1000 runs a scenario, for the operating
//     curve in docs/regression-gate.md ("Multi-modal timing").
// Two mode models (process_mode_models.hpp): the H100 CUDA-event GEMM and the tile-draw GEMM.
// The goals are the issue's: at most 1 false SLOWER in 20 A/A runs, at least 19 of 20 caught.
#include "aorta/launch_plan.hpp"
#include "cells/confound.hpp"
#include "cells/signed_rank.hpp"
#include "process/process.hpp"
#include "recipe/cell_plan.hpp"
#include "process_mode_models.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using aorta::detail::confound_verdict;

struct tally {
  int runs = 0;
  int slower = 0;
  int multimodal = 0;     // the row said the trials are multi-modal
  int paired_slower = 0;  // what the signed-rank rule alone would have said (judge_cells only)
};

// The rule before modes: median per-round ratio above the threshold and signed-rank p < alpha.
bool signed_rank_slower(const aorta::detail::confound_row& row) {
  std::vector<double> log_ratios;
  std::vector<double> ratios;
  for (std::size_t i = 0; i < row.cell_values.size(); ++i) {
    log_ratios.push_back(std::log(row.cell_values[i] / row.reference_values[i]));
    ratios.push_back(row.cell_values[i] / row.reference_values[i]);
  }
  std::nth_element(ratios.begin(), ratios.begin() + static_cast<std::ptrdiff_t>(ratios.size() / 2),
                   ratios.end());
  const double upper = ratios[ratios.size() / 2];
  std::nth_element(ratios.begin(),
                   ratios.begin() + static_cast<std::ptrdiff_t>((ratios.size() - 1) / 2),
                   ratios.end());
  const double median = (upper + ratios[(ratios.size() - 1) / 2]) / 2.0;
  return median > 1.05 && aorta::detail::wilcoxon_signed_rank(log_ratios).p_greater < 0.05;
}

void write_recipe(const fs::path& file, int trials, double shift) {
  std::ofstream out(file);
  out << "schema_version: 1\nmode: probe\nticket: MODES-REPLAY\n"
      << "trials: " << trials << "\ntimeout_per_trial: 60\ncollect: [gbench]\n"
      << "mitigations:\n  base: {env: {MODES_SHIFT: \"0\"}}\n"
      << "  head: {env: {MODES_SHIFT: \"" << shift << "\"}}\n"
      << "mitigation_axis: [base, head]\nconfound: {baseline_cell: base, threshold: 1.05}\n";
}

using aorta::test::cuda_events;
using aorta::test::process_mode_model;
using aorta::test::process_time_ms;
using aorta::test::triton_tiles;

tally replay_cli(const char* name, int runs, int trials, double shift, int seed,
                 const process_mode_model& model = cuda_events) {
  // Its own directory: ctest runs the tests of this file side by side.
  const fs::path dir =
      fs::temp_directory_path() / fmt::format("aorta-cells-modes-replay-{}-{}", seed, ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_recipe(dir / "recipe.yaml", trials, shift);
  tally counted;
  for (int run = 0; run < runs; ++run) {
    const fs::path out = dir / fmt::format("run_{}", run);
    aorta::process_spec spec;
    spec.argv = {AORTA_BINARY,
                 "sweep",
                 "run",
                 "--recipe",
                 (dir / "recipe.yaml").string(),
                 "--output",
                 out.string(),
                 "--seed",
                 std::to_string(seed * 1000 + run),
                 "--",
                 MODES_PAYLOAD};
    spec.environment = aorta::current_environment();
    spec.environment["MODES_SEED"] = std::to_string(seed * 1000 + run);
    spec.environment["MODES_MODEL"] = model.payload_model;
    spec.stdout_log = dir / "sweep.log";
    spec.echo = false;
    const auto result = aorta::run_process(spec);
    EXPECT_TRUE(result.exit_status && *result.exit_status == 0) << result.describe();
    std::ifstream in(out / "matrix.json");
    const auto matrix = nlohmann::json::parse(in);
    ++counted.runs;
    for (const auto& row : matrix.at("confound").at("rows")) {
      if (row.at("quantity") != "time_ms(BM_gemm)") continue;
      counted.slower += row.at("verdict") == "SLOWER";
      counted.multimodal += !row.at("modes").is_null();
    }
    fs::remove_all(out);
  }
  fs::remove_all(dir);
  fmt::print("aorta sweep run, {}: {} runs, {} SLOWER, {} multi-modal\n", name, counted.runs,
             counted.slower, counted.multimodal);
  return counted;
}

TEST(CellsModesReplay, SweepRunHoldsFalseAlarmsAndCatchesTenPercentThroughModes) {
  const auto aa = replay_cli("A/A, 10 trials a cell", 20, 10, 0.0, 3931);
  EXPECT_LE(aa.slower, 1);
  EXPECT_GE(aa.multimodal, 18) << "random modes per process must be seen as modes";
  const auto slow = replay_cli("head +10%, 10 trials a cell", 20, 10, 0.10, 3932);
  EXPECT_GE(slow.slower, 19);
}

// Modes 1.086x apart: the median of a cell's rounds jumps by the gap when its mix crosses half, so
// the signed-rank rule alone called 2 of 20 real A/A runs SLOWER on the H100
// (benchmarks/gpu-2026-12-06d/h39/README.md).
TEST(CellsModesReplay, SweepRunHoldsFalseAlarmsWhenTheModesAreCloserThanTheChange) {
  const auto aa = replay_cli("tile modes, A/A, 10 trials a cell", 20, 10, 0.0, 3933, triton_tiles);
  EXPECT_LE(aa.slower, 1);
  EXPECT_GE(aa.multimodal, 18) << "modes 1.086x apart with 1-1.5% spread are modes";
  const auto slow =
      replay_cli("tile modes, head +10%, 10 trials a cell", 20, 10, 0.10, 3934, triton_tiles);
  EXPECT_GE(slow.slower, 19);
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

aorta::detail::cell_trials simulated_cell(std::mt19937_64& engine, int trials, double shift,
                                          const process_mode_model& model) {
  aorta::detail::cell_trials cell;
  for (int t = 0; t < trials; ++t) {
    aorta::trial_record record;
    record.verdict = aorta::verdict::pass;
    record.metrics.kernels.push_back(
        {"BM_gemm", 20, process_time_ms(engine, shift, model), "gbench"});
    cell.emplace_back(record);
  }
  return cell;
}

tally replay_judge(int runs, int trials, double shift, std::uint64_t seed,
                   const process_mode_model& model = cuda_events) {
  std::mt19937_64 engine(seed);
  tally counted;
  for (int run = 0; run < runs; ++run) {
    auto base = simulated_cell(engine, trials, 0.0, model);
    auto head = simulated_cell(engine, trials, shift, model);
    const auto rows = aorta::detail::judge_cells(two_cells(), {base, head}, 0, {1.05, 0.05});
    ++counted.runs;
    for (const auto& row : rows) {
      if (row.quantity != "time_ms(BM_gemm)") continue;
      counted.slower += row.verdict == confound_verdict::slower;
      counted.multimodal += row.modes.has_value();
      counted.paired_slower += signed_rank_slower(row);
    }
  }
  fmt::print("judge_cells, {}{} trials a cell, head {:+.0f}%: {} runs, {} SLOWER, {} multi-modal "
             "(signed-rank alone: {} SLOWER)\n",
             model.label, trials, shift * 100, counted.runs,
             counted.slower, counted.multimodal, counted.paired_slower);
  return counted;
}

TEST(CellsModesReplay, TheJudgeMeetsBothGoalsAtScaleAndPrintsTheOperatingCurve) {
  constexpr int runs = 1000;
  EXPECT_LE(replay_judge(runs, 10, 0.0, 3941).slower, runs * 5 / 100);
  EXPECT_GE(replay_judge(runs, 10, 0.10, 3942).slower, runs * 95 / 100);
  for (const int trials : {5, 8}) {
    for (const double shift : {0.0, 0.05, 0.10, 0.20}) replay_judge(runs, trials, shift, 3950);
  }
  for (const double shift : {0.05, 0.20}) replay_judge(runs, 10, shift, 3950);
  const auto tiles_aa = replay_judge(runs, 10, 0.0, 3943, triton_tiles);
  EXPECT_LE(tiles_aa.slower, runs * 5 / 100);
  EXPECT_LE(tiles_aa.slower, tiles_aa.paired_slower) << "judging the modes adds no false alarm";
  EXPECT_GE(replay_judge(runs, 10, 0.10, 3944, triton_tiles).slower, runs * 95 / 100);
  for (const int trials : {5, 8}) {
    for (const double shift : {0.0, 0.10}) replay_judge(runs, trials, shift, 3951, triton_tiles);
  }
}

}  // namespace
