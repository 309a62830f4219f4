// Issue 39, multi-modal timing in the regression gate: a test whose processes settle in one of two
// modes at random (30 us or 45 us, even odds, 3% / 6% noise within the mode, as the cells replay
// draws them), its baseline against new trials, fixed seeds.
//   - Through the aorta binary: the baseline written as a baseline file, the new trials as
//     result.json files, judged by `aorta compare --json` as a user's run is; 20 unchanged gates
//     and 20 with the kernel 10% slower, 15 trials a side; 20 more +10% gates at 10.
//   - Through judge_gate (what compare and the gated run share), 1000 gates a scenario, for the
//     operating curve in docs/regression-gate.md ("Multi-modal timing (gate)").
// The goals are the issue's: at most 1 false SLOWER in 20, at least 19 of 20 caught; the gate
// meets them at 15 trials a side (89% caught at 10).
// $AORTA_REPLAY_BINARY runs the CLI part with another build on the same seeds (the figures of the
// rule before modes in docs/regression-gate.md were measured so).
#include "aorta/trial_record.hpp"
#include "baseline/baseline_file.hpp"
#include "gate_replay_support.hpp"
#include "process_mode_models.hpp"
#include "process/process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using namespace aorta;

constexpr const char* kernel = "BM_gemm";

using test::cuda_events;
using test::process_mode_model;
using test::process_time_ms;
using test::triton_tiles;

detail::measured_test modal_test(std::mt19937_64& engine, std::size_t trials, double shift,
                                 const process_mode_model& model = cuda_events) {
  detail::measured_test test;
  test.test = "modes";
  test.fingerprint["gpu"] = "Replay GPU";
  for (std::size_t t = 0; t < trials; ++t) {
    detail::trial_snapshot snapshot;
    snapshot.kernels.emplace(kernel,
                             detail::kernel_sample{20.0, process_time_ms(engine, shift, model)});
    test.trials.push_back(std::move(snapshot));
  }
  return test;
}

void write_new_trials(const fs::path& dir, const detail::measured_test& fresh) {
  for (std::size_t t = 0; t < fresh.trials.size(); ++t) {
    trial_record record;
    record.trial_index = static_cast<int>(t);
    record.verdict = verdict::pass;
    record.versions["gpu"] = "Replay GPU";
    record.metrics.kernels.push_back(
        {kernel, 20, fresh.trials[t].kernels.at(kernel).time_ms, "gbench"});
    const fs::path trial = dir / ("trial_" + std::to_string(t));
    fs::create_directories(trial);
    write_result_json(trial / "result.json", record);
  }
}

struct tally {
  int gates = 0;
  int slower = 0;
  int ambiguous = 0;  // a failed gate under the default ambiguous policy (fail)
  int multimodal = 0;
};

void count_row(const nlohmann::json& row, tally& counted) {
  if (row.at("quantity") != fmt::format("time_ms({})", kernel)) return;
  counted.slower += row.at("verdict") == "SLOWER";
  counted.multimodal += row.contains("modes");
  EXPECT_EQ(row.contains("modes"),
            row.at("evidence").get<std::string>().starts_with("multi-modal, "))
      << "the evidence says multi-modal exactly when the row carries its modes";
}

tally replay_cli(const char* name, int gates, std::size_t trials, double shift, std::uint64_t seed) {
  const char* other = std::getenv("AORTA_REPLAY_BINARY");
  const std::string binary = other != nullptr ? other : AORTA_BINARY;
  std::mt19937_64 engine(seed);
  const fs::path dir = fs::temp_directory_path() / "aorta-gate-modes-replay";
  tally counted;
  for (int g = 0; g < gates; ++g) {
    fs::remove_all(dir);
    detail::write_baseline(dir / "baselines" / "modes.json", modal_test(engine, trials, 0.0));
    write_new_trials(dir / "new" / "modes", modal_test(engine, trials, shift));
    process_spec spec;
    spec.argv = {binary, "compare", (dir / "baselines").string(), (dir / "new" / "modes").string(),
                 "--json"};
    spec.environment = current_environment();
    spec.stdout_log = dir / "compare.json";
    spec.echo = false;
    const auto result = run_process(spec);
    EXPECT_TRUE(result.exit_status && (*result.exit_status == 0 || *result.exit_status == 1))
        << result.describe();
    std::ifstream in(dir / "compare.json");
    const auto parsed = nlohmann::json::parse(in);
    for (const auto& row : parsed.at("rows")) count_row(row, counted);
    ++counted.gates;
  }
  fs::remove_all(dir);
  fmt::print("aorta compare, {}: {} gates, {} SLOWER, {} multi-modal\n", name, counted.gates,
             counted.slower, counted.multimodal);
  return counted;
}

// At 10 trials a side the gate catches +10% in 89% of gates (the noise floor and the margin hold
// its test to more than the cells' threshold does), so the binary is held to the goal at 15.
TEST(GateModesReplay, CompareHoldsFalseAlarmsAndCatchesTenPercentThroughModes) {
  const auto unchanged = replay_cli("unchanged, 15 trials a side", 20, 15, 0.0, 3961);
  EXPECT_LE(unchanged.slower, 1);
  EXPECT_GE(unchanged.multimodal, 19) << "random modes per process must be seen as modes";
  const auto slow = replay_cli("+10%, 15 trials a side", 20, 15, 0.10, 3962);
  EXPECT_GE(slow.slower, 19);
  const auto at_ten = replay_cli("+10%, 10 trials a side", 20, 10, 0.10, 3963);
  EXPECT_GE(at_ten.slower, 16);  // 89% of 1000 through judge_gate, less two standard errors of 20
}

tally replay_judge(int gates, std::size_t trials, double shift, std::uint64_t seed,
                   const process_mode_model& model = cuda_events) {
  std::mt19937_64 engine(seed);
  const auto policy = replay::compare_policy();
  tally counted;
  for (int g = 0; g < gates; ++g) {
    const auto base = modal_test(engine, trials, 0.0, model);
    const auto fresh = modal_test(engine, trials, shift, model);
    const auto judged = detail::judge_gate(base, fresh, policy);
    ++counted.gates;
    for (const auto& row : judged.rows) {
      if (row.label != fmt::format("time_ms({})", kernel)) continue;
      counted.slower += row.verdict == detail::gate_verdict::worse;
      counted.ambiguous += row.verdict == detail::gate_verdict::ambiguous;
      counted.multimodal += row.modes.has_value();
    }
  }
  fmt::print("judge_gate, {}{} trials a side, {:+.0f}%: {} gates, {} SLOWER, {} AMBIGUOUS, {} "
             "multi-modal\n",
             model.label, trials, shift * 100, counted.gates,
             counted.slower, counted.ambiguous, counted.multimodal);
  return counted;
}

TEST(GateModesReplay, TheJudgeMeetsBothGoalsAtScaleAndPrintsTheOperatingCurve) {
  constexpr int gates = 1000;
  EXPECT_LE(replay_judge(gates, 10, 0.0, 3971).slower, gates / 100);
  EXPECT_GE(replay_judge(gates, 10, 0.10, 3972).slower, gates * 85 / 100);
  EXPECT_LE(replay_judge(gates, 15, 0.0, 3973).slower, gates / 100);
  EXPECT_GE(replay_judge(gates, 15, 0.10, 3974).slower, gates * 95 / 100);
  for (const std::size_t trials : {5u, 8u, 15u, 20u}) {
    for (const double shift : {0.0, 0.05, 0.10, 0.20}) replay_judge(gates, trials, shift, 3980);
  }
  for (const double shift : {0.05, 0.20}) replay_judge(gates, 10, shift, 3980);
  // Tile modes 1.086x apart: an unchanged gate's mix of modes is no regression; +10% is caught.
  const auto tiles_aa = replay_judge(gates, 10, 0.0, 3975, triton_tiles);
  EXPECT_LE(tiles_aa.slower + tiles_aa.ambiguous, gates / 100);
  EXPECT_GE(tiles_aa.multimodal, gates * 90 / 100);
  EXPECT_GE(replay_judge(gates, 10, 0.10, 3976, triton_tiles).slower, gates * 95 / 100);
  for (const std::size_t trials : {5u, 15u}) {
    for (const double shift : {0.0, 0.10}) replay_judge(gates, trials, shift, 3981, triton_tiles);
  }
}

}  // namespace
