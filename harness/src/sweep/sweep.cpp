#include "aorta/sweep.hpp"

#include "aorta/check.hpp"
#include "aorta/collector.hpp"
#include "aorta/launch_plan.hpp"
#include "aorta/recipe.hpp"
#include "checks/ncu_checks.hpp"
#include "process/signal_forwarding.hpp"
#include "ranks/rank_plan.hpp"
#include "recipe/cell_plan.hpp"
#include "reporting/console_reporter.hpp"
#include "reporting/ctest_reporter.hpp"
#include "reporting/event_recorder.hpp"
#include "reporting/reporter_fanout.hpp"
#include "sweep/cell_sweep.hpp"
#include "sweep/checked_recipe.hpp"
#include "sweep/gate_run.hpp"
#include "sweep/gpu_assignment.hpp"
#include "sweep/output_lock.hpp"
#include "sweep/refused_run.hpp"
#include "sweep/sweep_reporting.hpp"
#include "sweep/sweep_steps.hpp"
#include "sweep/tool_versions.hpp"
#include "sweep/trial_console.hpp"
#include "sweep/trial_runner.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <ostream>
#include <sstream>
#include <system_error>
#include <variant>

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

namespace {

// The recipe as this run's flags change it, and its checks split by who judges them. Refused (64)
// before anything is written when the flags and the recipe contradict each other.
struct run_recipe {
  recipe spec;
  std::vector<check_expression> checks;
  std::optional<detail::gate_spec> gate;
  std::vector<check_expression> trial_checks;  // judged on each trial
  std::vector<check_expression> cell_checks;   // judged once over the cells' trials
  bool cells = false;
};

run_recipe load_run_recipe(const sweep_request& request, reporting::reporter& report) {
  auto checked = detail::check_recipe(request);
  run_recipe loaded{
      std::move(checked.spec), std::move(checked.checks), std::move(checked.gate), {}, {}, false};
  recipe& spec = loaded.spec;
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
    report.report(reporting::note_event{
        reporting::severity::note,
        fmt::format("{}: key '{}' of the original aorta schema is accepted and ignored",
                    spec.path.string(), key),
        reporting::channel::diagnostic});
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
                                                detail::trial_setup& setup,
                                                reporting::reporter& report) {
  sweep_outcome outcome;
  if (const auto reason = detail::not_applicable_reason(spec, request.lane_platforms)) {
    if (request.dry_run) {
      report.report(reporting::note_event{
          reporting::severity::note, fmt::format("{}; a real run reports it skipped", *reason)});
    } else {
      setup.trial_dir = request.output_dir / "trial_0";
      outcome.trials.push_back(detail::record_unrunnable_trial(setup, verdict::skip, *reason));
      reporting::say(report, fmt::format("SKIPPED: {}", *reason));
      outcome.code = exit_code::skipped;
      return outcome;
    }
  }
  setup.versions = detail::tool_versions(spec, request.command, setup.environment);
  if (const auto reason = detail::unavailable_collector(spec, setup.environment, setup.versions)) {
    if (request.dry_run) {
      report.report(
          reporting::note_event{reporting::severity::note,
                                fmt::format("{} (the dry run shows the wrap anyway)", *reason)});
    } else {
      const bool fail = request.require_profiler;
      setup.trial_dir = request.output_dir / "trial_0";
      outcome.trials.push_back(detail::record_unrunnable_trial(
          setup, fail ? verdict::fail : verdict::skip,
          fail ? fmt::format("required profiler unavailable: {}", *reason) : *reason));
      reporting::say(
          report, fmt::format("{}: {}", fail ? "FAILED" : "SKIPPED", outcome.trials.back().reason));
      outcome.code = fail ? exit_code::failed : exit_code::skipped;
      return outcome;
    }
  }
  return std::nullopt;
}

// The gate judges; the sweep runs the extra trials it asks for between its looks. An extra trial
// that does not pass fails the run.
exit_code run_gated_trials(const sweep_request& request, const run_recipe& loaded,
                           detail::trial_setup& setup, std::vector<trial_record>& trials,
                           reporting::reporter& report) {
  auto opened = detail::gate_session::open(request, loaded.gate, loaded.checks, trials, report);
  if (const auto* code = std::get_if<exit_code>(&opened)) return *code;
  auto& gate = std::get<detail::gate_session>(opened);
  while (const int more = gate.more_trials(trials, report)) {
    for (int i = 0; i < more; ++i) {
      setup.index = static_cast<int>(trials.size());
      setup.trial_dir = request.output_dir / fmt::format("trial_{}", setup.index);
      trials.push_back(detail::run_trial(setup, report));
      if (trials.back().verdict != verdict::pass) {
        report.report(
            reporting::gate_event{fmt::format("gate: extra trial {} did not pass: {}",
                                              trials.back().trial_index, trials.back().reason)});
        return exit_code::failed;
      }
    }
  }
  return gate.close(trials, report);
}

// The trials one after another, then the regression gate when one was asked for. A signal stops
// the run after the current trial.
sweep_outcome run_trials(const sweep_request& request, const run_recipe& loaded,
                         detail::trial_setup& setup, detail::signal_forwarding& interrupts,
                         reporting::reporter& report) {
  const recipe& spec = loaded.spec;
  sweep_outcome outcome;
  if (!request.dry_run) detail::remove_stale_trials(request.output_dir, spec.trials);
  int stop_signal = 0;
  for (int index = 0; index < spec.trials; ++index) {
    if ((stop_signal = interrupts.take_first_pending()) != 0) break;
    setup.index = index;
    setup.trial_dir = request.output_dir / fmt::format("trial_{}", index);
    outcome.trials.push_back(detail::run_trial(setup, report));
    if (const auto during = outcome.trials.back().interrupted_by) {
      stop_signal = *during;  // the first one received, as the trial recorded it
      break;
    }
  }
  if (stop_signal == 0) stop_signal = interrupts.take_first_pending();
  if (stop_signal != 0 && !request.dry_run) {
    static_cast<void>(detail::summarize(outcome.trials, request.output_dir, report));
    reporting::say(report, fmt::format("interrupted by {}: stopped after {} of {} trial(s)",
                                       ::sigabbrev_np(stop_signal) != nullptr
                                           ? fmt::format("SIG{}", ::sigabbrev_np(stop_signal))
                                           : std::to_string(stop_signal),
                                       outcome.trials.size(), spec.trials));
    outcome.code = static_cast<exit_code>(128 + stop_signal);
    return outcome;
  }
  if (request.dry_run) {
    reporting::say(report, "dry run: recipe valid, nothing launched");
    outcome.code = exit_code::ok;
    return outcome;
  }
  // A gate may add trials and turn the last one's verdict: the totals are printed after it, so
  // they never say "passed" above a verdict line that says the run failed.
  const bool gated = detail::gate_requested(request, spec, loaded.checks);
  outcome.code = detail::verdicts_exit_code(outcome.trials);
  if (outcome.code == exit_code::ok && gated) {
    outcome.code = run_gated_trials(request, loaded, setup, outcome.trials, report);
    if (outcome.code == exit_code::ok) outcome.judgement = detail::gate_pass_judgement(outcome.trials);
  }
  static_cast<void>(detail::summarize(outcome.trials, request.output_dir, report));
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
sweep_outcome run_checked_sweep(const sweep_request& request, detail::signal_forwarding& interrupts,
                                bool& launching, detail::trial_console* console,
                                reporting::reporter& report) {
  reporting::reporter& live = console != nullptr ? *console->live : report;
  const run_recipe loaded = load_run_recipe(request, report);
  const recipe& spec = loaded.spec;
  env_map environment = current_environment();
  for (const auto& [name, value] : detail::gpu_visibility(environment)) {
    reporting::say(report, fmt::format("CTest allocated GPU(s) {}: setting {}", value, name));
    environment.insert_or_assign(name, value);
  }

  std::optional<detail::output_lock> lock;
  if (loaded.cells) {
    detail::refuse_gate_over_cells(request, spec, loaded.checks);
    return detail::run_cell_sweep(
        request, spec, loaded.trial_checks, loaded.cell_checks, environment, interrupts,
        [&] { start_launching(request, lock, launching); }, console, report);
  }

  live.report(reporting::plan_event{spec.path.string(), spec.ticket,
                                    fmt::format("collectors [{}], {} trial(s), {} check(s)",
                                                detail::collector_list(spec), spec.trials,
                                                loaded.checks.size())});
  // Said once, and only when nothing else judges the trials: the gate judges a gated test.
  if (loaded.trial_checks.empty() && !detail::gate_requested(request, spec, loaded.checks)) {
    live.report(reporting::note_event{reporting::severity::note,
                                      "no checks (none in the recipe, no --check, no gate): only "
                                      "the payload's exit status is judged"});
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
  if (console != nullptr) console->planned = spec.trials;
  if (auto unrunnable = unrunnable_outcome(request, spec, setup, report)) return *unrunnable;
  return run_trials(request, loaded, setup, interrupts, report);
}

}  // namespace

namespace detail {

sweep_console::sweep_console(const sweep_request& request, std::ostream& out, std::ostream& err)
    : console_(out, err,
               reporting::console_options{"aorta: ", request.detail != console_detail::quiet}),
      ctest_(out) {
  fanout_.add(console_);
  if (request.ctest_measurements) fanout_.add(ctest_);
}

sweep_outcome run_reported_sweep(const sweep_request& request, reporting::reporter& live) {
  // Held for the whole run: a SIGINT/SIGTERM/SIGHUP at any point stops it after the current
  // trial (which records it) instead of killing aorta between two writes.
  detail::signal_forwarding interrupts;
  detail::check_output_path(request.output_dir);
  bool launching = false;
  // Below --verbose the run's own lines are held until its verdict is known, so the verdict
  // comes first; progress goes to `live` as it happens.
  const bool held = request.detail != console_detail::verbose && !request.dry_run;
  detail::trial_console console;
  console.detail = request.detail;
  console.live = &live;
  reporting::event_recorder after(&live);
  try {
    sweep_outcome outcome = run_checked_sweep(request, interrupts, launching,
                                              held ? &console : nullptr, held ? after : live);
    if (held) {
      detail::report_verdict_and_detail(console, outcome, after);
    } else if (!request.dry_run) {
      live.report(reporting::run_verdict_event{
          detail::verdict_line(outcome, static_cast<int>(outcome.trials.size()))});
    }
    return outcome;
  } catch (const usage_error& refusal) {
    after.replay(live);
    // Recorded and passed on: main() stays the one place that turns it into exit 64.
    if (!launching && !request.dry_run) detail::record_refused_run(request, refusal.what(), live);
    throw;
  } catch (...) {
    after.replay(live);  // what the run reported before it broke is still the reader's
    throw;
  }
}

}  // namespace detail

sweep_outcome run_sweep(const sweep_request& request, std::ostream& out, std::ostream& err) {
  detail::sweep_console console(request, out, err);
  return detail::run_reported_sweep(request, console.reporters());
}

}  // namespace aorta
