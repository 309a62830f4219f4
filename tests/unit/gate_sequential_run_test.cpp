// The sequential rule inside a gated run (gate_session): extra trials one at a time, only while a
// row is AMBIGUOUS, stopping when decided or at the budget; the budget below the planned trials is
// an error; fewer than 3 planned trials are topped up for timed rows.
#include "aorta/error.hpp"
#include "aorta/recipe.hpp"
#include "baseline/baseline_file.hpp"
#include "baseline/measured_series.hpp"
#include "reporting/console_reporter.hpp"
#include "sweep/gate_run.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <variant>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace aorta::detail;

aorta::trial_record trial_with_time(int index, double time_ms) {
  aorta::trial_record record;
  record.trial_index = index;
  record.verdict = aorta::verdict::pass;
  record.versions["gpu"] = "Test GPU";
  record.metrics.kernels.push_back({"k", 20, time_ms, "proton"});
  return record;
}

struct gated_run {
  aorta::exit_code code;
  nlohmann::json gate;
  int trials;
};

// A baseline of k at 1.0 ms (+-1%), then a gated run whose trials return `times` in order.
gated_run run(const std::string& name, const std::vector<double>& times, int planned,
              const std::string& gate) {
  const fs::path dir = fs::temp_directory_path() / ("aorta-gate-seq-" + name);
  fs::remove_all(dir);
  measured_test base;
  base.test = "t";
  base.fingerprint["gpu"] = "Test GPU";
  for (const double t : {1.0, 1.01, 0.99, 1.005, 0.995}) {
    trial_snapshot snapshot;
    snapshot.kernels["k"] = kernel_sample{20.0, t};
    base.trials.push_back(snapshot);
  }
  write_baseline(dir / "baselines" / "t.json", base);
  aorta::sweep_request request;
  request.output_dir = dir / "out" / "t";
  request.baseline_dir = dir / "baselines";
  request.gate = gate;
  std::vector<aorta::trial_record> trials;
  for (int i = 0; i < planned; ++i) {
    fs::create_directories(request.output_dir / ("trial_" + std::to_string(i)));
    trials.push_back(trial_with_time(i, times.at(static_cast<std::size_t>(i))));
  }
  std::ostringstream printed;
  aorta::reporting::console_reporter out(printed, printed);
  // The sweep's side of the protocol (sweep.cpp, run_gated_trials): run what the gate asks for.
  auto opened = gate_session::open(request, parse_gate_spec(gate), {}, trials, out);
  EXPECT_TRUE(std::holds_alternative<gate_session>(opened)) << printed.str();
  auto& session = std::get<gate_session>(opened);
  while (const int more = session.more_trials(trials, out)) {
    for (int i = 0; i < more; ++i) {
      const int index = static_cast<int>(trials.size());
      fs::create_directories(request.output_dir / ("trial_" + std::to_string(index)));
      trials.push_back(trial_with_time(index, times.at(static_cast<std::size_t>(index))));
    }
  }
  const auto code = session.close(trials, out);
  std::ifstream file(request.output_dir / "gate.json");
  return {code, nlohmann::json::parse(file), static_cast<int>(trials.size())};
}

TEST(GateSequentialRun, ClearRegressionNeedsNoExtraTrial) {
  const auto result = run("clear", {1.20, 1.21, 1.19, 1.20, 1.22}, 5, "time +5%, count exact");
  EXPECT_EQ(result.code, aorta::exit_code::failed);
  EXPECT_EQ(result.trials, 5);
  EXPECT_EQ(result.gate["extra_rounds"], 0);
}

TEST(GateSequentialRun, AmbiguousRowGetsOneTrialAtATimeUntilDecided) {
  // +6.5% and noisy at first (ambiguous), then tight +8% trials decide it.
  const std::vector<double> times{1.02, 1.12, 1.065, 0.99, 1.13, 1.08, 1.08, 1.08, 1.08, 1.08,
                                  1.08, 1.08, 1.08, 1.08, 1.08};
  const auto result = run("ambiguous", times, 5, "time +5%, count exact, max_trials 15");
  EXPECT_GT(result.gate["extra_rounds"].get<int>(), 0);
  EXPECT_EQ(result.trials, 5 + result.gate["extra_rounds"].get<int>());  // one trial per look
  EXPECT_LE(result.trials, 15);
  EXPECT_EQ(result.code, aorta::exit_code::failed);
}

// Still AMBIGUOUS after the budget's 9 trials: the gate's ambiguous policy decides (fail by
// default), the row named in gate.json whatever it decides.
TEST(GateSequentialRun, StillAmbiguousAtTheBudgetFollowsTheAmbiguousPolicy) {
  std::vector<double> times;
  for (int i = 0; i < 9; ++i) times.push_back(i % 2 == 0 ? 0.98 : 1.25);
  const struct {
    const char* item;
    aorta::exit_code code;
    const char* verdict;
  } cases[] = {{"", aorta::exit_code::failed, "fail"},
               {", ambiguous fail", aorta::exit_code::failed, "fail"},
               {", ambiguous skip", aorta::exit_code::skipped, "skip"},
               {", ambiguous pass", aorta::exit_code::ok, "warn"}};
  for (const auto& expected : cases) {
    const auto result = run("budget", times, 3,
                            std::string("time +5%, count exact, max_trials 9") + expected.item);
    EXPECT_EQ(result.code, expected.code) << expected.item;
    EXPECT_EQ(result.trials, 9) << expected.item;
    EXPECT_EQ(result.gate["verdict"], expected.verdict) << expected.item;
    EXPECT_EQ(result.gate["ambiguous_rows"], nlohmann::json::array({"t: time_ms(k)"}))
        << expected.item;
  }
}

TEST(GateSequentialRun, FewerThanThreePlannedTrialsAreToppedUp) {
  const auto result = run("topped", {1.0, 1.01, 0.99}, 1, "time +5%, count exact");
  EXPECT_EQ(result.trials, 3);
  EXPECT_EQ(result.code, aorta::exit_code::ok);
}

TEST(GateSequentialRun, BudgetBelowThePlannedTrialsIsAnError) {
  EXPECT_THROW((void)run("small", {1.0, 1.0, 1.0, 1.0, 1.0}, 5, "time +5%, max_trials 3"),
               aorta::usage_error);
}

}  // namespace
