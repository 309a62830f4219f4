// The gate's PC-sample rows (issue 45, item 3) on the real H100 capture of
// tests/fixtures/h100-pcsampling/matmul-example-env.hatchet: each trial's capture is read as aorta
// reads it and its metrics written as result.json; the aorta binary records the baseline and
// judges new trials (`aorta compare --gate "samples +5%"`). Unchanged samples pass; samples moved
// from one line to another, or from issuing to a stall reason, are MOVED with the lines or the
// reasons named. The moves are made here on the real capture, with the arithmetic in comments.
#include "aorta/metrics.hpp"
#include "aorta/trial_record.hpp"
#include "baseline/gate_judge.hpp"
#include "baseline/default_gate.hpp"
#include "baseline/pc_sample_gate.hpp"
#include "captures/hatchet_reader.hpp"
#include "metrics/pc_sample_metrics.hpp"
#include "process/process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

namespace {

namespace fs = std::filesystem;
using aorta::capture;
using aorta::pc_sample_line;

const fs::path matmul =
    fs::path(AORTA_FIXTURES_DIR) / "h100-pcsampling" / "matmul-example-env.hatchet";

pc_sample_line& line_at(capture& source, std::string_view location) {
  for (auto& line : source.pc_samples)
    if (line.location == location) return line;
  throw std::runtime_error("no line " + std::string(location));
}

void add_stall(pc_sample_line& line, const std::string& reason, std::uint64_t samples) {
  line.stalled += samples;
  for (auto& stall : line.stalls)
    if (stall.reason == reason) {
      stall.samples += samples;
      return;
    }
  line.stalls.push_back({reason, samples});
}

// 20,000 of line 63's 49,779 samples land on line 60 instead: 11.1 points of 179,777 move.
void hotspot_moved(capture& source) {
  line_at(source, "matmul.py:63").samples -= 20000;
  line_at(source, "matmul.py:63").stalled -= 5000;
  for (auto& stall : line_at(source, "matmul.py:63").stalls)
    if (stall.reason == "dispatch_stall") stall.samples -= 5000;
  line_at(source, "matmul.py:60").samples += 20000;
  add_stall(line_at(source, "matmul.py:60"), "dispatch_stall", 5000);
}

// Line 63 issues 12,000 fewer times and waits on long_scoreboard instead (its 16,529 unstalled
// samples become 4,529): the lines keep their samples, and 12,000 / 179,777 = 6.7 points of the
// kernel's samples move from not stalled to long_scoreboard (16.3% -> 23.0%).
void stalls_moved(capture& source) {
  add_stall(line_at(source, "matmul.py:63"), "long_scoreboard", 12000);
}

// <out>/<side>/matmul/trial_<i>/result.json, three trials of the capture as `change` leaves it.
fs::path results_of(const fs::path& out, const std::string& side,
                    const std::function<void(capture&)>& change) {
  const fs::path test = out / side / "matmul";
  fs::remove_all(out / side);
  for (int index = 0; index < 3; ++index) {
    capture source = aorta::read_hatchet_capture(matmul);
    if (change) change(source);
    aorta::trial_record record;
    record.trial_index = index;
    record.verdict = aorta::verdict::pass;
    record.versions["gpu"] = "NVIDIA H100 80GB HBM3";
    record.metrics = aorta::compute_metrics(source);
    const fs::path dir = test / ("trial_" + std::to_string(index));
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
  return {result.exit_status.value_or(-1), std::string(std::istreambuf_iterator<char>(in), {})};
}

class PcSampleGate : public ::testing::Test {
protected:
  void SetUp() override {
    out = fs::temp_directory_path() /
          (std::string("aorta-pc-gate-") +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(out);
    const auto recorded = run_aorta({"baseline", "record", results_of(out, "base", {}).string(),
                                     "--into", (out / "baselines").string()},
                                    out / "record.log");
    ASSERT_EQ(recorded.exit_status, 0) << recorded.output;
  }
  void TearDown() override { fs::remove_all(out); }
  outcome compare(const std::string& side, const std::function<void(capture&)>& change) {
    return run_aorta({"compare", (out / "baselines").string(),
                      results_of(out, side, change).string(), "--gate", "samples +5%"},
                     out / (side + ".log"));
  }
  fs::path out;
};

TEST_F(PcSampleGate, BaselineKeepsTheLinesAndReasons) {
  std::ifstream in(out / "baselines" / "matmul.json");
  const std::string text = nlohmann::json::parse(in).dump();
  for (const char* key : {"proton_pc_kernel_samples.matmul_kernel",
                          "proton_pc_line_samples.matmul_kernel/matmul.py:63",
                          "proton_pc_stalls.matmul_kernel/long_scoreboard"})
    EXPECT_NE(text.find(key), std::string::npos) << key;
}

TEST_F(PcSampleGate, UnchangedSamplesPass) {
  const auto same = compare("same", {});
  EXPECT_EQ(same.exit_status, 0) << same.output;
  EXPECT_NE(same.output.find("samples(matmul_kernel) by line"), std::string::npos) << same.output;
  EXPECT_EQ(same.output.find("MOVED"), std::string::npos) << same.output;
}

TEST_F(PcSampleGate, AHotspotThatMovedIsAVerdictNamingTheLines) {
  const auto moved = compare("hotspot", hotspot_moved);
  EXPECT_EQ(moved.exit_status, 1) << moved.output;
  EXPECT_NE(moved.output.find("MOVED"), std::string::npos) << moved.output;
  // 48,527 / 179,777 = 27.0% -> 68,527 / 179,777 = 38.1%; 49,779 -> 29,779: 27.7% -> 16.6%.
  EXPECT_NE(moved.output.find("matmul.py:60 27.0% -> 38.1%"), std::string::npos) << moved.output;
  EXPECT_NE(moved.output.find("matmul.py:63 27.7% -> 16.6%"), std::string::npos) << moved.output;
}

TEST_F(PcSampleGate, AStallReasonThatMovedIsNamed) {
  const auto moved = compare("stalls", stalls_moved);
  EXPECT_EQ(moved.exit_status, 1) << moved.output;
  // long_scoreboard: 21,255 + 2,128 + 5,641 + 288 = 29,312 of 179,777 = 16.3%; +12,000 = 23.0%.
  EXPECT_NE(moved.output.find("long_scoreboard stalls 16.3% -> 23.0%"), std::string::npos)
      << moved.output;
  EXPECT_NE(moved.output.find("(not stalled) 38.4% -> 31.7%"), std::string::npos) << moved.output;
}

// A fresh trial whose capture came back without PC samples (sampling off, or a Proton build
// without it) measured nothing the baseline's sample rows can be judged on: both rows are GONE,
// which fails, never a pass.
TEST_F(PcSampleGate, AFreshCaptureWithoutSamplesIsNeverAPass) {
  const auto lost = compare("nosamples", [](capture& source) { source.pc_samples.clear(); });
  EXPECT_EQ(lost.exit_status, 1) << lost.output;
  EXPECT_NE(lost.output.find("samples(matmul_kernel) by line"), std::string::npos) << lost.output;
  EXPECT_NE(lost.output.find("stalls(matmul_kernel) by reason"), std::string::npos) << lost.output;
  EXPECT_NE(lost.output.find("GONE (fail)"), std::string::npos) << lost.output;
  EXPECT_EQ(lost.output.find("SAME"), std::string::npos) << lost.output;
}

// The tables below are counts, not a capture: the test and the verdict rule alone.
TEST(PcSampleGateRule, ChiSquareSurvivalHasItsClosedForms) {
  using aorta::detail::chi_square_survival;
  for (const double x : {0.1, 1.0, 3.84, 10.0, 50.0, 700.0}) {
    EXPECT_NEAR(chi_square_survival(x, 2), std::exp(-x / 2), 1e-14 * std::max(1.0, x)) << x;
    EXPECT_NEAR(chi_square_survival(x, 1), std::erfc(std::sqrt(x / 2)),
                1e-12 * std::erfc(std::sqrt(x / 2)) + 1e-300)
        << x;
  }
  EXPECT_EQ(chi_square_survival(0.0, 3), 1.0);
}

aorta::detail::measured_test sampled(const std::vector<std::pair<double, double>>& trials) {
  aorta::detail::measured_test out;
  out.test = "t";
  for (const auto& [hot, cold] : trials) {
    aorta::detail::trial_snapshot trial;
    trial.metrics["proton_pc_kernel_samples.k"] = hot + cold;
    trial.metrics["proton_pc_line_samples.k/a.py:1"] = hot;
    trial.metrics["proton_pc_line_samples.k/a.py:2"] = cold;
    trial.metrics["proton_time_ms"] = 1.0;
    out.trials.push_back(trial);
  }
  return out;
}

// A 10-point move on 60 samples is within the sampling noise: AMBIGUOUS (more trials), not
// MOVED; the same move on 60,000 samples is MOVED. A 2-point move is SAME at any count.
TEST(PcSampleGateRule, TheSamplingNoiseDecides) {
  using namespace aorta::detail;
  gate_policy policy;
  policy.gate = parse_gate_spec("samples +5%");
  const auto few = judge_gate(sampled({{30, 30}}), sampled({{36, 24}}), policy);
  ASSERT_EQ(few.rows.size(), 1u) << "one row of lines; no stall reasons recorded";
  EXPECT_EQ(few.rows[0].verdict, gate_verdict::ambiguous) << few.rows[0].evidence;
  const auto many = judge_gate(sampled({{30000, 30000}}), sampled({{36000, 24000}}), policy);
  EXPECT_EQ(verdict_label(many.rows[0]), "MOVED") << many.rows[0].evidence;
  EXPECT_NE(many.rows[0].evidence.find("a.py:1 50.0% -> 60.0%"), std::string::npos)
      << many.rows[0].evidence;
  const auto small = judge_gate(sampled({{30000, 30000}}), sampled({{31200, 28800}}), policy);
  EXPECT_EQ(small.rows[0].verdict, gate_verdict::same) << small.rows[0].evidence;
}

// Rows of a kernel sampled on one side only are NEW / GONE; without `samples` in the gate line
// there are no such rows.
TEST(PcSampleGateRule, OneSidedAndOff) {
  using namespace aorta::detail;
  gate_policy policy;
  policy.gate = parse_gate_spec("samples +5%");
  aorta::detail::measured_test none = sampled({{1, 1}});
  none.trials[0].metrics.clear();
  const auto appeared = judge_gate(none, sampled({{10, 10}}), policy);
  ASSERT_EQ(appeared.rows.size(), 1u);
  EXPECT_EQ(appeared.rows[0].verdict, gate_verdict::appeared);
  policy.gate = parse_gate_spec("time +5%");
  EXPECT_TRUE(judge_gate(sampled({{30, 30}}), sampled({{60, 0}}), policy).rows.empty());
  EXPECT_THROW((void)parse_gate_spec("samples exact"), aorta::usage_error);
  EXPECT_THROW((void)parse_gate_spec("samples +100%"), aorta::usage_error);
}

// Five trials of one kernel: `ms` per trial (times 1, 1.01, ... to give the t test its noise),
// 20 launches, 1,000 samples of which `long_scoreboard` stalled.
aorta::detail::measured_test timed(double ms, double long_scoreboard, double launches = 20) {
  aorta::detail::measured_test out;
  out.test = "t";
  for (int i = 0; i < 5; ++i) {
    aorta::detail::trial_snapshot trial;
    trial.kernels["k"] = {launches, ms * (1.0 + 0.01 * i)};
    trial.metrics["proton_pc_kernel_samples.k"] = 1000;
    trial.metrics["proton_pc_line_samples.k/a.py:1"] = 1000;
    trial.metrics["proton_pc_stalls.k/long_scoreboard"] = long_scoreboard;
    trial.metrics["proton_pc_stalls.k/wait"] = 100;
    out.trials.push_back(trial);
  }
  return out;
}

// Item 4: a kernel 30% slower on the same launches whose long_scoreboard stalls went from 120 to
// 310 of its 1,000 samples says so in its time row.
TEST(PcSampleGateRule, ASlowerKernelNamesTheStallReasonsThatMoved) {
  using namespace aorta::detail;
  gate_policy policy;
  policy.gate = parse_gate_spec(default_gate_text);
  const auto judged = judge_gate(timed(1.0, 120), timed(1.3, 310), policy);
  const gate_row* time_row = nullptr;
  for (const auto& row : judged.rows)
    if (row.label == "time_ms(k)") time_row = &row;
  ASSERT_NE(time_row, nullptr);
  EXPECT_EQ(verdict_label(*time_row), "SLOWER") << time_row->evidence;
  EXPECT_NE(time_row->evidence.find(
                "same work, slower: long_scoreboard stalls 12.0% -> 31.0%, (not stalled) 78.0% "
                "-> 59.0%"),
            std::string::npos)
      << time_row->evidence;
  // More launches: not the same work, and the explanation says only "slower".
  const auto more = judge_gate(timed(1.0, 120), timed(1.3, 310, 22), policy);
  for (const auto& row : more.rows) {
    if (row.label == "time_ms(k)") {
      EXPECT_NE(row.evidence.find("; slower: long_scoreboard stalls"), std::string::npos)
          << row.evidence;
    }
  }
  // Slower with the stalls unchanged: nothing to name.
  for (const auto& row : judge_gate(timed(1.0, 120), timed(1.3, 120), policy).rows) {
    if (row.label == "time_ms(k)") {
      EXPECT_EQ(row.evidence.find("slower: "), std::string::npos) << row.evidence;
    }
  }
}

// A baseline recorded before the gate read PC samples holds only the totals: its rows cannot be
// judged, and say how to re-record rather than calling every sampled kernel NEW.
TEST(PcSampleGateRule, ABaselineOfTotalsOnlyIsUnknownNamingTheFix) {
  using namespace aorta::detail;
  gate_policy policy;
  policy.gate = parse_gate_spec("samples +5%");
  measured_test old = sampled({{30, 30}});
  old.trials[0].metrics = {{"proton_pc_samples", 60.0}};
  const auto judged = judge_gate(old, sampled({{30, 30}}), policy);
  ASSERT_EQ(judged.rows.size(), 1u);
  EXPECT_EQ(judged.rows[0].verdict, gate_verdict::unknown);
  EXPECT_NE(judged.rows[0].why_unknown.find("re-record it with `aorta baseline record`"),
            std::string::npos)
      << judged.rows[0].why_unknown;
}

// Lines that hold more samples than their kernel are a broken record, never a pass.
TEST(PcSampleGateRule, InconsistentCountsAreUnknown) {
  using namespace aorta::detail;
  gate_policy policy;
  policy.gate = parse_gate_spec("samples +5%");
  auto broken = sampled({{30, 30}});
  broken.trials[0].metrics["proton_pc_kernel_samples.k"] = 10;
  const auto judged = judge_gate(sampled({{30, 30}}), broken, policy);
  ASSERT_EQ(judged.rows.size(), 1u);
  EXPECT_EQ(judged.rows[0].verdict, gate_verdict::unknown);
  EXPECT_NE(judged.rows[0].why_unknown.find("the lines hold 60 samples of the kernel's 10"),
            std::string::npos)
      << judged.rows[0].why_unknown;
  EXPECT_TRUE(judged.failed);
}

}  // namespace
