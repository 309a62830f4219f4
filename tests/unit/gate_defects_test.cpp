// Each defect of issue 20's replay of `aorta baseline record` + `aorta compare`, as a test that
// failed on the rule before the fix (the old verdict is named in each test's comment).
#include "aorta/error.hpp"
#include "aorta/trial_record.hpp"
#include "baseline/card_identity.hpp"
#include "baseline/gate_rule.hpp"
#include "baseline/default_gate.hpp"
#include "baseline/measured_series.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace aorta::detail;

struct kernel_trial {
  std::optional<double> launches;
  double time_ms;
};

// A test whose trials hold the kernels given per trial (nullopt: the kernel is absent).
measured_test measured(const std::string& kernel, const std::vector<std::optional<kernel_trial>>& trials) {
  measured_test test;
  test.test = "t";
  for (const auto& trial : trials) {
    trial_snapshot snapshot;
    snapshot.kernels["steady"] = kernel_sample{20.0, 1.0};
    if (trial) snapshot.kernels[kernel] = kernel_sample{trial->launches, trial->time_ms};
    test.trials.push_back(std::move(snapshot));
  }
  return test;
}

std::vector<gate_row> judged_rows(const measured_test& base, const measured_test& fresh) {
  auto rows = default_gate_rows(parse_gate_spec("time +5%, count exact"), base, fresh);
  judge_rows(rows, gate_params{});
  return rows;
}

const gate_row* find_row(const std::vector<gate_row>& rows, const std::string& label) {
  for (const auto& row : rows) {
    if (row.label == label) return &row;
  }
  return nullptr;
}

bool any_fails(const std::vector<gate_row>& rows) {
  for (const auto& row : rows) {
    if (fails_gate(row)) return true;
  }
  return false;
}

// Before: count(k) had no baseline samples and was NEW (fail).
TEST(GateDefects, UnknownLaunchCountIsNotGone) {
  const auto base = measured("k", {kernel_trial{std::nullopt, 1.0}, kernel_trial{std::nullopt, 1.01},
                                   kernel_trial{std::nullopt, 0.99}});
  const auto fresh = measured("k", {kernel_trial{20.0, 1.0}, kernel_trial{20.0, 1.01},
                                    kernel_trial{20.0, 0.99}});
  const auto rows = judged_rows(base, fresh);
  EXPECT_EQ(find_row(rows, "count(k)"), nullptr);
  ASSERT_NE(find_row(rows, "time_ms(k)"), nullptr);
  EXPECT_FALSE(any_fails(rows));
}

// Before: `total_ms: null` in result.json became a 0 ms sample.
TEST(GateDefects, NullTotalIsNoSample) {
  std::ifstream file(std::string(AORTA_FIXTURES_DIR) +
                     "/h200-examples/aorta-results/proton.triton-softmax/trial_0/result.json");
  auto json = nlohmann::json::parse(file);
  ASSERT_EQ(json["kernels"][0]["name"], "softmax_kernel");
  json["kernels"][0]["total_ms"] = nullptr;
  const auto record = aorta::trial_record_from_json(json);
  const auto test = measured_from_records("softmax", {record, record, record});
  const auto& sample = test.trials.front().kernels.at("softmax_kernel");
  EXPECT_TRUE(std::isnan(sample.time_ms));
  const auto rows = default_gate_rows(parse_gate_spec("time +5%"), test, test);
  const auto* row = find_row(rows, "time_ms(softmax_kernel)");
  ASSERT_NE(row, nullptr);
  EXPECT_TRUE(row->base.empty());
}

// Before: a kernel seen in one of five new trials (a cold-cache autotune) was NEW (fail).
TEST(GateDefects, KernelInOneTrialIsNeitherNewNorGone) {
  const kernel_trial steady{20.0, 1.0};
  const auto base = measured("autotune", {std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                                          std::nullopt});
  const auto fresh = measured("autotune", {steady, std::nullopt, std::nullopt, std::nullopt,
                                           std::nullopt});
  EXPECT_FALSE(any_fails(judged_rows(base, fresh)));
  EXPECT_FALSE(any_fails(judged_rows(fresh, base)));
  // In most trials it is there: NEW.
  const auto mostly = measured("autotune", {steady, steady, steady, std::nullopt, std::nullopt});
  const auto rows = judged_rows(base, mostly);
  ASSERT_NE(find_row(rows, "count(autotune)"), nullptr);
  EXPECT_EQ(find_row(rows, "count(autotune)")->verdict, gate_verdict::appeared);
}

// Before: medians 20 vs 21 made it MORE (fail) although both sides saw 20 and 21.
TEST(GateDefects, VaryingLaunchCountsDoNotFlipOnMedians) {
  std::vector<std::optional<kernel_trial>> base_trials;
  std::vector<std::optional<kernel_trial>> fresh_trials;
  for (const double n : {20.0, 21.0, 20.0, 21.0, 20.0}) base_trials.emplace_back(kernel_trial{n, 1.0});
  for (const double n : {21.0, 20.0, 21.0, 21.0, 20.0}) fresh_trials.emplace_back(kernel_trial{n, 1.0});
  const auto rows = judged_rows(measured("k", base_trials), measured("k", fresh_trials));
  ASSERT_NE(find_row(rows, "count(k)"), nullptr);
  EXPECT_EQ(find_row(rows, "count(k)")->verdict, gate_verdict::same);
  // A real change moves every trial past the baseline's range: MORE.
  std::vector<std::optional<kernel_trial>> more;
  for (const double n : {22.0, 22.0, 23.0}) more.emplace_back(kernel_trial{n, 1.0});
  const auto moved = judged_rows(measured("k", base_trials), measured("k", more));
  EXPECT_EQ(find_row(moved, "count(k)")->verdict, gate_verdict::worse);
}

gate_row timed(std::vector<double> base, std::vector<double> fresh, double fraction = 0.05) {
  gate_row row;
  row.label = "time_ms(k)";
  row.quantity = aorta::check_quantity::time_ms;
  row.op = aorta::compare_op::less_equal;
  row.fraction = fraction;
  row.base = std::move(base);
  row.fresh = std::move(fresh);
  judge(row, gate_params{});
  return row;
}

// Before: a 1-trial baseline was judged by the interval rule (SLOWER here).
TEST(GateDefects, OneTrialBaselineIsUnknownNamingTheFix) {
  const auto row = timed({1.0}, {1.2, 1.21, 1.19});
  EXPECT_EQ(row.verdict, gate_verdict::unknown);
  EXPECT_NE(row.why_unknown.find("--trials 5"), std::string::npos);
}

// Before: the baseline's one slow trial held the rank test at p = 0.14 (AMBIGUOUS), and extra
// trials of the new side could not move it; Grubbs' test flags the outlier (G = 1.789 > 1.764 at
// 1%) and the trimmed means leave it out (Welch's means would call the new side faster).
TEST(GateDefects, BaselineOutlierDoesNotHideARegression) {
  const auto row = timed({1.0, 1.01, 0.99, 1.0, 3.0}, {1.1, 1.11, 1.09, 1.1, 1.12});
  EXPECT_EQ(row.verdict, gate_verdict::worse);
  ASSERT_TRUE(row.p_value);
  EXPECT_TRUE(row.trimmed);
  // SciPy: ttest_ind(log(new) - 0.4 * log1p(0.05), log(base), equal_var=False, trim=0.2,
  // alternative="greater")
  EXPECT_NEAR(*row.p_value, 0.00012216511204610737, 1e-12);
}

// Before: bimodal clocks moved the median +11% on a +2% change and the two-sided rank test
// ("any difference", p = 0.026) made it SLOWER; tested against the tolerance it is not. Both
// sides have trials at 1.0 and at 1.2: the row is judged by its two modes (gate_modes.hpp), +2%
// within them.
TEST(GateDefects, TestedAgainstTheToleranceNotAnyDifference) {
  const std::vector<double> base{1.0, 1.001, 0.999, 1.0005, 0.9995, 1.2, 1.201, 1.199, 1.2005, 1.1995};
  std::vector<double> fresh;
  for (const double v : {1.0, 1.001, 0.999, 1.0005, 1.2, 1.201, 1.199, 1.2005, 1.1995, 1.2002}) {
    fresh.push_back(v * 1.02);
  }
  const auto row = timed(base, fresh);
  EXPECT_GT(row.fresh_median / row.base_median - 1.0, 0.05);
  ASSERT_TRUE(row.delta.has_value());
  EXPECT_NEAR(*row.delta, 0.02, 1e-3);  // a multi-modal row's delta is its change within the modes
  EXPECT_NE(row.verdict, gate_verdict::worse);
  EXPECT_FALSE(row.estimate_beyond);  // +2% within the modes, +3.8% between the geometric means
  ASSERT_TRUE(row.modes.has_value());
  EXPECT_NEAR(row.modes->within_ratio, 1.02, 1e-3);
  // min(p_within / 0.8, p_moved / 0.2), recomputed with NumPy and SciPy by
  // tests/stats/check_process_modes.py's check_gate on these values.
  EXPECT_NEAR(*row.p_value, 0.16701094949319026, 1e-9);
}

// Holm over the test's timed rows: 20 rows at p ~ 0.01 each are no regression of the test.
TEST(GateFamily, HolmAdjustsWithinATest) {
  std::vector<gate_row> rows;
  for (int i = 0; i < 20; ++i) {
    auto row = timed({1.000, 1.020, 0.985, 1.010, 0.995}, {1.04, 1.11, 1.06, 1.13, 1.07});
    row.test = "t";
    rows.push_back(row);
  }
  EXPECT_EQ(rows.front().verdict, gate_verdict::worse);  // alone: p = 0.0083 < 0.05 (SciPy)
  judge_rows(rows, gate_params{});
  for (const auto& row : rows) {
    EXPECT_EQ(row.verdict, gate_verdict::ambiguous);
    EXPECT_NEAR(*row.adjusted_p, 20 * 0.008317628522211089, 1e-9);
  }
  rows.front().fresh = {1.30, 1.31, 1.305, 1.30, 1.302};  // one kernel +30%, tight: still caught
  judge_rows(rows, gate_params{});
  EXPECT_EQ(rows.front().verdict, gate_verdict::worse);
}

}  // namespace

namespace {

measured_test on_card(const std::string& uuid) {
  measured_test test;
  test.test = "t";
  test.fingerprint["gpu"] = "NVIDIA H200, 580.159.04";
  if (!uuid.empty()) test.fingerprint[std::string(card_key)] = uuid;
  return test;
}

// Issue 20, item 5: another card of the same model is told about (not a silent judge), and a
// lane can require the same card.
TEST(GateCard, AnotherCardIsNamedAndCanBeRequired) {
  const auto a = on_card("GPU-aaaa");
  const auto b = on_card("GPU-bbbb");
  EXPECT_FALSE(card_difference(a, a, true));
  const auto note = card_difference(a, b, false);
  ASSERT_TRUE(note);
  EXPECT_NE(note->find("card GPU-aaaa, this run is on card GPU-bbbb"), std::string::npos);
  EXPECT_FALSE(card_difference(on_card(""), b, false));  // an old baseline: nothing to compare
  const auto required = card_difference(on_card(""), b, true);
  ASSERT_TRUE(required);
  EXPECT_NE(required->find("the baseline names none"), std::string::npos);
  EXPECT_TRUE(parse_gate_spec("time +5%, card same").same_card);
  EXPECT_FALSE(parse_gate_spec("time +5%, card any").same_card);
  EXPECT_THROW((void)parse_gate_spec("card yes"), aorta::usage_error);
}

}  // namespace
