// The regression gate on trials from process modes (baseline/gate_modes.hpp): a timed row whose
// baseline and new trials both span the modes is judged within and between the modes; one whose
// sides sit in one mode each is a shift, judged as before. Values in ms, as from a GEMM whose
// processes run at 30 us or 45 us.
#include "baseline/gate_report.hpp"
#include "baseline/gate_rule.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace {

using aorta::detail::gate_row;
using aorta::detail::gate_verdict;

// Five processes in each mode, a little spread within each.
std::vector<double> two_modes(double factor, std::size_t slow = 5, std::size_t fast = 5) {
  const std::vector<double> spread{0.99, 1.01, 1.0, 0.985, 1.015, 1.005, 0.995, 1.0, 0.99, 1.01};
  std::vector<double> values;
  for (std::size_t i = 0; i < fast; ++i) values.push_back(0.030 * spread[i % 10] * factor);
  for (std::size_t i = 0; i < slow; ++i) values.push_back(0.045 * spread[(i + 3) % 10] * factor);
  return values;
}

gate_row judged(std::vector<double> base, std::vector<double> fresh) {
  gate_row row;
  row.test = "modes";
  row.label = "time_ms(gemm)";
  row.quantity = aorta::check_quantity::time_ms;
  row.fraction = 0.05;
  row.base = std::move(base);
  row.fresh = std::move(fresh);
  aorta::detail::judge(row, {});
  return row;
}

TEST(GateModes, TenPercentWithinTheModesIsSlowerAndSaysMultiModal) {
  const auto row = judged(two_modes(1.0), two_modes(1.10));
  ASSERT_TRUE(row.modes.has_value());
  EXPECT_EQ(row.modes->modes, 2u);
  EXPECT_EQ(row.verdict, gate_verdict::worse) << row.evidence;
  EXPECT_TRUE(row.evidence.starts_with("multi-modal, 2 modes at [")) << row.evidence;
  EXPECT_NE(row.evidence.find("new 5+5, baseline 5+5 trials per mode"), std::string::npos)
      << row.evidence;
  EXPECT_NEAR(row.modes->within_ratio, 1.10, 1e-9);
}

TEST(GateModes, SlowerWithinTheModesIsLabelledSlowerThoughTheMedianFell) {
  // 10% slower in each mode, but 7 of 10 new trials ran in the fast mode against 3 of 10 of the
  // baseline's: the new median is lower. The label and the delta follow the verdict (the change
  // within the modes), not the median.
  const auto row = judged(two_modes(1.0, 7, 3), two_modes(1.10, 3, 7));
  ASSERT_TRUE(row.modes.has_value());
  EXPECT_LT(row.fresh_median, row.base_median);
  ASSERT_TRUE(row.delta.has_value());
  EXPECT_NEAR(*row.delta, 0.10, 0.005);
  EXPECT_NEAR(aorta::detail::judged_fresh_level(row), row.base_median * (1.0 + *row.delta), 1e-12);
  EXPECT_EQ(row.verdict, gate_verdict::worse) << row.evidence;
  EXPECT_EQ(aorta::detail::verdict_label(row), "SLOWER");
}

TEST(GateModes, UnchangedModesAreSame) {
  const auto row = judged(two_modes(1.0), two_modes(1.0));
  ASSERT_TRUE(row.modes.has_value());
  EXPECT_EQ(row.verdict, gate_verdict::same) << row.evidence;
}

TEST(GateModes, TrialsMovedToTheSlowModeAreSlowerThoughEachModeKeptItsTime) {
  // The baseline's processes ran fast 8 times in 10, the new ones slow 8 times in 10.
  const auto row = judged(two_modes(1.0, 2, 8), two_modes(1.0, 8, 2));
  ASSERT_TRUE(row.modes.has_value());
  EXPECT_NEAR(row.modes->within_ratio, 1.0, 0.01);
  EXPECT_EQ(row.verdict, gate_verdict::worse) << row.evidence;
  EXPECT_NE(row.evidence.find("moved between modes p="), std::string::npos) << row.evidence;
}

TEST(GateModes, FasterWithinTheModesIsBetter) {
  const auto row = judged(two_modes(1.0), two_modes(0.85));
  ASSERT_TRUE(row.modes.has_value());
  EXPECT_EQ(row.verdict, gate_verdict::better) << row.evidence;
}

TEST(GateModes, EachSideInOneModeIsAShiftNotModes) {
  // All baseline trials near 30 us, all new ones near 45 us: one mode a side, a 50% shift.
  const auto row = judged(two_modes(1.0, 0, 10), two_modes(1.0, 10, 0));
  EXPECT_FALSE(row.modes.has_value());
  EXPECT_EQ(row.verdict, gate_verdict::worse) << row.evidence;
  EXPECT_FALSE(row.evidence.starts_with("multi-modal")) << row.evidence;
}

TEST(GateModes, UnimodalTrialsKeepTheLogTTest) {
  const auto row = judged(two_modes(1.0, 0, 10), two_modes(1.10, 0, 10));
  EXPECT_FALSE(row.modes.has_value());
  EXPECT_EQ(row.verdict, gate_verdict::worse) << row.evidence;
  EXPECT_TRUE(row.evidence.starts_with("p=")) << row.evidence;
}

TEST(GateModes, GateJsonCarriesTheModes) {
  const auto row = judged(two_modes(1.0), two_modes(1.10));
  const auto json = aorta::detail::gate_rows_json({row});
  ASSERT_TRUE(json.at(0).contains("modes"));
  const auto& modes = json.at(0).at("modes");
  EXPECT_EQ(modes.at("modes"), 2);
  EXPECT_EQ(modes.at("new_trials"), nlohmann::json({5, 5}));
  EXPECT_EQ(modes.at("base_trials"), nlohmann::json({5, 5}));
  const auto unimodal = aorta::detail::gate_rows_json({judged(two_modes(1.0, 0, 10),
                                                              two_modes(1.0, 0, 10))});
  EXPECT_FALSE(unimodal.at(0).contains("modes"));
}

TEST(GateModes, TheJudgedChangeNeverStandsInForAMissingMeasurement) {
  // A multi-modal row's level is the baseline moved by its judged change, and only that: a
  // non-finite change or a row without modes keeps the median, a row that lost its new trials is
  // left out of the geomean and fails the gate, and a geomean over no measured row is none.
  const auto modal = judged(two_modes(1.0, 7, 3), two_modes(1.10, 3, 7));
  ASSERT_TRUE(modal.modes.has_value());
  ASSERT_TRUE(modal.delta.has_value());
  auto broken = modal;
  broken.delta = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(aorta::detail::judged_fresh_level(broken), broken.fresh_median);
  auto plain = modal;
  plain.modes.reset();
  EXPECT_EQ(aorta::detail::judged_fresh_level(plain), plain.fresh_median);

  const auto lost = judged(two_modes(1.0), {});
  EXPECT_TRUE(aorta::detail::fails_gate(lost)) << aorta::detail::verdict_label(lost);
  EXPECT_FALSE(aorta::detail::geomean_ratio({lost}).has_value());
  const auto geomean = aorta::detail::geomean_ratio({modal, lost});
  ASSERT_TRUE(geomean.has_value());
  EXPECT_NEAR(*geomean, 1.0 + *modal.delta, 1e-12);
}

}  // namespace
