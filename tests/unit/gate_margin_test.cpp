// The timed-row rule of issue 39 (docs/regression-gate.md, "The verdict"): the estimate must pass
// the bound, Welch's t on the logs must pass the margin (0.4 of the way to the bound) under Holm,
// and a side with an outlier takes the trimmed test. Samples are lognormal quantiles, not draws,
// so every figure here is fixed.
#include "baseline/gate_rule.hpp"
#include "baseline/welch_p_values.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

using namespace aorta::detail;

// Normal quantiles at (i + 0.5) / 10: ten trials of 3% lognormal noise, without the luck of a draw.
constexpr double quantiles[] = {-1.645, -1.036, -0.674, -0.385, -0.126,
                                0.126,  0.385,  0.674,  1.036,  1.645};

std::vector<double> trials(double factor, double sigma, bool reversed = false) {
  std::vector<double> values;
  for (int i = 0; i < 10; ++i) {
    values.push_back(factor * std::exp(sigma * quantiles[reversed ? 9 - i : i]));
  }
  return values;
}

gate_row timed(std::vector<double> base, std::vector<double> fresh, double fraction = 0.05) {
  gate_row row;
  row.test = "t";
  row.label = "time_ms(k)";
  row.quantity = aorta::check_quantity::time_ms;
  row.fraction = fraction;
  row.base = std::move(base);
  row.fresh = std::move(fresh);
  return row;
}

// Issue 39's rows: "+8-10%, p=0.004-0.013 (Holm 0.08-0.27) AMBIGUOUS" with one slow kernel of 20
// at 3% noise and 10 trials a side. The same row, against the bound itself as before, is still
// ambiguous under Holm of 20; the rule now calls it SLOWER and leaves the 19 others SAME.
TEST(GateMargin, OneSlowKernelOfTwentyIsCaught) {
  std::vector<gate_row> rows;
  rows.push_back(timed(trials(1.0, 0.03), trials(1.09, 0.03, true)));
  for (int i = 1; i < 20; ++i) {
    rows.push_back(timed(trials(1.0, 0.03), trials(1.0, 0.03, true)));
    rows.back().label = fmt::format("time_ms(k{})", i);
  }
  std::vector<double> base_logs;
  std::vector<double> at_bound;
  for (const double v : rows.front().base) base_logs.push_back(std::log(v));
  for (const double v : rows.front().fresh) at_bound.push_back(std::log(v) - std::log1p(0.05));
  const double old_p = yuen_greater(at_bound, base_logs).p_value;
  EXPECT_GT(20 * old_p, 0.05) << "the old rule's Holm-adjusted p";

  judge_rows(rows, gate_params{});
  EXPECT_EQ(rows.front().verdict, gate_verdict::worse) << rows.front().evidence;
  EXPECT_LT(*rows.front().adjusted_p, 0.05);
  EXPECT_FALSE(rows.front().trimmed);
  for (std::size_t i = 1; i < rows.size(); ++i) EXPECT_EQ(rows[i].verdict, gate_verdict::same);
}

// Surely slower, but by less than the tolerance: the estimate decides, so it is SAME.
TEST(GateMargin, SurelySlowerInsideTheToleranceIsSame) {
  auto row = timed(trials(1.0, 0.001), trials(1.03, 0.001, true));
  judge(row, gate_params{});
  ASSERT_TRUE(row.p_value);
  EXPECT_LT(*row.p_value, 1e-6);  // +3% is well past the +1.97% margin
  EXPECT_FALSE(row.estimate_beyond);
  EXPECT_EQ(row.verdict, gate_verdict::same);
}

// One new trial 3x slower: Welch's mean would be past the bound (AMBIGUOUS, more trials for a
// blip); Grubbs flags it and the trimmed means see unchanged code.
TEST(GateMargin, OneSlowNewTrialIsNotARegression) {
  auto fresh = trials(1.0, 0.01, true);
  fresh[4] *= 3.0;
  auto row = timed(trials(1.0, 0.01), fresh);
  judge(row, gate_params{});
  EXPECT_TRUE(row.trimmed);
  EXPECT_EQ(row.verdict, gate_verdict::same) << row.evidence;
  EXPECT_NE(row.evidence.find("trimmed: an outlier trial"), std::string::npos);
}

// `<= baseline - 5%` asks for a speed-up: its bound lies on the allowed side of the baseline and
// is its own margin, so unchanged code fails it and code 8% faster passes.
TEST(GateMargin, BoundBelowTheBaselineIsItsOwnMargin) {
  auto unchanged = timed(trials(1.0, 0.01), trials(1.0, 0.01, true), -0.05);
  judge(unchanged, gate_params{});
  EXPECT_EQ(unchanged.verdict, gate_verdict::worse) << unchanged.evidence;
  auto faster = timed(trials(1.0, 0.01), trials(0.92, 0.01, true), -0.05);
  judge(faster, gate_params{});
  EXPECT_NE(faster.verdict, gate_verdict::worse) << faster.evidence;
}

TEST(GateMargin, GrubbsCriticalValuesMatchTheTables) {
  // Grubbs (1969), two-sided at 1%: n = 5 -> 1.764, n = 10 -> 2.482.
  EXPECT_NEAR(grubbs_critical(5, 0.01), 1.7637, 1e-3);
  EXPECT_NEAR(grubbs_critical(10, 0.01), 2.4821, 1e-3);
  EXPECT_FALSE(grubbs_outlier({1.0, 1.01, 0.99, 1.0, 1.005}, 0.01));
  EXPECT_TRUE(grubbs_outlier({0.0, 0.01, -0.01, 0.0, 1.1}, 0.01));
}

}  // namespace
