// `aorta calibrate`: an A/A run of unchanged code, recorded as the baseline, and what its noise
// supports per timed row (docs/regression-gate.md, "Calibration").
#include "aorta/error.hpp"
#include "aorta/sweep.hpp"
#include "baseline/baseline_file.hpp"
#include "baseline/calibration.hpp"
#include "baseline/result_sets.hpp"
#include "baseline/statistics.hpp"
#include "cli/baseline_record.hpp"
#include "cli/commands.hpp"
#include "cli/console_flags.hpp"
#include "contained_path.hpp"
#include "recipe/cell_plan.hpp"
#include "metrics/number_format.hpp"
#include "metrics/quantity_table.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

namespace aorta::cli {
namespace fs = std::filesystem;
namespace {

// Fewer trials give no noise figure worth the name: two samples make one difference.
constexpr int min_calibration_trials = 3;

struct calibrate_flags {
  std::string recipe;
  std::string output;
  std::string into;
  std::string test_name;
  int trials = 10;
  int gate_trials = 5;
  bool require_profiler = false;
  console_flags console;
};

// Every timed row's samples: time_ms per kernel, cycles per scope.
std::map<std::string, std::vector<double>> timed_rows(const detail::measured_test& test) {
  std::map<std::string, std::vector<double>> rows;
  const auto& kernel_time = detail::kernel_time_row();
  for (const auto& trial : test.trials) {
    for (const auto& [kernel, sample] : trial.kernels) {
      if (std::isfinite(sample.time_ms))
        rows[detail::quantity_label(kernel_time, kernel)].push_back(sample.time_ms);
    }
    // The timed metrics the default gate judges (the quantity table's cycles).
    for (const auto& [key, value] : trial.metrics) {
      const auto* declared = detail::declaration_of_metric(key);
      if (declared == nullptr || declared->gate_item.empty() ||
          !detail::is_timed_quantity(declared->quantity))
        continue;
      const std::string_view name = std::string_view(key).substr(declared->metric_prefix.size());
      rows[detail::quantity_label(*declared, name)].push_back(value);
    }
  }
  return rows;
}

// The table: per timed row its noise and the trials a side that catch +10% under `time +5%`
// with 95% power at alpha 0.05/rows; then the rows the planned trial count cannot gate.
void print_calibration(const detail::measured_test& test, int gate_trials) {
  const auto rows = timed_rows(test);
  fmt::print(std::cout, "aorta: calibrate: {} timed row(s) over {} trial(s); trials a side to catch "
                        "+10% under time +5% with 95% power at alpha 0.05/{}:\n",
             rows.size(), test.trials.size(), std::max<std::size_t>(rows.size(), 1));
  std::vector<std::string> short_of;
  for (const auto& [label, samples] : rows) {
    const auto sigma = detail::log_noise(samples);
    if (!sigma) {
      fmt::print(std::cout, "  {:<56} fewer than 2 samples: no noise figure\n", label);
      short_of.push_back(fmt::format("{} (no noise figure)", label));
      continue;
    }
    detail::detection_question question;
    question.sigma = *sigma;
    question.alpha = 0.05 / static_cast<double>(rows.size());
    const auto needed = detail::trials_needed(question, 0.95);
    const std::string needs = needed ? fmt::format("{} trial(s)", *needed) : "more than 100";
    fmt::print(std::cout, "  {:<56} median {:>12}  noise {:>6.2f}%  needs {}\n", label,
               detail::format_number(detail::summarize_samples(samples).median), *sigma * 100.0,
               needs);
    if (!needed || *needed > gate_trials) short_of.push_back(fmt::format("{} ({})", label, needs));
  }
  if (short_of.empty()) {
    fmt::print(std::cout, "aorta: calibrate: every timed row can be gated with {} trial(s) a side\n",
               gate_trials);
    return;
  }
  fmt::print(std::cout, "aorta: calibrate: {} row(s) cannot be gated at {} trial(s) a side: {}. "
                        "Fix: plan that many trials (TRIALS / --trials), widen the row's tolerance, "
                        "or gate its count instead\n",
             short_of.size(), gate_trials, fmt::join(short_of, "; "));
}

std::string calibrated_test_name(const calibrate_flags& flags) {
  if (!flags.test_name.empty()) return flags.test_name;
  // `--output build/calib/gemm/` names the test `gemm`, as without the trailing separator.
  fs::path output = fs::path(flags.output).lexically_normal();
  if (output.filename().empty()) output = output.parent_path();
  return output.filename().string();
}

int calibrate(const calibrate_flags& flags, const std::vector<std::string>& command) {
  if (flags.trials < min_calibration_trials) {
    throw usage_error(fmt::format("--trials {}: calibration measures noise between trials and "
                                  "needs at least {} (10 or more give a steady figure)",
                                  flags.trials, min_calibration_trials));
  }
  // What would refuse the recording is refused before the trials run, not after them.
  const std::string test_name = calibrated_test_name(flags);
  (void)detail::contained_path(flags.into, test_name,
                               flags.test_name.empty() ? "the --output directory's name"
                                                       : "--test-name");
  if (detail::has_cells(load_recipe(flags.recipe))) {
    throw usage_error(fmt::format("calibrate: {} has cells (mitigation_axis / diagnostic_axis): "
                                  "calibration records one test's noise as its baseline, and "
                                  "cells are judged against each other. Fix: calibrate with a "
                                  "recipe without cells",
                                  flags.recipe));
  }
  sweep_request request;
  request.recipe_path = flags.recipe;
  request.output_dir = flags.output;
  request.command = command;
  request.trials = flags.trials;
  request.require_profiler = flags.require_profiler;
  flags.console.apply(request);
  const auto outcome = run_sweep_with_console(request, flags.console);
  if (outcome.code != exit_code::ok) {
    fmt::print(std::cerr, "aorta: calibrate: the A/A run did not pass (exit {}), so nothing was "
                          "recorded: a baseline must be of code that passes its checks\n",
               static_cast<int>(outcome.code));
    return static_cast<int>(outcome.code);
  }
  record_flags record;
  record.results = {flags.output};
  record.into = flags.into;
  record.test_name = test_name;
  record.min_trials = min_calibration_trials;
  const int recorded = record_baselines(record);
  if (recorded != 0) return recorded;
  const auto file = detail::baseline_path(flags.into, record.test_name);
  if (const auto test = detail::load_baseline(file, record.test_name)) {
    print_calibration(*test, flags.gate_trials);
  }
  return 0;
}

}  // namespace

void add_calibrate_command(CLI::App& app, action& selected,
                           const std::vector<std::string>& command_after_separator) {
  auto* calibrate_app = app.add_subcommand(
      "calibrate", "aorta calibrate --recipe RECIPE --output DIR --into DIR [--trials N] -- CMD: "
                   "run unchanged code N times, record it as the baseline (with each timed row's "
                   "noise) and print the trials each row needs");
  auto flags = std::make_shared<calibrate_flags>();
  calibrate_app->add_option("--recipe", flags->recipe, "Recipe: collectors and checks")->required();
  calibrate_app->add_option("--output,--output-dir", flags->output,
                            "Results directory of the A/A run")
      ->required();
  calibrate_app->add_option("--into", flags->into, "Baseline directory")->required();
  calibrate_app->add_option("--test-name", flags->test_name,
                            "The baseline's test name (default: the output directory's name)");
  calibrate_app->add_option("--trials", flags->trials, "A/A trials, 3 to 10000 (default 10)")
      ->check(CLI::Range(1, 10000).description(""));
  calibrate_app->add_option("--gate-trials", flags->gate_trials,
                            "Trials a side the gate will plan, 3 to 10000; rows needing more are "
                            "listed (default 5)")
      ->check(CLI::Range(3, 10000).description(""));
  calibrate_app->add_flag("--require-profiler", flags->require_profiler,
                          "Fail instead of skipping when a profiler or the GPU is missing");
  add_console_flags(*calibrate_app, flags->console);
  calibrate_app->callback([&selected, flags, &command_after_separator] {
    selected = [flags, &command_after_separator] {
      return calibrate(*flags, command_after_separator);
    };
  });
}

}  // namespace aorta::cli
