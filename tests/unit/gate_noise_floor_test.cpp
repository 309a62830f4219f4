// A timed row's tolerance is never below its baseline's measured noise (issue 20, item 1): the
// gate line's `floor` item, the raised bound, and what it changes in a verdict.
#include "aorta/error.hpp"
#include "baseline/calibration.hpp"
#include "baseline/gate_rule.hpp"
#include "baseline/default_gate.hpp"
#include "baseline/measured_series.hpp"
#include "baseline/noise_floor.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

using namespace aorta::detail;

measured_test timed(const std::vector<double>& times) {
  measured_test test;
  test.test = "t";
  for (const double time : times) {
    trial_snapshot snapshot;
    snapshot.kernels["gemm"] = kernel_sample{20.0, time};
    test.trials.push_back(std::move(snapshot));
  }
  return test;
}

const gate_row& time_row(const std::vector<gate_row>& rows) {
  for (const auto& row : rows) {
    if (row.label == "time_ms(gemm)") return row;
  }
  throw std::runtime_error("no time_ms(gemm) row");
}

// A baseline whose trials scatter by about 7.6% (log standard deviation 0.0757).
const std::vector<double> noisy_base{1.00, 1.10, 0.92, 1.05, 0.95, 1.12, 0.97, 1.02, 0.90, 1.08};

TEST(GateNoiseFloor, TheGateLineNamesTheFloor) {
  EXPECT_EQ(parse_gate_spec("time +5%").floor_multiple, 1.0);
  EXPECT_EQ(parse_gate_spec("time +5%, floor 2").floor_multiple, 2.0);
  EXPECT_EQ(parse_gate_spec("time +5%, floor off").floor_multiple, 0.0);
  EXPECT_EQ(parse_gate_spec("time +5%, floor 0").floor_multiple, 0.0);
  for (const char* bad : {"time +5%, floor -1", "time +5%, floor 11", "time +5%, floor lots",
                          "time +5%, floor"}) {
    try {
      (void)parse_gate_spec(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const aorta::usage_error& e) {
      EXPECT_NE(std::string(e.what()).find("floor"), std::string::npos) << e.what();
    }
  }
}

TEST(GateNoiseFloor, ANoisyRowsToleranceIsRaisedToItsNoise) {
  const auto base = timed(noisy_base);
  const auto rows = default_gate_rows(parse_gate_spec("time +5%"), base, base);
  const auto& row = time_row(rows);
  const double sigma = *log_noise(noisy_base);
  EXPECT_NEAR(row.fraction, std::expm1(sigma), 1e-12);
  EXPECT_GT(row.fraction, 0.075);
  EXPECT_NE(row.bound_text.find("noise floor"), std::string::npos) << row.bound_text;
  EXPECT_NE(row.floor_note.find("raised from +5%"), std::string::npos) << row.floor_note;

  const auto doubled = default_gate_rows(parse_gate_spec("time +5%, floor 2"), base, base);
  EXPECT_NEAR(time_row(doubled).fraction, std::expm1(2 * sigma), 1e-12);
}

TEST(GateNoiseFloor, QuietRowsAndTheUsersOwnSayKeepTheTolerance) {
  const auto quiet = timed({1.000, 1.001, 0.999, 1.002, 0.998});
  EXPECT_EQ(time_row(default_gate_rows(parse_gate_spec("time +5%"), quiet, quiet)).fraction, 0.05);
  const auto noisy = timed(noisy_base);
  const auto off_rows = default_gate_rows(parse_gate_spec("time +5%, floor off"), noisy, noisy);
  const auto& off = time_row(off_rows);
  EXPECT_EQ(off.fraction, 0.05);
  EXPECT_TRUE(off.floor_note.empty());
  // Two baseline trials say nothing about noise: the declared tolerance stands.
  const auto two = timed({1.0, 1.2});
  EXPECT_EQ(time_row(default_gate_rows(parse_gate_spec("time +5%"), two, two)).fraction, 0.05);
  // Counts are exact whatever the times do.
  gate_row count_row;
  count_row.exact = true;
  count_row.base = noisy_base;
  raise_to_noise_floor(count_row, 1.0);
  EXPECT_EQ(count_row.fraction, 0.0);
}

// The case the floor is for: a +7% move of a row whose trials scatter by 7.6% is noise the baseline
// itself shows, not a regression; without the floor 30 trials a side make it "significant".
TEST(GateNoiseFloor, AMoveInsideTheNoiseNoLongerFails) {
  std::vector<double> base_times;
  std::vector<double> fresh_times;
  for (int copy = 0; copy < 3; ++copy) {
    for (const double value : noisy_base) {
      base_times.push_back(value);
      fresh_times.push_back(value * 1.07);
    }
  }
  const auto base = timed(base_times);
  const auto fresh = timed(fresh_times);
  auto bare = default_gate_rows(parse_gate_spec("time +2%, floor off"), base, fresh);
  judge_rows(bare, gate_params{});
  EXPECT_TRUE(fails_gate(time_row(bare))) << verdict_label(time_row(bare));
  auto floored = default_gate_rows(parse_gate_spec("time +2%"), base, fresh);
  judge_rows(floored, gate_params{});
  EXPECT_FALSE(fails_gate(time_row(floored))) << verdict_label(time_row(floored));
  EXPECT_EQ(verdict_label(time_row(floored)), "SAME");
}

}  // namespace
