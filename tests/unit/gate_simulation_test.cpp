// The gate's false-alarm rate per test and its detection rate, by seeded simulation (issues 20 and
// 39): lognormal trial noise, `time +5%` at alpha 0.05, judged by the shared judge (judge_gate:
// Welch's t on the logs against 0.4 of the way to the tolerance, the estimate past it, Holm per
// test),
// and by the real sequential rule. The figures printed here are the ones docs/regression-gate.md
// quotes.
#include "aorta/error.hpp"
#include "baseline/calibration.hpp"
#include "baseline/gate_rule.hpp"
#include "baseline/sequential_gate.hpp"
#include "gate_replay_support.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace {

using namespace aorta::detail;

constexpr double tolerance = 0.05;
constexpr double alpha = 0.05;

struct simulator {
  std::mt19937_64 engine{20261201};
  double sigma = 0.0;  // of the log of a trial's time

  explicit simulator(double cv) : sigma(std::sqrt(std::log1p(cv * cv))) {}

  double trial(double shift) {
    return std::exp(std::normal_distribution<double>(0.0, sigma)(engine)) * (1.0 + shift);
  }
  std::vector<double> trials(std::size_t n, double shift) {
    std::vector<double> values;
    for (std::size_t i = 0; i < n; ++i) values.push_back(trial(shift));
    return values;
  }
};

gate_row timed_row(std::size_t index) {
  gate_row row;
  row.test = "t";
  row.label = fmt::format("time_ms(k{})", index);
  row.quantity = aorta::check_quantity::time_ms;
  row.op = aorta::compare_op::less_equal;
  row.fraction = tolerance;
  return row;
}

bool any_fails(const std::vector<gate_row>& rows) {
  for (const auto& row : rows) {
    if (fails_gate(row)) return true;
  }
  return false;
}

// One gate at a fixed trial count; `shift_of(row)` is each row's true change.
template <typename Shift>
bool fixed_gate_fails(simulator& sim, std::size_t rows, std::size_t n, Shift shift_of) {
  std::vector<gate_row> gate;
  for (std::size_t i = 0; i < rows; ++i) {
    auto row = timed_row(i);
    row.base = sim.trials(n, 0.0);
    row.fresh = sim.trials(n, shift_of(i));
    gate.push_back(std::move(row));
  }
  gate_params params;
  params.alpha = alpha;
  judge_rows(gate, params);
  return any_fails(gate);
}

struct sequential_outcome {
  bool failed = false;
  int trials = 0;
};

// One gated run: `planned` new trials, then one more while a row is ambiguous, up to `budget`.
template <typename Shift>
sequential_outcome sequential_gate(simulator& sim, std::size_t rows, int planned, int budget,
                                   Shift shift_of) {
  std::vector<std::vector<double>> base(rows);
  std::vector<std::vector<double>> fresh(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    base[i] = sim.trials(static_cast<std::size_t>(planned), 0.0);
    fresh[i] = sim.trials(static_cast<std::size_t>(planned), shift_of(i));
  }
  const auto build = [&] {
    std::vector<gate_row> gate;
    for (std::size_t i = 0; i < rows; ++i) {
      auto row = timed_row(i);
      row.base = base[i];
      row.fresh = fresh[i];
      gate.push_back(std::move(row));
    }
    return gate;
  };
  const auto plan = make_sequential_plan(planned, budget, alpha);
  auto gate = build();
  judge_first_look(gate, plan);
  int trials = planned;
  for (int look = 1; count_ambiguous(gate) > 0 && !any_fails(gate) && trials < budget; ++look) {
    for (std::size_t i = 0; i < rows; ++i) fresh[i].push_back(sim.trial(shift_of(i)));
    ++trials;
    judge_next_look(gate, build(), plan, look);
  }
  return {any_fails(gate), trials};
}

constexpr double cvs[] = {0.01, 0.03, 0.05, 0.10};

// The operating curve docs/regression-gate.md prints ("What the rule holds"): synthetic tests
// judged by judge_gate under compare's policy (the default gate line: `time +5%`, alpha 0.05, one
// look, Holm per test, the noise floor), 200 gates a cell. "false": share of unchanged tests with
// any failing row; "one +10%": share of tests whose one kernel made 10% slower is SLOWER; "+3% all"
// and "+5% all": share of tests failing when every kernel drifts by that much (inside and at the
// tolerance).
TEST(GateSimulation, OperatingCurveThroughTheSharedJudge) {
  constexpr int gates = 200;
  const auto policy = aorta::replay::compare_policy();
  fmt::print("| noise | trials | rows | false (same code) | caught (one +10%) | fails (+3% all) | "
             "fails (+5% all) |\n|---|---|---|---|---|---|---|\n");
  for (const double cv : {0.01, 0.03, 0.05}) {
    for (const std::size_t trials : {std::size_t{5}, std::size_t{10}, std::size_t{20}}) {
      for (const std::size_t rows : {std::size_t{5}, std::size_t{20}, std::size_t{50}}) {
        aorta::replay::trial_noise noise(20261206, cv);
        int same = 0, caught = 0, drift = 0, edge = 0;
        const auto judged = [&](auto shift_of) {
          const auto unchanged = [](std::size_t) { return 0.0; };
          const auto base = aorta::replay::synthetic_test(noise, rows, trials, unchanged);
          const auto fresh = aorta::replay::synthetic_test(noise, rows, trials, shift_of);
          return judge_gate(base, fresh, policy);
        };
        for (int g = 0; g < gates; ++g) {
          same += judged([](std::size_t) { return 0.0; }).failed;
          const auto one_slow = [](std::size_t k) { return k == 0 ? 0.10 : 0.0; };
          caught += aorta::replay::row_slower(judged(one_slow), "time_ms(k00)");
          drift += judged([](std::size_t) { return 0.03; }).failed;
          edge += judged([](std::size_t) { return 0.05; }).failed;
        }
        const auto pct = [](int n) { return 100.0 * n / gates; };
        fmt::print("| {:.0f}% | {} | {} | {:.1f}% | {:.1f}% | {:.1f}% | {:.1f}% |\n", cv * 100, trials,
                   rows, pct(same), pct(caught), pct(drift), pct(edge));
        // Holm's guarantee; the goal (<= 1 in 100) is asserted by gate_power_replay.
        EXPECT_LE(double(same) / gates, alpha) << cv << " " << trials << " " << rows;
        if (cv == 0.01) {
          EXPECT_GE(double(caught) / gates, 0.95) << trials << " trials, " << rows << " rows";
        }
      }
    }
  }
}

TEST(GateSimulation, SequentialRuleKeepsTheRateAndSpendsTrialsOnlyWhenAmbiguous) {
  constexpr int gates = 250;
  fmt::print("{:>5} {:>5} {:>12} {:>12} {:>16} {:>13} {:>13}\n", "cv", "rows", "false(same)",
             "false(+5%)", "caught(+10% all)", "trials(same)", "trials(+10%)");
  for (const double cv : cvs) {
    for (const std::size_t rows : {std::size_t{1}, std::size_t{20}}) {
      simulator sim(cv);
      int same = 0, edge = 0, caught = 0, trials = 0, trials_same = 0;
      for (int g = 0; g < gates; ++g) {
        const auto unchanged = sequential_gate(sim, rows, 5, 15, [](std::size_t) { return 0.0; });
        same += unchanged.failed;
        trials_same += unchanged.trials;
        edge += sequential_gate(sim, rows, 5, 15, [](std::size_t) { return tolerance; }).failed;
        const auto slow = sequential_gate(sim, rows, 5, 15, [](std::size_t) { return 0.10; });
        caught += slow.failed;
        trials += slow.trials;
      }
      fmt::print("{:>4.0f}% {:>5} {:>11.1f}% {:>11.1f}% {:>15.1f}% {:>13.1f} {:>13.1f}\n",
                 cv * 100, rows, 100.0 * same / gates, 100.0 * edge / gates, 100.0 * caught / gates,
                 double(trials_same) / gates, double(trials) / gates);
      EXPECT_LE(double(same) / gates, alpha);
      // A shift of exactly the tolerance is no longer held at alpha: the estimate decides it
      // (about half of such rows fail; docs/regression-gate.md says why).
      if (cv == 0.01) {
        EXPECT_GE(double(caught) / gates, 0.95) << rows << " rows";
      }
    }
  }
}

TEST(GateSimulation, BudgetBelowThePlannedTrialsIsAnError) {
  EXPECT_THROW((void)make_sequential_plan(10, 5, alpha), aorta::usage_error);
  EXPECT_DOUBLE_EQ(look_alpha(make_sequential_plan(5, 5, alpha), 0), alpha);
  const auto plan = make_sequential_plan(5, 15, alpha);
  EXPECT_DOUBLE_EQ(look_alpha(plan, 0) + 10 * look_alpha(plan, 3), alpha);
}

}  // namespace

namespace {

// Issue 20's "Done when": the detection rate of a 10% shift matches the calibration's prediction.
// The prediction starts from noise *measured* on 30 A/A trials (as `baseline show` does from a
// baseline's trials); the detection is that of real gates (judge_rows) at 5 and 10 trials.
TEST(GateSimulation, DetectionMatchesTheCalibrationsPrediction) {
  for (const double cv : cvs) {
    simulator sim(cv);
    detection_question question;
    question.sigma = *log_noise(sim.trials(30, 0.0));
    for (const int n : {5, 10}) {
      const double predicted = predicted_detection(question, n);
      constexpr int gates = 1000;
      int caught = 0;
      for (int g = 0; g < gates; ++g) {
        caught += fixed_gate_fails(sim, 1, static_cast<std::size_t>(n),
                                   [](std::size_t) { return 0.10; });
      }
      const double measured = double(caught) / gates;
      fmt::print("cv {:>4.1f}% (measured {:.2f}%), {:>2} trials: predicted {:5.1f}%, caught {:5.1f}%\n",
                 cv * 100, question.sigma * 100, n, predicted * 100, measured * 100);
      // "A few points": the sampling error of 1000 gates plus that of a 30-trial noise estimate.
      EXPECT_NEAR(predicted, measured, 0.08) << "cv " << cv << ", " << n << " trials";
    }
  }
}

}  // namespace
