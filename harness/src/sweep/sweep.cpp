#include "aorta/sweep.hpp"

#include "aorta/check.hpp"
#include "aorta/collector.hpp"
#include "aorta/launch_plan.hpp"
#include "aorta/recipe.hpp"
#include "process/signal_forwarding.hpp"
#include "sweep/gate_run.hpp"
#include "baseline/default_gate.hpp"
#include "cells/matrix_checks.hpp"
#include "checks/ncu_checks.hpp"
#include "recipe/ab_cells.hpp"
#include "recipe/cell_plan.hpp"
#include "sweep/refused_run.hpp"
#include "sweep/cell_sweep.hpp"
#include "ranks/rank_plan.hpp"
#include "sweep/gpu_assignment.hpp"
#include "sweep/output_lock.hpp"
#include "sweep/sweep_steps.hpp"
#include "sweep/tool_versions.hpp"
#include "sweep/trial_console.hpp"
#include "sweep/trial_runner.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cmath>
#include <csignal>
#include <cstring>
#include <algorithm>
#include <filesystem>
#include <iterator>
#include <ostream>
#include <sstream>
#include <system_error>

namespace aorta {
namespace detail {
namespace {

std::string collector_list(const recipe& spec) {
  std::string names;
  for (const auto& request : spec.collect) names += (names.empty() ? "" : ", ") + request.name;
  return names.empty() ? "none" : names;
}

}  // namespace

void remove_stale_trials(const std::filesystem::path& output_dir, int trials) {
  std::error_code ec;
  if (!std::filesystem::is_directory(output_dir, ec)) return;
  for (const auto& entry : std::filesystem::directory_iterator(output_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("trial_") || name.size() == 6) continue;
    const std::string digits = name.substr(6);
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 6) continue;
    if (std::stoi(digits) < trials) continue;
    std::filesystem::remove_all(entry.path(), ec);
  }
}

// --timeout (what CMake's TIMEOUT becomes) is held to the recipe's range: out of it, NaN or
// infinite it would be no limit at all or overflow the clock.
void check_timeout_flag(double seconds) {
  if (std::isfinite(seconds) && seconds >= min_timeout_seconds && seconds <= max_timeout_seconds) {
    return;
  }
  throw usage_error(fmt::format("--timeout: {} s is out of range; allowed: {} to {} seconds (30 "
                                "days), as for the recipe's timeout. Fix: give the limit in "
                                "seconds within that range, e.g. --timeout 1800",
                                seconds, min_timeout_seconds, max_timeout_seconds));
}


}  // namespace detail

std::vector<check_expression> parse_checks(const recipe& spec,
                                           const std::vector<std::string>& extra) {
  std::vector<std::string> cells;
  if (detail::has_cells(spec)) {
    for (const auto& cell : detail::plan_cells(spec)) cells.push_back(cell.name);
  }
  std::vector<check_expression> checks;
  for (const auto& check : spec.checks) {
    try {
      checks.push_back(check_expression::parse(check.expression));
      if (auto why = detail::unknown_cell_reason(checks.back(), cells); !why.empty()) {
        throw usage_error(why);
      }
    } catch (const usage_error& e) {
      throw recipe_error(fmt::format("{}: check: {}", check.where.to_string(), e.what()));
    }
  }
  for (const auto& text : extra) {
    try {
      checks.push_back(check_expression::parse(text));
      if (auto why = detail::unknown_cell_reason(checks.back(), cells); !why.empty()) {
        throw usage_error(why);
      }
    } catch (const usage_error& e) {
      throw usage_error(fmt::format("--check: {}", e.what()));
    }
  }
  return checks;
}

namespace {

// The recipe as this run's flags change it, and its checks split by who judges them. Refused (64)
// before anything is written when the flags and the recipe contradict each other.
struct checked_recipe {
  recipe spec;
  std::vector<check_expression> checks;
  std::vector<check_expression> trial_checks;  // judged on each trial
  std::vector<check_expression> cell_checks;   // judged once over the cells' trials
  bool cells = false;
};

checked_recipe load_checked_recipe(const sweep_request& request, std::ostream& err) {
  checked_recipe loaded{load_recipe(request.recipe_path, request.mitigations_files), {}, {}, {},
                        false};
  recipe& spec = loaded.spec;
  if (request.collect_override) apply_collect_override(spec, *request.collect_override);
  if (request.trials) detail::apply_trials_flag(spec, *request.trials);
  if (request.ab_base || request.ab_head) {
    detail::make_ab_cells(spec, {request.ab_base.value_or(""), request.ab_base_directory},
                          {request.ab_head.value_or(""), request.ab_head_directory},
                          request.command);
  }
  loaded.checks = parse_checks(spec, request.extra_checks);
  const auto& checks = loaded.checks;
  require_collectors_for_checks(spec, checks);
  // The regression gate judges the run too (a baseline, a gate spec or a baseline check), so a
  // gated test with no check of its own is not one that only its exit status judges.
  if (checks.empty() && request.require_checks &&
      !detail::gate_requested(request, spec, checks)) {
    throw usage_error(fmt::format(
        "{}: no checks: the recipe has no `check:` and no --check was given, and there is no "
        "regression gate (--baseline, --gate), so only the payload's exit status would be "
        "judged. Add a CHECK or a BASELINE to aorta_add_profiled_test() or a `check:` to the "
        "recipe (or turn AORTA_REQUIRE_CHECKS off for this test)",
        spec.path.string()));
  }
  if (request.timeout_seconds) detail::check_timeout_flag(*request.timeout_seconds);
  if (request.timeout_seconds &&
      (!spec.timeout_seconds || *request.timeout_seconds < *spec.timeout_seconds)) {
    spec.timeout_seconds = *request.timeout_seconds;
    spec.timeout_key = detail::command_line_timeout_key;
  }
  if (request.gate) (void)detail::parse_gate_spec(*request.gate);
  // Baseline checks are judged over all trials by the gate, cell checks over the cells' trials,
  // neither per trial.
  std::copy_if(checks.begin(), checks.end(), std::back_inserter(loaded.trial_checks),
               [](const check_expression& c) { return !c.baseline() && !c.cell(); });
  std::copy_if(checks.begin(), checks.end(), std::back_inserter(loaded.cell_checks),
               [](const check_expression& c) { return c.cell().has_value(); });
  loaded.cells = detail::has_cells(spec);
  if (request.command.empty() && !loaded.cells) {
    throw usage_error(
        "no command to run: give it after '--', e.g. aorta sweep run --recipe r.yaml --output out "
        "-- python3 payload.py");
  }
  if (!loaded.cells && (request.baseline_cell || request.confound_threshold || request.strict)) {
    throw usage_error(fmt::format(
        "--baseline-cell, --confound-threshold and --strict judge the cells of a recipe, and {} "
        "has one cell (mitigation_axis and diagnostic_axis are [none]). Fix: drop the flag, or "
        "put the cells on the axes (docs/recipes.md, 'Cells')",
        spec.path.string()));
  }
  for (const auto& key : spec.ignored_keys) {
    fmt::print(err,
               "aorta: note: {}: key '{}' of the original aorta schema is accepted and "
               "ignored\n",
               spec.path.string(), key);
  }
  return loaded;
}

// A recipe that cannot wrap this command is wrong on every machine: refuse it (64) before asking
// whether this one has the profiler, so a GPU-less CI catches it as `--dry-run` does instead of
// skipping it (77). Planning launches nothing and writes nothing.
void refuse_unwrappable_command(const sweep_request& request, const recipe& spec,
                                const env_map& environment) {
  // Planned as the trial plans it (a launcher's payload per rank), but as a dry run: a missing
  // profiler is named, not refused.
  const plan_context planning{environment, true};
  try {
    (void)detail::plan_trial_launch(spec, request.command, request.output_dir / "trial_0",
                                    planning);
  } catch (const skip_error&) {
    // A missing tool: the availability check below decides skip or failure.
  }
}

// The outcome when no trial can run on this machine (the lane does not cover the recipe's
// collectors, or a collector is unavailable), recorded in trial_0; nullopt when trials may run. A
// dry run only notes why. Fills setup.versions.
std::optional<sweep_outcome> unrunnable_outcome(const sweep_request& request, const recipe& spec,
                                                detail::trial_setup& setup, std::ostream& out) {
  sweep_outcome outcome;
  if (const auto reason = detail::not_applicable_reason(spec, request.lane_platforms)) {
    if (request.dry_run) {
      fmt::print(out, "aorta: note: {}; a real run reports it skipped\n", *reason);
    } else {
      setup.trial_dir = request.output_dir / "trial_0";
      outcome.trials.push_back(detail::record_unrunnable_trial(setup, verdict::skip, *reason));
      fmt::print(out, "aorta: SKIPPED: {}\n", *reason);
      outcome.code = exit_code::skipped;
      return outcome;
    }
  }
  setup.versions = detail::tool_versions(spec, request.command, setup.environment);
  if (const auto reason = detail::unavailable_collector(spec, setup.environment, setup.versions)) {
    if (request.dry_run) {
      fmt::print(out, "aorta: note: {} (the dry run shows the wrap anyway)\n", *reason);
    } else {
      const bool fail = request.require_profiler;
      setup.trial_dir = request.output_dir / "trial_0";
      outcome.trials.push_back(detail::record_unrunnable_trial(
          setup, fail ? verdict::fail : verdict::skip,
          fail ? fmt::format("required profiler unavailable: {}", *reason) : *reason));
      fmt::print(out, "aorta: {}: {}\n", fail ? "FAILED" : "SKIPPED", outcome.trials.back().reason);
      outcome.code = fail ? exit_code::failed : exit_code::skipped;
      return outcome;
    }
  }
  return std::nullopt;
}

// The trials one after another, then the regression gate when one was asked for. A signal stops
// the run after the current trial.
sweep_outcome run_trials(const sweep_request& request, const checked_recipe& loaded,
                         detail::trial_setup& setup, detail::signal_forwarding& interrupts,
                         std::ostream& out, std::ostream& err) {
  const recipe& spec = loaded.spec;
  sweep_outcome outcome;
  if (!request.dry_run) detail::remove_stale_trials(request.output_dir, spec.trials);
  int stop_signal = 0;
  for (int index = 0; index < spec.trials; ++index) {
    if ((stop_signal = interrupts.take_first_pending()) != 0) break;
    setup.index = index;
    setup.trial_dir = request.output_dir / fmt::format("trial_{}", index);
    outcome.trials.push_back(detail::run_trial(setup, out, err));
    if (const auto during = outcome.trials.back().interrupted_by) {
      stop_signal = *during;  // the first one received, as the trial recorded it
      break;
    }
  }
  if (stop_signal == 0) stop_signal = interrupts.take_first_pending();
  if (stop_signal != 0 && !request.dry_run) {
    static_cast<void>(detail::summarize(outcome.trials, request.output_dir, out));
    fmt::print(out, "aorta: interrupted by {}: stopped after {} of {} trial(s)\n",
               ::sigabbrev_np(stop_signal) != nullptr
                   ? fmt::format("SIG{}", ::sigabbrev_np(stop_signal))
                   : std::to_string(stop_signal),
               outcome.trials.size(), spec.trials);
    outcome.code = static_cast<exit_code>(128 + stop_signal);
    return outcome;
  }
  if (request.dry_run) {
    fmt::print(out, "aorta: dry run: recipe valid, nothing launched\n");
    outcome.code = exit_code::ok;
    return outcome;
  }
  // A gate may add trials and turn the last one's verdict: the totals are printed after it, so
  // they never say "passed" above a verdict line that says the run failed.
  const bool gated = detail::gate_requested(request, spec, loaded.checks);
  outcome.code = detail::verdicts_exit_code(outcome.trials);
  if (outcome.code == exit_code::ok && gated) {
    outcome.code = detail::run_gate(request, spec, loaded.checks, outcome.trials, [&](int index) {
      setup.index = index;
      setup.trial_dir = request.output_dir / fmt::format("trial_{}", index);
      return detail::run_trial(setup, out, err);
    }, out);
    if (outcome.code == exit_code::ok) outcome.judgement = detail::gate_pass_judgement(outcome.trials);
  }
  static_cast<void>(detail::summarize(outcome.trials, request.output_dir, out));
  return outcome;
}

// Every usage refusal comes before this: a refused run neither waits on nor writes into a
// directory another run holds (it was refused with exit 1, "in use by another aorta run"). Takes
// the output directory's lock; from here trials may write there.
void start_launching(const sweep_request& request, std::optional<detail::output_lock>& lock,
                     bool& launching) {
  if (!request.dry_run) lock.emplace(request.output_dir);
  launching = true;
  if (!request.dry_run) detail::forget_refused_run(request);
}

// The sweep after its output path was checked; `launching` turns true once trials may write
// their directories, after which a refusal is not recorded in trial_0.
sweep_outcome run_checked_sweep(const sweep_request& request,
                                detail::signal_forwarding& interrupts, bool& launching,
                                detail::trial_console* console, std::ostream& out,
                                std::ostream& err) {
  std::ostream& live = console != nullptr ? *console->live : out;
  const checked_recipe loaded = load_checked_recipe(request, err);
  const recipe& spec = loaded.spec;
  env_map environment = current_environment();
  for (const auto& [name, value] : detail::gpu_visibility(environment)) {
    fmt::print(out, "aorta: CTest allocated GPU(s) {}: setting {}\n", value, name);
    environment.insert_or_assign(name, value);
  }

  std::optional<detail::output_lock> lock;
  if (loaded.cells) {
    detail::refuse_gate_over_cells(request, spec, loaded.checks);
    return detail::run_cell_sweep(request, spec, loaded.trial_checks, loaded.cell_checks,
                                  environment, interrupts,
                                  [&] { start_launching(request, lock, launching); }, console,
                                  out, err);
  }

  fmt::print(live, "aorta: recipe {}{}: collectors [{}], {} trial(s), {} check(s)\n",
             spec.path.string(), spec.ticket.empty() ? "" : fmt::format(" ({})", spec.ticket),
             detail::collector_list(spec), spec.trials, loaded.checks.size());
  // Said once, and only when nothing else judges the trials: the gate judges a gated test.
  if (loaded.trial_checks.empty() && !detail::gate_requested(request, spec, loaded.checks)) {
    fmt::print(live, "aorta: note: no checks (none in the recipe, no --check, no gate): only the "
                     "payload's exit status is judged\n");
  }
  refuse_unwrappable_command(request, spec, environment);

  start_launching(request, lock, launching);
  detail::trial_setup setup;
  setup.spec = &spec;
  setup.checks = std::make_shared<const std::vector<check_expression>>(loaded.trial_checks);
  setup.command = request.command;
  auto measures = spec.measure;
  measures.insert(measures.end(), request.measures.begin(), request.measures.end());
  setup.measures = std::make_shared<const std::vector<std::string>>(std::move(measures));
  setup.environment = environment;
  setup.dry_run = request.dry_run;
  setup.require_profiler = request.require_profiler;
  setup.console = console;
  setup.ctest_measurements = request.ctest_measurements;
  if (console != nullptr) console->planned = spec.trials;
  if (auto unrunnable = unrunnable_outcome(request, spec, setup, out)) return *unrunnable;
  return run_trials(request, loaded, setup, interrupts, out, err);
}

}  // namespace

sweep_outcome run_sweep(const sweep_request& request, std::ostream& out, std::ostream& err) {
  // Held for the whole run: a SIGINT/SIGTERM/SIGHUP at any point stops it after the current
  // trial (which records it) instead of killing aorta between two writes.
  detail::signal_forwarding interrupts;
  detail::check_output_path(request.output_dir);
  bool launching = false;
  // Below --verbose the run's own lines are held until its verdict is known, so the verdict
  // comes first; progress goes to `out` as it happens.
  const bool held = request.detail != console_detail::verbose && !request.dry_run;
  detail::trial_console console;
  console.detail = request.detail;
  console.live = &out;
  std::ostringstream after;
  try {
    sweep_outcome outcome = run_checked_sweep(request, interrupts, launching,
                                              held ? &console : nullptr, held ? after : out, err);
    if (held) {
      detail::print_verdict_and_detail(console, outcome, after.str());
    } else if (!request.dry_run) {
      fmt::print(out, "{}\n", detail::verdict_line(outcome, static_cast<int>(outcome.trials.size())));
    }
    return outcome;
  } catch (const usage_error& refusal) {
    out << after.str();
    // Recorded and passed on: main() stays the one place that turns it into exit 64.
    if (!launching && !request.dry_run) detail::record_refused_run(request, refusal.what(), err);
    throw;
  } catch (...) {
    out << after.str();  // what the run printed before it broke is still the reader's
    throw;
  }
}

}  // namespace aorta
