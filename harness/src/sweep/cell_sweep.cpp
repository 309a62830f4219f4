#include "sweep/cell_sweep.hpp"

#include "aorta/collector.hpp"
#include "aorta/report.hpp"
#include "cells/confound.hpp"
#include "cells/confound_paths.hpp"
#include "cells/interleave.hpp"
#include "cells/matrix_checks.hpp"
#include "cells/matrix_report.hpp"
#include "ranks/rank_plan.hpp"
#include "recipe/cell_plan.hpp"
#include "report/metric_measurements.hpp"
#include "sweep/cell_run_files.hpp"
#include "sweep/confound_choice.hpp"
#include "sweep/confound_policy.hpp"
#include "sweep/sweep_steps.hpp"
#include "sweep/tool_versions.hpp"
#include "sweep/trial_console.hpp"
#include "sweep/trial_recipes.hpp"
#include "sweep/trial_runner.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <memory>
#include <random>

namespace aorta::detail {
namespace {

// What one cell runs: its diagnostic's recipe and its mitigation's changes (both shared). Its
// command and environment are made for each trial (setup_for), never held per cell: a mitigation
// of 10^5 arguments under 4096 diagnostics would otherwise be copied 4096 times.
struct prepared_cell {
  cell_plan plan;
  std::shared_ptr<const recipe> spec;
  trial_setup setup;
  std::optional<std::string> unrunnable;  // why none of its trials can start here
  bool fail_unrunnable = false;
  bool other_lane = false;  // unrunnable because it is for another lane's platform
};

std::vector<std::string> cell_command(const cell_plan& plan, const sweep_request& request) {
  const cell_changes& changes = changes_of(plan);
  std::vector<std::string> command = changes.command.value_or(request.command);
  if (command.empty()) {
    throw usage_error(fmt::format(
        "cell '{}' has no command to run: give it after '--', or give its mitigation a "
        "command: (e.g. command: [build-pr/bench]) in the recipe",
        plan.name));
  }
  command.insert(command.end(), changes.extra_args.begin(), changes.extra_args.end());
  return command;
}

env_map cell_environment(const cell_plan& plan, env_map environment) {
  const cell_changes& changes = changes_of(plan);
  for (const auto& name : changes.env_unset) environment.erase(name);
  for (const auto& [name, value] : changes.env_set) environment.insert_or_assign(name, value);
  return environment;
}

// What every cell's trials share: the checks and the metric names to show.
struct shared_trial_inputs {
  std::shared_ptr<const std::vector<check_expression>> checks;
  std::shared_ptr<const std::vector<std::string>> measures;
};

prepared_cell prepare_cell(const cell_plan& plan, std::shared_ptr<const recipe> spec,
                           const shared_trial_inputs& shared, const env_map& environment,
                           const sweep_request& request) {
  prepared_cell cell{plan, std::move(spec), {}, std::nullopt, false};
  cell.setup.checks = shared.checks;
  cell.setup.measures = shared.measures;
  cell.setup.dry_run = request.dry_run;
  cell.setup.require_profiler = request.require_profiler;
  const std::vector<std::string> command = cell_command(plan, request);
  const env_map cell_env = cell_environment(plan, environment);
  {
    const plan_context planning{cell_env, true};
    try {
      (void)plan_trial_launch(*cell.spec, command, request.output_dir / plan.name / "trial_0",
                              planning);
    } catch (const skip_error&) {
      // A missing tool: the availability check below decides skip or failure.
    } catch (const usage_error& e) {
      throw usage_error(fmt::format("cell '{}': {}", plan.name, e.what()));
    }
  }
  if (auto reason = not_applicable_reason(*cell.spec, request.lane_platforms)) {
    cell.unrunnable = std::move(reason);
    cell.other_lane = true;
    return cell;
  }
  cell.setup.versions = tool_versions(*cell.spec, command, cell_env);
  if (auto reason = unavailable_collector(*cell.spec, cell_env, cell.setup.versions)) {
    cell.fail_unrunnable = request.require_profiler;
    cell.unrunnable = cell.fail_unrunnable
                          ? fmt::format("required profiler unavailable: {}", *reason)
                          : *reason;
  }
  return cell;
}

// What a trial ran (command, argv, environment) is in its result.json once run_trial returns; the
// records a cells run keeps for its judges (verdicts, metrics) drop it, or a mitigation of 10^5
// arguments would be held once per cell (4096 cells: 20 GB in a dry run).
void forget_launch_words(trial_record& record) {
  std::vector<std::string>().swap(record.command);
  std::vector<std::string>().swap(record.argv);
  std::map<std::string, std::string>().swap(record.env_set);
  std::vector<std::string>().swap(record.env_unset);
}

// One trial's setup: the cell's, with its command and environment made for this trial.
trial_setup setup_for(const prepared_cell& cell, const sweep_request& request,
                      const env_map& environment) {
  trial_setup setup = cell.setup;
  setup.spec = cell.spec.get();
  setup.command = cell_command(cell.plan, request);
  setup.working_directory = changes_of(cell.plan).working_directory;
  setup.environment = cell_environment(cell.plan, environment);
  return setup;
}

std::uint64_t choose_seed(const sweep_request& request) {
  if (request.seed) return *request.seed;
  std::random_device entropy;
  return (static_cast<std::uint64_t>(entropy()) << 32) ^ entropy();
}

void report_plan(const recipe& spec, const std::vector<prepared_cell>& cells, std::uint64_t seed,
                 const confound_choice& confound, reporting::reporter& report) {
  // "on the same GPU" only where a cell profiles one: a callgrind or gbench run has no GPU.
  const bool on_gpu = std::any_of(cells.begin(), cells.end(), [](const prepared_cell& cell) {
    return std::any_of(cell.spec->collect.begin(), cell.spec->collect.end(),
                       [](const collector_request& request) {
                         const auto* collector = find_collector(request.name);
                         return collector != nullptr && collector->profiles_gpu();
                       });
  });
  report.report(reporting::plan_event{
      spec.path.string(), spec.ticket,
      fmt::format("{} cell(s), interleaved one trial per cell per round (seed {}){}; confound "
                  "baseline cell {}, threshold {:g} ({})",
                  cells.size(), seed, on_gpu ? ", on the same GPU" : ", on this host",
                  cells[confound.baseline].plan.name, confound.threshold,
                  confound.threshold_source)});
  for (const auto& cell : cells) {
    std::vector<std::string> collectors;
    for (const auto& request : cell.spec->collect) collectors.push_back(request.name);
    report.report(reporting::cell_event{
        cell.plan.name, fmt::format("mitigations [{}], collectors [{}], {} trial(s)",
                                    fmt::join(cell.plan.mitigations, "+"),
                                    fmt::join(collectors, ", "), cell.plan.trials)});
  }
}

std::filesystem::path trial_dir_of(const sweep_request& request, const cell_plan& cell,
                                   int round) {
  return request.output_dir / cell.name / fmt::format("trial_{}", round);
}

cell_coordinates coordinates_of(const cell_plan& cell, int round, int position) {
  return cell_coordinates{cell.name, round, position, cell.mitigations, cell.diagnostic};
}

// A cell that cannot start here records one trial saying why; it takes no place in the rounds.
void record_unrunnable(const sweep_request& request, const env_map& environment,
                       const prepared_cell& cell, sweep_outcome& outcome,
                       std::vector<cell_trials>& by_cell, std::size_t index,
                       reporting::reporter& report) {
  trial_setup setup = setup_for(cell, request, environment);
  setup.index = 0;
  setup.trial_dir = trial_dir_of(request, cell.plan, 0);
  setup.cell = coordinates_of(cell.plan, 0, 0);
  auto record = record_unrunnable_trial(
      setup, cell.fail_unrunnable ? verdict::fail : verdict::skip, *cell.unrunnable);
  forget_launch_words(record);
  report.report(reporting::cell_event{
      cell.plan.name,
      fmt::format("{}: {}", cell.fail_unrunnable ? "FAILED" : "SKIPPED", record.reason)});
  by_cell[index].assign(1, record);
  outcome.trials.push_back(std::move(record));
}

std::string signal_text(int signal_number) {
  return ::sigabbrev_np(signal_number) != nullptr ? fmt::format("SIG{}", ::sigabbrev_np(signal_number))
                                                 : std::to_string(signal_number);
}

// Runs the schedule; returns the signal that stopped it, or 0.
int run_rounds(const sweep_request& request, const env_map& environment,
               const std::vector<prepared_cell>& cells,
               const std::vector<scheduled_trial>& schedule, signal_forwarding& interrupts,
               sweep_outcome& outcome, std::vector<cell_trials>& by_cell,
               reporting::reporter& report) {
  for (const auto& slot : schedule) {
    const auto& cell = cells[slot.cell];
    if (cell.unrunnable) continue;
    if (const int signal = interrupts.take_first_pending(); signal != 0) return signal;
    if (request.dry_run && slot.round > 0) continue;
    trial_setup setup = setup_for(cell, request, environment);
    setup.index = slot.round;
    setup.trial_dir = trial_dir_of(request, cell.plan, slot.round);
    setup.cell = coordinates_of(cell.plan, slot.round, slot.position);
    auto record = run_trial(setup, report);
    forget_launch_words(record);
    by_cell[slot.cell].resize(static_cast<std::size_t>(cell.plan.trials));
    by_cell[slot.cell][static_cast<std::size_t>(slot.round)] = record;
    outcome.trials.push_back(std::move(record));
    if (const auto during = outcome.trials.back().interrupted_by) return *during;
  }
  return interrupts.take_first_pending();
}

// The cell-addressed checks, reported as the trials' checks are. A failed one fails a run that
// would pass; a run whose trials were all skipped stays skipped (its checks fail as unknown).
exit_code judge_cell_checks(const std::vector<check_expression>& checks, matrix_run& run,
                            exit_code code, reporting::reporter& report) {
  int failed = 0;
  for (const auto& check : checks) {
    run.checks.push_back(judge_matrix_check(check, run.cells, run.trials));
    const check_result& result = run.checks.back();
    report.report(reporting::check_event{result, true});
    if (!result.passed) ++failed;
  }
  if (failed == 0 || code != exit_code::ok) return code;
  reporting::say(report,
                 fmt::format("FAILED: {} of {} cell check(s) failed", failed, checks.size()));
  return exit_code::failed;
}

exit_code judge_and_report(const sweep_request& request, const recipe& spec,
                           const std::vector<prepared_cell>& cells,
                           const std::vector<cell_trials>& by_cell,
                           const std::vector<check_expression>& cell_checks,
                           const confound_choice& confound, std::uint64_t seed, exit_code code,
                           std::string& judgement, reporting::reporter& report) {
  matrix_run run;
  for (const auto& cell : cells) run.cells.push_back(cell.plan);
  run.trials = by_cell;
  run.base_command = request.command;
  run.seed = seed;
  for (const auto& cell : cells) run.rounds = std::max(run.rounds, cell.plan.trials);
  run.threshold = confound.threshold;
  run.alpha = confound.alpha;
  run.fail_on_slower = confound.fail_on_slower;
  run.ambiguous = confound.ambiguous;
  if (cells.size() > 1) {
    run.baseline_cell = cells[confound.baseline].plan.name;
    run.rows = judge_cells(run.cells, by_cell, confound.baseline,
                           confound_settings{confound.threshold, confound.alpha}, &run.changes);
    place_leading_kernels(request.output_dir, run);
  }
  code = judge_cell_checks(cell_checks, run, code, report);
  write_matrix_reports(request.output_dir, run);
  if (!run.baseline_cell) return code;
  int slower = 0;
  int unknown = 0;
  for (const auto& row : run.rows) {
    slower += row.verdict == confound_verdict::slower ? 1 : 0;
    unknown += row.verdict == confound_verdict::unknown ? 1 : 0;
  }
  reporting::say(report,
                 fmt::format("confound verdicts against cell {} (threshold {:g}, paired by round):",
                             *run.baseline_cell, confound.threshold));
  report.report(reporting::table_event{
      "confound",
      confound_table(run.rows, spec.confound.has_value() || request.strict || slower > 0,
                     confound.threshold, confound.alpha)});
  for (const auto& change : run.changes)
    reporting::say(report, fmt::format("summary: {}", change.sentence));
  judgement = fmt::format("confound against cell {}: {} SLOWER, {} UNKNOWN of {} row(s)",
                          *run.baseline_cell, slower, unknown, run.rows.size());
  reporting::say(report,
                 fmt::format("confound: {} SLOWER, {} UNKNOWN of {} row(s) -> {}", slower, unknown,
                             run.rows.size(), (request.output_dir / "matrix.md").string()));
  // Per cell, not per trial: every trial printed its own measurements under the same names, so
  // CTest would keep whichever cell ran last.
  metric_set ratios;
  for (const auto& row : run.rows) {
    if (row.ratio) ratios.values[fmt::format("confound {}: {}", row.cell, row.quantity)] = *row.ratio;
  }
  report.report(reporting::measurements_event{metric_measurements(ratios)});
  const bool fails = (confound.fail_on_slower && slower > 0) || (request.strict && unknown > 0);
  if (fails && code == exit_code::ok) {
    // The sentences again: CTest's JUnit file and a CI log's last lines carry this line.
    std::vector<std::string> sentences;
    for (const auto& change : run.changes) sentences.push_back(change.sentence);
    reporting::say(report, fmt::format("FAILED: the confound verdicts fail the run ({}): {}",
                                       request.strict ? "--strict" : "confound.fail: true",
                                       fmt::join(sentences, " | ")));
    return exit_code::failed;
  }
  if (!confound.fail_on_slower) return code;
  return apply_ambiguous_policy(run.rows, confound.ambiguous, code, report);
}

// Exact counts (callgrind's Ir) need no rounds; anything that times needs the paired test's.
bool judged_on_times(const recipe& spec) {
  return std::any_of(spec.collect.begin(), spec.collect.end(), [](const collector_request& c) {
    const collector_base* collector = find_collector(c.name);
    return collector == nullptr || collector->measures_time();
  });
}

void refuse_unreachable(const std::vector<prepared_cell>& cells, const confound_choice& confound,
                        const sweep_request& request) {
  if (!confound.fail_on_slower) return;
  std::vector<cell_plan> plans;
  for (const auto& cell : cells) plans.push_back(cell.plan);
  std::vector<confound_pair> pairs;
  const auto references = reference_cells(plans, confound.baseline);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const auto& reference = references[i];
    if (!reference || cells[i].unrunnable || cells[*reference].unrunnable) continue;
    pairs.push_back({cells[i].plan.name, cells[*reference].plan.name,
                     std::min(cells[i].plan.trials, cells[*reference].plan.trials),
                     judged_on_times(*cells[i].spec) || judged_on_times(*cells[*reference].spec)});
  }
  refuse_unreachable_confound(pairs, confound.alpha,
                              request.strict ? "--strict" : "confound.fail: true");
}

}  // namespace

sweep_outcome run_cell_sweep(const sweep_request& request, const recipe& spec,
                             const std::vector<check_expression>& trial_checks,
                             const std::vector<check_expression>& cell_checks,
                             const env_map& environment, signal_forwarding& interrupts,
                             const std::function<void()>& launch, trial_console* console,
                             reporting::reporter& report) {
  auto plans = plan_cells(spec);
  if (request.trials) {
    for (auto& plan : plans) plan.trials = *request.trials;
    check_scheduled_trials(plans, "--trials", false);
  }
  trial_recipes recipes(spec);
  auto measures = spec.measure;
  measures.insert(measures.end(), request.measures.begin(), request.measures.end());
  const shared_trial_inputs shared{
      std::make_shared<const std::vector<check_expression>>(trial_checks),
      std::make_shared<const std::vector<std::string>>(std::move(measures))};
  std::vector<prepared_cell> cells;
  cells.reserve(plans.size());
  for (const auto& plan : plans) {
    cells.push_back(prepare_cell(plan, recipes.of(plan), shared, environment, request));
  }
  const confound_choice confound = choose_confound(spec, request, plans);
  refuse_unreachable(cells, confound, request);
  const std::uint64_t seed = choose_seed(request);
  report_plan(spec, cells, seed, confound, console != nullptr ? *console->live : report);
  launch();
  for (auto& cell : cells) cell.setup.console = console;

  sweep_outcome outcome;
  std::vector<cell_trials> by_cell(cells.size());
  std::vector<int> trials;
  if (!request.dry_run) forget_previous_run(request.output_dir, plans, request.command, seed);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    trials.push_back(cells[i].unrunnable ? 0 : cells[i].plan.trials);
    if (cells[i].unrunnable && !request.dry_run) {
      record_unrunnable(request, environment, cells[i], outcome, by_cell, i, report);
    }
  }
  const auto schedule = interleaved_schedule(trials, seed);
  if (console != nullptr) console->planned = static_cast<int>(schedule.size());
  const int stop_signal =
      run_rounds(request, environment, cells, schedule, interrupts, outcome, by_cell, report);
  if (request.dry_run) {
    reporting::say(
        report, fmt::format("dry run: recipe valid, {} cell(s), nothing launched", cells.size()));
    outcome.code = exit_code::ok;
    return outcome;
  }
  const exit_code code = summarize(outcome.trials, request.output_dir, report);
  if (stop_signal != 0) {
    const std::string why =
        fmt::format("interrupted by {}: stopped after {} of {} trial(s)", signal_text(stop_signal),
                    outcome.trials.size(), schedule.size());
    write_matrix_reports(request.output_dir,
                         incomplete_run(plans, by_cell, request.command, seed, why));
    reporting::say(report, fmt::format("{}; no cell check or confound verdict was judged", why));
    outcome.code = static_cast<exit_code>(128 + stop_signal);
    return outcome;
  }
  outcome.code = judge_and_report(request, spec, cells, by_cell, cell_checks, confound, seed, code,
                                  outcome.judgement, report);
  std::vector<compared_cell> compared;
  for (const auto& cell : cells) compared.push_back({cell.plan.name, !cell.other_lane});
  outcome.code = skip_when_a_cell_measured_nothing(compared, by_cell, outcome.code, report);
  return outcome;
}

}  // namespace aorta::detail
