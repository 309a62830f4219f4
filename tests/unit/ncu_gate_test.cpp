// The ncu counter gate end to end on real H200 captures (tests/fixtures/h200/ncu_gate/README.md):
// each trial's ncu.csv is read as a trial of aorta reads it, its metrics written as result.json,
// then the aorta binary records the baseline (`aorta baseline record`) and judges new trials
// (`aorta compare --gate "ncu exact"`): unchanged work passes, +10% work (11 launches of
// sgemm_tiled instead of 10) fails on the instruction count.
#include "aorta/error.hpp"
#include "aorta/metrics.hpp"
#include "aorta/trial_record.hpp"
#include "baseline/gate_judge.hpp"
#include "baseline/default_gate.hpp"
#include "captures/ncu_reader.hpp"
#include "process/process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

const fs::path captured = fs::path(AORTA_FIXTURES_DIR) / "h200" / "ncu_gate";

// <out>/<test>/trial_<i>/result.json for every <side>/trial_<i>/ncu.csv, as a sweep writes them.
fs::path results_of(const std::string& side, const fs::path& out) {
  const fs::path test = out / side / "gemm";
  fs::remove_all(out / side);
  int index = 0;
  for (const auto& entry : fs::directory_iterator(captured / side)) {
    aorta::trial_record record;
    record.trial_index = index;
    record.verdict = aorta::verdict::pass;
    record.versions["gpu"] = "NVIDIA H200";
    record.metrics = aorta::compute_metrics(aorta::read_ncu_capture(entry.path() / "ncu.csv"));
    const fs::path dir = test / ("trial_" + std::to_string(index++));
    fs::create_directories(dir);
    aorta::write_result_json(dir / "result.json", record);
  }
  return test;
}

struct outcome {
  int exit_status = -1;
  std::string output;
};

outcome run_aorta(const std::vector<std::string>& args, const fs::path& log) {
  aorta::process_spec spec;
  spec.argv = {AORTA_BINARY};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.environment = aorta::current_environment();
  spec.stdout_log = log;
  spec.echo = false;
  const auto result = aorta::run_process(spec);
  std::ifstream in(log);
  outcome got{result.exit_status.value_or(-1), std::string(std::istreambuf_iterator<char>(in), {})};
  return got;
}

class NcuGate : public ::testing::Test {
protected:
  void SetUp() override {
    // One directory per test: ctest runs them in parallel.
    out = fs::temp_directory_path() /
          (std::string("aorta-ncu-gate-") +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(out);
    const fs::path base = results_of("baseline", out);
    const auto recorded =
        run_aorta({"baseline", "record", base.string(), "--into", (out / "baselines").string()},
                  out / "record.log");
    ASSERT_EQ(recorded.exit_status, 0) << recorded.output;
  }
  outcome compare(const std::string& side, const std::string& gate) {
    return run_aorta(
        {"compare", (out / "baselines").string(), results_of(side, out).string(), "--gate", gate},
        out / (side + ".log"));
  }
  fs::path out;
};

TEST_F(NcuGate, BaselineKeepsTheCounters) {
  std::ifstream in(out / "baselines" / "gemm.json");
  const auto json = nlohmann::json::parse(in);
  const std::string text = json.dump();
  EXPECT_NE(text.find("ncu_counter.smsp__inst_executed.sum/sgemm_tiled"), std::string::npos);
}

TEST_F(NcuGate, UnchangedWorkPasses) {
  const auto same = compare("same", "ncu exact");
  EXPECT_EQ(same.exit_status, 0) << same.output;
}

TEST_F(NcuGate, TenPercentMoreWorkFailsOnInstructions) {
  const auto more = compare("plus10", "ncu exact");
  EXPECT_NE(more.exit_status, 0) << more.output;
  EXPECT_NE(more.output.find("MORE"), std::string::npos) << more.output;
  EXPECT_NE(more.output.find("smsp__inst_executed.sum"), std::string::npos) << more.output;
}

// The gate line alone, on samples made up here: instruction counts of 10 vs 11 launches.
aorta::detail::measured_test side(const std::string& test, std::vector<double> instructions) {
  aorta::detail::measured_test out;
  out.test = test;
  for (const double value : instructions) {
    aorta::detail::trial_snapshot trial;
    trial.metrics[aorta::ncu_counter_key("smsp__inst_executed.sum", "gemm")] = value;
    out.trials.push_back(trial);
  }
  return out;
}

TEST(NcuGateLine, ExactAndTolerance) {
  using aorta::detail::parse_gate_spec;
  EXPECT_DOUBLE_EQ(*parse_gate_spec("ncu exact").ncu, 0.0);
  EXPECT_DOUBLE_EQ(*parse_gate_spec("time +5%, ncu +1%").ncu, 0.01);
  EXPECT_FALSE(parse_gate_spec("time +5%").ncu);
  EXPECT_THROW((void)parse_gate_spec("ncu 1%"), aorta::usage_error);
}

TEST(NcuGateLine, RowsAreExactNamedAndFailOnMoreWork) {
  using namespace aorta::detail;
  const auto base = side("t", {1.0e6, 1.0e6, 1.0e6});
  gate_policy policy;
  policy.gate = parse_gate_spec("ncu exact");
  const auto same = judge_gate(base, side("t", {1.0e6, 1.0e6, 1.0e6}), policy);
  ASSERT_EQ(same.rows.size(), 1u);
  EXPECT_EQ(same.rows[0].label, "ncu(smsp__inst_executed.sum, gemm)");
  EXPECT_TRUE(same.rows[0].exact);
  EXPECT_FALSE(same.failed);
  const auto more = judge_gate(base, side("t", {1.1e6, 1.1e6, 1.1e6}), policy);
  EXPECT_TRUE(more.failed);
  EXPECT_EQ(verdict_label(more.rows[0]), "MORE");
  // +1% holds a 0.5% move and still fails the +10%.
  policy.gate = parse_gate_spec("ncu +1%");
  EXPECT_FALSE(judge_gate(base, side("t", {1.005e6, 1.005e6, 1.005e6}), policy).failed);
  EXPECT_TRUE(judge_gate(base, side("t", {1.1e6, 1.1e6, 1.1e6}), policy).failed);
  // Not in the gate line: not gated.
  policy.gate = parse_gate_spec("time +5%");
  EXPECT_TRUE(judge_gate(base, side("t", {1.1e6, 1.1e6, 1.1e6}), policy).rows.empty());
}

}  // namespace
