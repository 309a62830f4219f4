// The regression verdict, the gate spec and the check grammar's `baseline` form.
#include "aorta/check.hpp"
#include "aorta/error.hpp"
#include "baseline/gate_rule.hpp"
#include "baseline/default_gate.hpp"
#include "baseline/statistics.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using aorta::check_expression;
using namespace aorta::detail;

std::string parse_error(std::string_view text) {
  try {
    (void)check_expression::parse(text);
  } catch (const aorta::usage_error& e) {
    return e.what();
  }
  return "(parsed)";
}

TEST(BaselineGrammar, BareBaselineIsAnExactBound) {
  const auto check = check_expression::parse("count(^add_kernel$) == baseline");
  ASSERT_TRUE(check.baseline().has_value());
  EXPECT_EQ(check.baseline()->fraction, 0.0);
  EXPECT_EQ(check.baseline()->text, "baseline");
}

TEST(BaselineGrammar, SignedPercentages) {
  const auto slower = check_expression::parse("time_ms(^gemm) <= baseline + 5%");
  ASSERT_TRUE(slower.baseline());
  EXPECT_DOUBLE_EQ(slower.baseline()->fraction, 0.05);
  const auto ratio = check_expression::parse("cycles(a) / cycles(b) >= baseline - 10%");
  ASSERT_TRUE(ratio.baseline());
  EXPECT_DOUBLE_EQ(ratio.baseline()->fraction, -0.10);
  EXPECT_TRUE(ratio.is_ratio());
  EXPECT_FALSE(check_expression::parse("time_ms(x) < 5").baseline());
}

TEST(BaselineGrammar, BadTolerancesSayTheFix) {
  EXPECT_NE(parse_error("time_ms(x) <= baseline +- 5%").find("'+-' is not one"), std::string::npos);
  EXPECT_NE(parse_error("time_ms(x) <= baseline + 5").find("write 'baseline + 5%'"),
            std::string::npos);
  EXPECT_NE(parse_error("time_ms(x) != baseline").find("'!= baseline' is no regression rule"),
            std::string::npos);
  EXPECT_NE(parse_error("count(x) == baseline + 5%").find("takes no tolerance"), std::string::npos);
  EXPECT_NE(parse_error("count(x) == baseline 5%").find("'+ N%' or '- N%'"), std::string::npos);
}

TEST(GateSpec, ParsesEveryItem) {
  const auto spec = parse_gate_spec("time +5%, count exact, cycles +2.5%, ir +1%, alpha 0.01, "
                                    "max_trials 30");
  EXPECT_DOUBLE_EQ(*spec.time, 0.05);
  EXPECT_DOUBLE_EQ(*spec.count, 0.0);
  EXPECT_DOUBLE_EQ(*spec.cycles, 0.025);
  EXPECT_DOUBLE_EQ(*spec.ir, 0.01);
  EXPECT_DOUBLE_EQ(spec.params.alpha, 0.01);
  EXPECT_EQ(spec.params.max_trials, 30);
  EXPECT_FALSE(parse_gate_spec("none").time);
}

TEST(GateSpec, BadItemsAreErrorsNamingTheFix) {
  const auto error_of = [](std::string_view text) {
    try {
      (void)parse_gate_spec(text);
    } catch (const aorta::usage_error& e) {
      return std::string(e.what());
    }
    return std::string("(parsed)");
  };
  EXPECT_NE(error_of("time +5").find("write '+5%'"), std::string::npos);
  EXPECT_NE(error_of("time +-5%").find("upward tolerance only"), std::string::npos);
  EXPECT_NE(error_of("time 5%").find("needs '+N%'"), std::string::npos);
  EXPECT_NE(error_of("time exact").find("needs a tolerance"), std::string::npos);
  EXPECT_NE(error_of("speed +5%").find("is unknown"), std::string::npos);
  EXPECT_NE(error_of("time +5%, time +6%").find("given twice"), std::string::npos);
}

gate_row timed_row(std::vector<double> base, std::vector<double> fresh, double fraction = 0.05) {
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

TEST(GateRule, SameWithinTolerance) {
  const auto row = timed_row({1.00, 1.01, 0.99, 1.02, 1.00, 0.98}, {1.02, 1.03, 1.01, 1.04, 1.00, 1.02});
  EXPECT_EQ(row.verdict, gate_verdict::same);
  EXPECT_EQ(verdict_label(row), "SAME");
}

TEST(GateRule, SlowerWhenBeyondToleranceAndSignificant) {
  const auto row = timed_row({1.00, 1.01, 0.99, 1.02, 1.00, 0.98}, {1.10, 1.12, 1.09, 1.11, 1.13, 1.10});
  EXPECT_EQ(row.verdict, gate_verdict::worse);
  EXPECT_EQ(verdict_label(row), "SLOWER");
  ASSERT_TRUE(row.p_value);
  EXPECT_LT(*row.p_value, 0.05);
  EXPECT_TRUE(fails_gate(row));
}

TEST(GateRule, AmbiguousWhenBeyondToleranceButNoisy) {
  // Median +10%, but the samples overlap so much that the rank test cannot tell.
  const auto row = timed_row({1.0, 1.5, 0.7, 1.3, 0.9, 1.2}, {1.1, 1.6, 0.8, 1.4, 1.0, 1.3});
  EXPECT_EQ(row.verdict, gate_verdict::ambiguous);
  EXPECT_FALSE(fails_gate(row));
}

TEST(GateRule, FasterNeverFails) {
  const auto row = timed_row({1.00, 1.01, 0.99, 1.02, 1.00, 0.98}, {0.80, 0.81, 0.79, 0.82, 0.80, 0.78});
  EXPECT_EQ(row.verdict, gate_verdict::better);
  EXPECT_EQ(verdict_label(row), "FASTER");
  EXPECT_FALSE(fails_gate(row));
}

TEST(GateRule, TimedRowsNeedThreeSamplesASide) {
  EXPECT_EQ(timed_row({1.0, 1.01}, {1.2, 1.21}).verdict, gate_verdict::unknown);
  EXPECT_EQ(timed_row({1.0, 1.01, 0.99}, {1.2, 1.21, 1.19}).verdict, gate_verdict::worse);
  EXPECT_EQ(timed_row({1.0, 1.01, 0.99}, {1.02, 1.0, 1.01}).verdict, gate_verdict::same);
}

TEST(GateRule, CountsAreExactAndNamed) {
  gate_row row;
  row.label = "count(k)";
  row.quantity = aorta::check_quantity::count;
  row.exact = true;
  row.op = aorta::compare_op::equal;
  row.base = {20, 20};
  row.fresh = {21, 21};
  judge(row, gate_params{});
  EXPECT_EQ(row.verdict, gate_verdict::worse);
  EXPECT_EQ(verdict_label(row), "MORE");
  row.fresh = {19};
  judge(row, gate_params{});
  EXPECT_EQ(verdict_label(row), "FEWER");
  row.fresh = {};
  judge(row, gate_params{});
  EXPECT_EQ(row.verdict, gate_verdict::disappeared);
  EXPECT_TRUE(fails_gate(row));
}

TEST(Statistics, QuantilesAreNumpyLinear) {
  EXPECT_DOUBLE_EQ(quantile({4, 1, 3, 2}, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile({4, 1, 3, 2}, 0.25), 1.75);
  const auto summary = summarize_samples({3, 1, 2});
  EXPECT_EQ(summary.n, 3U);
  EXPECT_DOUBLE_EQ(summary.min, 1);
}

TEST(Statistics, MannWhitneyIsSymmetricInPValue) {
  const std::vector<double> x{1, 2, 3, 4, 5};
  const std::vector<double> y{6, 7, 8, 9, 10};
  const auto forward = mann_whitney_u(x, y);
  const auto backward = mann_whitney_u(y, x);
  EXPECT_DOUBLE_EQ(forward.p_value, backward.p_value);
  EXPECT_DOUBLE_EQ(forward.u + backward.u, 25.0);
  EXPECT_TRUE(forward.exact);
  // Fully separated 5 vs 5: 2 / C(10, 5).
  EXPECT_NEAR(forward.p_value, 2.0 / 252.0, 1e-15);
}

}  // namespace

namespace {

TEST(GateRule, NoiseFloorKeepsTinyMovesSame) {
  gate_row row;
  row.label = "ir(_dl_start)";
  row.quantity = aorta::check_quantity::ir;
  row.exact = true;
  row.op = aorta::compare_op::equal;
  row.base = {125173};
  row.fresh = {126828};  // +1.3% of the function, a few thousand instructions
  judge(row, gate_params{});
  EXPECT_EQ(row.verdict, gate_verdict::worse);
  row.noise_floor = 6393.0;  // 0.1% of a 6.39 M instruction program
  judge(row, gate_params{});
  EXPECT_EQ(row.verdict, gate_verdict::same);
}

}  // namespace
