#include "sweep/trial_runner.hpp"

#include "aorta/collector.hpp"
#include "aorta/metrics.hpp"
#include "process/process.hpp"
#include "aorta/report.hpp"
#include "checks/metric_selection.hpp"
#include "ranks/rank_plan.hpp"
#include "sweep/rank_trial.hpp"
#include "sweep/capture_watch.hpp"
#include "collectors/capture_reading.hpp"
#include "evaluation/capture_evaluation.hpp"
#include "metrics/metrics_table.hpp"
#include "record/trial_dir.hpp"
#include "sweep/exit_verdict.hpp"
#include "sweep/trial_console.hpp"
#include "utc_timestamp.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

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

std::string joined_argv(const std::vector<std::string>& argv) {
  std::string text;
  for (const auto& arg : argv) {
    if (!text.empty()) text += ' ';
    const bool plain =
        !arg.empty() && arg.find_first_of(" \t\n'\"\\$`;&|<>*?()") == std::string::npos;
    if (plain) {
      text += arg;
      continue;
    }
    // POSIX shell quoting, so the printed command can be pasted back into a shell as it ran.
    text += '\'';
    for (const char c : arg) text += c == '\'' ? std::string("'\\''") : std::string(1, c);
    text += '\'';
  }
  return text;
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
void print_rank_layout(const rank_launch& ranks, const std::vector<std::string>& collectors,
                       const std::filesystem::path& trial_dir, const std::string& label,
                       std::ostream& out) {
  fmt::print(out, "aorta: {}: multi-rank payload: launcher {}, {} rank(s), rank from {}\n", label,
             ranks.split.launcher,
             ranks.expected_ranks ? std::to_string(*ranks.expected_ranks)
                                  : "as many as the ranks report",
             fmt::join(ranks.split.rank_variables, ", "));
  fmt::print(out, "aorta: {}: every rank runs: {}\n", label, joined_argv(ranks.split.rank_command));
  const int shown = ranks.expected_ranks.value_or(1);
  for (int rank = 0; rank < shown; ++rank) {
    const auto dir = rank_directory(trial_dir, rank);
    fmt::print(out, "aorta: {}: rank {} -> {}/{{{}}}\n", label,
               ranks.expected_ranks ? std::to_string(rank) : "<r>",
               ranks.expected_ranks ? dir.string() : (trial_dir / "rank_<r>").string(),
               fmt::join(collectors, ","));
  }
}

// The payload's log is incomplete (disk full, `ulimit -f`): what it printed cannot be read back,
// so the trial cannot pass, but its record is still written.
void fail_on_incomplete_log(const std::string& failure, const std::string& label,
                            trial_record& record, std::ostream& err) {
  const std::string note = fmt::format("the payload's output log is incomplete: {}", failure);
  fmt::print(err, "aorta: error: {}: {}\n", label, note);
  record.notes.push_back(note);
  if (record.verdict == verdict::pass || record.verdict == verdict::skip) {
    record.verdict = verdict::fail;
    record.reason = note;
  }
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

std::optional<planned_launch> plan_or_record_why_not(const trial_setup& setup,
                                                     trial_record& record, std::ostream& out) {
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
    record.verdict = outcome;
    record.reason = missing.what();
    fmt::print(out, "aorta: trial {}: cannot wrap here: {}\n", setup.index, record.reason);
    return std::nullopt;
  }
}

std::string trial_label(const trial_setup& setup) {
  return setup.cell ? fmt::format("cell {} trial {}", setup.cell->name, setup.index)
                    : fmt::format("trial {}", setup.index);
}

void print_dry_run(const trial_setup& setup, const planned_launch& planned,
                   const std::string& label, trial_record& record, std::ostream& out) {
  const launch_plan& plan = planned.plan;
  fmt::print(out, "aorta: {}: would run: {}\n", label, joined_argv(plan.argv));
  for (const auto& [name, value] : plan.env_set) {
    fmt::print(out, "aorta: {}: would set {}={}\n", label, name, value);
  }
  for (const auto& name : plan.env_unset)
    fmt::print(out, "aorta: {}: would unset {}\n", label, name);
  if (planned.ranks) {
    print_rank_layout(*planned.ranks, record.collectors, setup.trial_dir, label, out);
  }
  record.verdict = verdict::skip;
  record.reason = "dry run: nothing was launched";
}

// Runs the wrapped command to its end, watched for a payload that hangs after a complete capture.
process_result launch_payload(const trial_setup& setup, const launch_plan& plan,
                              const std::string& label, std::ostream& out) {
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
    fmt::print(out, "aorta: {}: running: {}\n", label, joined_argv(plan.argv));
    out.flush();
  }
  const process_result result = run_process(launch);
  watch.stop();  // the payload has ended: no probe may race the reads that follow
  return result;
}

// The payload's ending, or nothing when it could not be started (not found, not executable, a
// log that cannot be opened): the trial then fails with that reason in its result.json, like any
// failed trial, so the remaining trials and cells still run and the record says why.
std::optional<process_result> start_or_record_why_not(const trial_setup& setup,
                                                      const launch_plan& plan,
                                                      const std::string& label,
                                                      trial_record& record, std::ostream& out) {
  try {
    return launch_payload(setup, plan, label, out);
  } catch (const setup_error& failed) {
    record.verdict = verdict::fail;
    record.reason = failed.what();
    fmt::print(out, "aorta: {}: {} ({})\n", label, to_string(record.verdict), record.reason);
    write_result_json(setup.trial_dir / "result.json", record);
    return std::nullopt;
  }
}

// How the payload ended, into the record and on the console; then the exit verdict.
void record_ending(const trial_setup& setup, const process_result& result,
                   const std::string& label, trial_record& record, std::ostream& out,
                   std::ostream& err) {
  record.exit_status = result.exit_status;
  record.signal = result.signal;
  record.timed_out = result.timed_out;
  record.interrupted_by = result.interrupted_by;
  record.wall_seconds = result.wall_seconds;
  const std::string ending = result.stopped ? "hung after a complete capture"
                                            : result.describe(timeout_origin(*setup.spec));
  fmt::print(out, "aorta: {}: payload {} after {:.2f} s\n", label, ending, result.wall_seconds);
  for (const auto& escaped : result.escaped) {
    record.escaped_processes.push_back(fmt::format("pid {}: {}", escaped.pid, escaped.command));
  }
  if (!record.escaped_processes.empty()) {
    const std::string note = fmt::format(
        "{} process(es) escaped the payload's process group (setsid or a double fork) and were "
        "still running after it ended; aorta killed them: {}",
        record.escaped_processes.size(), fmt::join(record.escaped_processes, "; "));
    fmt::print(err, "aorta: warning: {}: {}\n", label, note);
    record.notes.push_back(note);
  }
  judge_exit(setup, result, record);
  if (result.log_failure) fail_on_incomplete_log(*result.log_failure, label, record, err);
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
                                   std::ostream& out) {
  const recipe& spec = *setup.spec;
  trial_captures read;
  read.multi_rank = ranks.has_value();
  const bool frames_needed = checks_need_frames(checks_of(setup));
  if (record.verdict != verdict::skip && ranks) {
    read.rank_sets = record_rank_captures(spec, setup.trial_dir, ranks->expected_ranks, record,
                                          read.captures, out, frames_needed);
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
void print_trial_measurements(const trial_setup& setup, const trial_record& record,
                              std::ostream& out) {
  std::size_t hidden = 0;
  const auto& measures = measures_of(setup);
  const bool focused = !checks_of(setup).empty() || !measures.empty();
  const metric_set measured =
      select_metrics(record.metrics, checks_of(setup),
                     focused ? measures : std::vector<std::string>{"all"}, hidden);
  write_metrics_table(out, focused ? measured : record.metrics);
  if (focused && hidden > 0) {
    fmt::print(out,
               "({} more metric(s) in {}; MEASURE NAME shows one, MEASURE all every one but "
               "the loader's and libc's)\n",
               hidden, (setup.trial_dir / "result.json").string());
  }
  if (!setup.ctest_measurements) return;
  out << check_measurements(record.checks);
  out << ctest_measurements(measured);
}

// Verdict and check lines first: CTest's JUnit output keeps only the first 1024 bytes of a
// passing test, and people read from the top.
void judge_captures(const trial_setup& setup, const trial_captures& read,
                    const std::string& label, trial_record& record, std::ostream& out) {
  evaluate_checks(checks_of(setup), read.judged(), read.rank_sets, record, out, "aorta: ");
  fmt::print(out, "aorta: {}: {}{}\n", label, to_string(record.verdict),
             record.reason.empty() ? "" : fmt::format(" ({})", record.reason));
  if (!read.judged().empty()) print_trial_measurements(setup, record, out);
}

}  // namespace

trial_record record_unrunnable_trial(const trial_setup& setup, verdict outcome,
                                     const std::string& reason) {
  trial_record record = new_record(setup);
  record.verdict = outcome;
  record.reason = reason;
  prepare_trial_dir(setup.trial_dir, {});
  write_result_json(setup.trial_dir / "result.json", record);
  return record;
}

namespace {

trial_record run_trial_here(const trial_setup& setup, std::ostream& out, std::ostream& err) {
  trial_record record = new_record(setup);
  const std::optional<planned_launch> planned = plan_or_record_why_not(setup, record, out);
  if (!planned) return record;
  const launch_plan& plan = planned->plan;
  record.argv = plan.argv;
  record.env_set = plan.env_set;
  record.env_unset = plan.env_unset;
  for (const auto& warning : plan.warnings) fmt::print(err, "aorta: warning: {}\n", warning);

  const std::string label = trial_label(setup);
  if (setup.dry_run) {
    print_dry_run(setup, *planned, label, record, out);
    return record;
  }
  prepare_trial_dir(setup.trial_dir,
                    planned->ranks ? std::vector<std::string>{} : record.collectors);
  write_command_record(setup.trial_dir / "command.json", setup.command, plan);

  const std::optional<process_result> result = start_or_record_why_not(setup, plan, label,
                                                                       record, out);
  if (!result) return record;
  record_ending(setup, *result, label, record, out, err);
  const trial_captures read = read_trial_captures(setup, planned->ranks, record, out);
  judge_captures(setup, read, label, record, out);
  write_result_json(setup.trial_dir / "result.json", record);
  return record;
}

}  // namespace

trial_record run_trial(const trial_setup& setup, std::ostream& out, std::ostream& err) {
  if (setup.console == nullptr || setup.dry_run) return run_trial_here(setup, out, err);
  std::ostringstream held;
  trial_record record;
  try {
    record = run_trial_here(setup, held, err);
  } catch (...) {
    out << held.str();  // what the trial printed before it broke is the reader's first clue
    throw;
  }
  // The payload's output went to its logs only: a failure shows where, and how it ended.
  if (record.verdict == verdict::fail || record.verdict == verdict::error) {
    if (!record.argv.empty()) {
      held << fmt::format("aorta: {}: ran: {}\n", trial_label(setup), joined_argv(record.argv));
    }
    held << payload_log_tail(setup.trial_dir, trial_label(setup));
  }
  setup.console->trial_ended(trial_label(setup), record, held.str());
  return record;
}

}  // namespace aorta::detail
