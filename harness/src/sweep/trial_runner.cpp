#include "sweep/trial_runner.hpp"

#include "aorta/collector.hpp"
#include "aorta/metrics.hpp"
#include "aorta/report.hpp"
#include "checks/metric_selection.hpp"
#include "collectors/capture_reading.hpp"
#include "evaluation/capture_evaluation.hpp"
#include "metrics/metrics_table.hpp"
#include "process/process.hpp"
#include "ranks/rank_plan.hpp"
#include "record/trial_dir.hpp"
#include "record/verdict_rules.hpp"
#include "report/metric_measurements.hpp"
#include "reporting/console_reporter.hpp"
#include "reporting/event_recorder.hpp"
#include "sweep/capture_watch.hpp"
#include "sweep/exit_verdict.hpp"
#include "sweep/rank_trial.hpp"
#include "sweep/trial_console.hpp"
#include "utc_timestamp.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <iterator>

#include <chrono>
#include <optional>
#include <ostream>
#include <sstream>

namespace aorta::detail {
namespace {

const std::vector<check_expression>& checks_of(const trial_setup& setup) {
  static const std::vector<check_expression> none;
  return setup.checks != nullptr ? *setup.checks : none;
}

const std::vector<std::string>& measures_of(const trial_setup& setup) {
  static const std::vector<std::string> none;
  return setup.measures != nullptr ? *setup.measures : none;
}

std::vector<std::string> attaching_collectors(const recipe& spec) {
  std::vector<std::string> names;
  for (const auto& request : spec.collect) {
    const auto* collector = find_collector(request.name);
    if (collector != nullptr && collector->attaches()) names.push_back(request.name);
  }
  return names;
}

// The dry run's view of a multi-rank launch: where each rank's outputs will go.
void report_rank_layout(const rank_launch& ranks, const std::vector<std::string>& collectors,
                        const std::filesystem::path& trial_dir, const std::string& label,
                        reporting::reporter& report) {
  const auto say = [&report](std::string text) {
    report.report(reporting::note_event{reporting::severity::info, std::move(text)});
  };
  say(fmt::format(
      "{}: multi-rank payload: launcher {}, {} rank(s), rank from {}", label, ranks.split.launcher,
      ranks.expected_ranks ? std::to_string(*ranks.expected_ranks) : "as many as the ranks report",
      fmt::join(ranks.split.rank_variables, ", ")));
  say(fmt::format("{}: every rank runs: {}", label,
                  reporting::pasteable_command(ranks.split.rank_command)));
  const int shown = ranks.expected_ranks.value_or(1);
  for (int rank = 0; rank < shown; ++rank) {
    const auto dir = rank_directory(trial_dir, rank);
    say(fmt::format("{}: rank {} -> {}/{{{}}}", label,
                    ranks.expected_ranks ? std::to_string(rank) : "<r>",
                    ranks.expected_ranks ? dir.string() : (trial_dir / "rank_<r>").string(),
                    fmt::join(collectors, ",")));
  }
}

// The payload's log is incomplete (disk full, `ulimit -f`): what it printed cannot be read back,
// so the trial cannot pass, but its record is still written.
void fail_on_incomplete_log(const std::string& failure, const std::string& label,
                            trial_record& record, reporting::reporter& report) {
  const std::string note = fmt::format("the payload's output log is incomplete: {}", failure);
  report.report(reporting::note_event{reporting::severity::error,
                                      fmt::format("{}: {}", label, note),
                                      reporting::channel::diagnostic});
  record.notes.push_back(note);
  fail_unless_failed(record, note);
}

trial_record new_record(const trial_setup& setup) {
  const recipe& spec = *setup.spec;
  trial_record record;
  record.aorta_version = AORTA_VERSION;
  record.recipe_path = spec.path.string();
  record.ticket = spec.ticket;
  record.trial_index = setup.index;
  record.command = setup.command;
  record.collectors = attaching_collectors(spec);
  record.versions = setup.versions;
  record.started_at = utc_timestamp();
  record.working_directory = setup.working_directory.empty()
                                 ? std::filesystem::current_path().string()
                                 : setup.working_directory.string();
  record.cell = setup.cell;
  return record;
}

// The plan that wraps the command, or nothing when a collector cannot wrap it here: the record
// then holds the verdict and why (the dry run prints it; a real run writes result.json too).
struct planned_launch {
  std::optional<rank_launch> ranks;
  launch_plan plan;
};

std::optional<planned_launch> plan_or_record_why_not(const trial_setup& setup, trial_record& record,
                                                     reporting::reporter& report) {
  try {
    trial_launch launch = plan_trial_launch(*setup.spec, setup.command, setup.trial_dir,
                                            plan_context{setup.environment, setup.dry_run});
    return planned_launch{std::move(launch.ranks), std::move(launch.plan)};
  } catch (const skip_error& missing) {
    const verdict outcome = setup.require_profiler ? verdict::fail : verdict::skip;
    if (!setup.dry_run) {
      record = record_unrunnable_trial(setup, outcome, missing.what());
      return std::nullopt;
    }
    decide_verdict(record, outcome, missing.what());
    report.report(reporting::note_event{
        reporting::severity::info,
        fmt::format("trial {}: cannot wrap here: {}", setup.index, record.reason)});
    return std::nullopt;
  }
}

std::string trial_label(const trial_setup& setup) {
  return setup.cell ? fmt::format("cell {} trial {}", setup.cell->name, setup.index)
                    : fmt::format("trial {}", setup.index);
}

void report_dry_run(const trial_setup& setup, const planned_launch& planned,
                    const std::string& label, trial_record& record, reporting::reporter& report) {
  const launch_plan& plan = planned.plan;
  report.report(reporting::launch_event{
      label, plan.argv, reporting::launch_kind::dry_run,
      std::vector<std::pair<std::string, std::string>>(plan.env_set.begin(), plan.env_set.end()),
      plan.env_unset});
  if (planned.ranks) {
    report_rank_layout(*planned.ranks, record.collectors, setup.trial_dir, label, report);
  }
  decide_verdict(record, verdict::skip, "dry run: nothing was launched");
}

// Runs the wrapped command to its end, watched for a payload that hangs after a complete capture.
process_result launch_payload(const trial_setup& setup, const launch_plan& plan,
                              const std::string& label, reporting::reporter& report) {
  const recipe& spec = *setup.spec;
  process_spec launch;
  launch.argv = plan.argv;
  launch.environment = plan.child_environment(setup.environment);
  launch.stdout_log = setup.trial_dir / "stdout.log";
  launch.stderr_log = setup.trial_dir / "stderr.log";
  launch.working_directory = setup.working_directory;
  launch.echo = setup.console == nullptr;
  if (spec.timeout_seconds) {
    // The recipe holds it to [min_timeout_seconds, max_timeout_seconds]: no overflow, never 0.
    launch.timeout = std::chrono::ceil<std::chrono::milliseconds>(
        std::chrono::duration<double>(*spec.timeout_seconds));
  }
  capture_watch watch(spec, setup.trial_dir, setup.versions,
                      std::chrono::ceil<std::chrono::milliseconds>(
                          std::chrono::duration<double>(spec.capture_exit_grace_seconds)));
  if (watch.active()) launch.stop_when = [&watch] { return watch.hung(); };
  // Held back below --verbose, the command is shown only if the trial fails (run_trial).
  if (setup.console == nullptr) {
    report.report(
        reporting::launch_event{label, plan.argv, reporting::launch_kind::running, {}, {}});
    report.flush();
  }
  const process_result result = run_process(launch);
  watch.stop();  // the payload has ended: no probe may race the reads that follow
  return result;
}

// The payload's ending, or nothing when it could not be started (not found, not executable, a
// log that cannot be opened): the trial then fails with that reason in its result.json, like any
// failed trial, so the remaining trials and cells still run and the record says why.
std::optional<process_result>
start_or_record_why_not(const trial_setup& setup, const launch_plan& plan, const std::string& label,
                        trial_record& record, reporting::reporter& report) {
  try {
    return launch_payload(setup, plan, label, report);
  } catch (const setup_error& failed) {
    decide_verdict(record, verdict::fail, failed.what());
    report.report(reporting::trial_verdict_event{label, record.verdict, record.reason});
    write_trial_result(setup.trial_dir, record);
    return std::nullopt;
  }
}

// How the payload ended, into the record and on the console; then the exit verdict.
void record_ending(const trial_setup& setup, const process_result& result, const std::string& label,
                   trial_record& record, reporting::reporter& report) {
  record.exit_status = result.exit_status;
  record.signal = result.signal;
  record.timed_out = result.timed_out;
  record.interrupted_by = result.interrupted_by;
  record.wall_seconds = result.wall_seconds;
  const std::string ending = result.stopped ? "hung after a complete capture"
                                            : result.describe(timeout_origin(*setup.spec));
  report.report(reporting::trial_end_event{label, ending, result.wall_seconds});
  for (const auto& escaped : result.escaped) {
    record.escaped_processes.push_back(fmt::format("pid {}: {}", escaped.pid, escaped.command));
  }
  if (!record.escaped_processes.empty()) {
    const std::string note = fmt::format(
        "{} process(es) escaped the payload's process group (setsid or a double fork) and were "
        "still running after it ended; aorta killed them: {}",
        record.escaped_processes.size(), fmt::join(record.escaped_processes, "; "));
    report.report(reporting::note_event{reporting::severity::warning,
                                        fmt::format("{}: {}", label, note),
                                        reporting::channel::diagnostic});
    record.notes.push_back(note);
  }
  judge_exit(setup, result, record);
  if (result.log_failure) fail_on_incomplete_log(*result.log_failure, label, record, report);
}

// The captures the checks judge, and the ranks they read: a trial without ranks is one rank
// holding every capture, moved there (a copy of each capture, its kernels and frames, was made
// per trial), and the checks read both views from that one.
struct trial_captures {
  std::vector<capture> captures;  // a multi-rank trial's sum over ranks; empty without ranks
  std::vector<rank_captures> rank_sets;
  bool multi_rank = false;

  [[nodiscard]] const std::vector<capture>& judged() const {
    return multi_rank ? captures : rank_sets.front().captures;
  }
};

trial_captures read_trial_captures(const trial_setup& setup,
                                   const std::optional<rank_launch>& ranks, trial_record& record,
                                   reporting::reporter& report) {
  const recipe& spec = *setup.spec;
  trial_captures read;
  read.multi_rank = ranks.has_value();
  const bool frames_needed = checks_need_frames(checks_of(setup));
  if (record.verdict != verdict::skip && ranks) {
    read.rank_sets = record_rank_captures(spec, setup.trial_dir, ranks->expected_ranks, record,
                                          read.captures, report, frames_needed);
  } else if (record.verdict != verdict::skip) {
    std::vector<capture_source> sources;
    for (const auto& request : spec.collect) {
      sources.push_back(capture_source{&request, setup.trial_dir / request.name});
    }
    read_captures(sources, setup.versions, spec.allow_empty, record, read.captures,
                  frames_needed);
  }
  if (!ranks) read.rank_sets.push_back(rank_captures{0, {}, {}, std::move(read.captures), {}, {}});
  return read;
}

// With neither checks nor chosen metrics there is nothing to focus on: the table shows
// everything (loader and libc frames folded), the measurements all but those frames.
void report_trial_measurements(const trial_setup& setup, const trial_record& record,
                               reporting::reporter& report) {
  std::size_t hidden = 0;
  const auto& measures = measures_of(setup);
  const bool focused = !checks_of(setup).empty() || !measures.empty();
  const metric_set measured =
      select_metrics(record.metrics, checks_of(setup),
                     focused ? measures : std::vector<std::string>{"all"}, hidden);
  std::ostringstream table;
  write_metrics_table(table, focused ? measured : record.metrics);
  if (focused && hidden > 0) {
    table << fmt::format("({} more metric(s) in {}; MEASURE NAME shows one, MEASURE all every one "
                         "but the loader's and libc's)\n",
                         hidden, (setup.trial_dir / "result.json").string());
  }
  report.report(reporting::table_event{"metrics", std::move(table).str()});
  auto measurements = check_measurements(record.checks);
  auto metrics = metric_measurements(measured);
  measurements.insert(measurements.end(), std::make_move_iterator(metrics.begin()),
                      std::make_move_iterator(metrics.end()));
  report.report(reporting::measurements_event{std::move(measurements)});
}

// Verdict and check lines first: CTest's JUnit output keeps only the first 1024 bytes of a
// passing test, and people read from the top.
void judge_captures(const trial_setup& setup, const trial_captures& read, const std::string& label,
                    trial_record& record, reporting::reporter& report) {
  evaluate_checks(checks_of(setup), read.judged(), read.rank_sets, record, report);
  report.report(reporting::trial_verdict_event{label, record.verdict, record.reason});
  if (!read.judged().empty()) report_trial_measurements(setup, record, report);
}

}  // namespace

trial_record record_unrunnable_trial(const trial_setup& setup, verdict outcome,
                                     const std::string& reason) {
  trial_record record = new_record(setup);
  decide_verdict(record, outcome, reason);
  prepare_trial_dir(setup.trial_dir, {});
  write_trial_result(setup.trial_dir, record);
  return record;
}

namespace {

trial_record run_trial_here(const trial_setup& setup, reporting::reporter& report) {
  trial_record record = new_record(setup);
  const std::optional<planned_launch> planned = plan_or_record_why_not(setup, record, report);
  if (!planned) return record;
  const launch_plan& plan = planned->plan;
  record.argv = plan.argv;
  record.env_set = plan.env_set;
  record.env_unset = plan.env_unset;
  for (const auto& warning : plan.warnings) {
    report.report(reporting::note_event{reporting::severity::warning, warning,
                                        reporting::channel::diagnostic});
  }

  const std::string label = trial_label(setup);
  if (setup.dry_run) {
    report_dry_run(setup, *planned, label, record, report);
    return record;
  }
  prepare_trial_dir(setup.trial_dir,
                    planned->ranks ? std::vector<std::string>{} : record.collectors);
  write_command_record(setup.trial_dir / "command.json", setup.command, plan);

  const std::optional<process_result> result =
      start_or_record_why_not(setup, plan, label, record, report);
  if (!result) return record;
  record_ending(setup, *result, label, record, report);
  const trial_captures read = read_trial_captures(setup, planned->ranks, record, report);
  judge_captures(setup, read, label, record, report);
  write_trial_result(setup.trial_dir, record);
  return record;
}

}  // namespace

trial_record run_trial(const trial_setup& setup, reporting::reporter& report) {
  if (setup.console == nullptr || setup.dry_run) return run_trial_here(setup, report);
  reporting::event_recorder held(&report);
  trial_record record;
  try {
    record = run_trial_here(setup, held);
  } catch (...) {
    held.replay(report);  // what the trial reported before it broke is the reader's first clue
    throw;
  }
  // The payload's output went to its logs only: a failure shows where, and how it ended.
  if (record.verdict == verdict::fail || record.verdict == verdict::error) {
    if (!record.argv.empty()) {
      held.report(reporting::launch_event{
          trial_label(setup), record.argv, reporting::launch_kind::ran, {}, {}});
    }
    held.report(reporting::text_event{payload_log_tail(setup.trial_dir, trial_label(setup))});
  }
  setup.console->trial_ended(trial_label(setup), record, held.take());
  return record;
}

}  // namespace aorta::detail
