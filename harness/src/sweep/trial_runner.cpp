#include "sweep/trial_runner.hpp"

#include "aorta/collector.hpp"
#include "aorta/metrics.hpp"
#include "aorta/name_regex.hpp"
#include "process/process.hpp"
#include "aorta/report.hpp"
#include "checks/metric_selection.hpp"
#include "ranks/rank_plan.hpp"
#include "ranks/rank_trial.hpp"
#include "sweep/capture_watch.hpp"
#include "collectors/capture_reading.hpp"
#include "evaluation/capture_evaluation.hpp"
#include "metrics/metrics_table.hpp"
#include "record/trial_dir.hpp"
#include "sweep/usage_error_line.hpp"
#include "utc_timestamp.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <optional>
#include <ostream>

namespace aorta::detail {
namespace {

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

// The payload's last words on stderr (else stdout): where a payload says why it cannot run.
std::string last_output_line(const std::filesystem::path& trial_dir) {
  for (const char* name : {"stderr.log", "stdout.log"}) {
    std::ifstream log(trial_dir / name);
    std::string line;
    std::string last;
    while (std::getline(log, line)) {
      if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
    }
    if (!last.empty()) return last.size() > 400 ? last.substr(0, 400) + "..." : last;
  }
  return {};
}

// The end of the payload's stderr and stdout (64 KiB of each at most): enough to see why it
// stopped without reading a chatty payload's whole log.
std::string payload_output_tail(const std::filesystem::path& trial_dir) {
  constexpr std::streamoff tail_bytes = 64 * 1024;
  std::string text;
  for (const char* name : {"stderr.log", "stdout.log"}) {
    std::ifstream log(trial_dir / name, std::ios::binary | std::ios::ate);
    if (!log) continue;
    const std::streamoff size = log.tellg();
    log.seekg(std::max<std::streamoff>(0, size - tail_bytes));
    text.append(std::istreambuf_iterator<char>(log), std::istreambuf_iterator<char>());
    text += '\n';
  }
  return text;
}

std::string signal_name(int signal_number) {
  const char* abbreviation = ::sigabbrev_np(signal_number);
  return abbreviation != nullptr ? fmt::format("SIG{}", abbreviation)
                                 : fmt::format("signal {}", signal_number);
}

// "timeout: 2 from r.yaml" or "--timeout 3 from the command line": where the limit a timeout
// reports came from. Every CTest timeout is the second kind.
std::string timeout_origin(const recipe& spec) {
  if (!spec.timeout_seconds) return {};
  if (spec.timeout_key == command_line_timeout_key) {
    return fmt::format("{} {:g} from the command line; aorta_add_profiled_test() passes the "
                       "test's TIMEOUT less a tenth",
                       command_line_timeout_key, *spec.timeout_seconds);
  }
  return fmt::format("{}: {:g} from {}", spec.timeout_key, *spec.timeout_seconds,
                     spec.path.string());
}

// How a payload that aorta ended went: by the signal it got, or by SIGKILL after the grace.
std::string how_it_ended(const process_result& result) {
  if (result.killed_after_grace) {
    return fmt::format("it ignored that and was killed by SIGKILL after the {:g} s grace",
                       result.kill_grace_seconds);
  }
  if (result.signal) return fmt::format("it ended by {}", signal_name(*result.signal));
  if (result.exit_status) return fmt::format("it then exited {}", *result.exit_status);
  return "its exit status is unknown";
}

// Exit status → verdict before captures and checks are looked at.
void judge_exit(const trial_setup& setup, const process_result& result, trial_record& record) {
  const recipe& spec = *setup.spec;
  if (result.interrupted_by) {
    record.verdict = verdict::error;
    record.reason = fmt::format(
        "interrupted: aorta received {} after {:.1f} s and passed it on to the payload ({}); the "
        "run stopped, later trials did not run",
        signal_name(*result.interrupted_by), result.wall_seconds, how_it_ended(result));
    return;
  }
  if (result.stopped) {
    record.verdict = verdict::fail;
    record.hung_after_capture = true;
    record.reason = fmt::format(
        "payload hung after a complete capture: every collector's output was complete and valid "
        "and unchanged for {:g} s (capture_exit_grace, {}) but the payload had not exited; aorta "
        "sent SIGTERM and {} (its own exit status is unknown, so the trial cannot pass; the "
        "checks were still evaluated)",
        spec.capture_exit_grace_seconds, spec.path.string(), how_it_ended(result));
    return;
  }
  if (result.timed_out) {
    record.verdict = verdict::fail;
    record.reason = fmt::format("payload {}", result.describe(timeout_origin(spec)));
    return;
  }
  if (result.signal) {
    record.verdict = verdict::fail;
    record.reason = fmt::format("payload died of {}", result.describe());
    return;
  }
  const int status = result.exit_status.value_or(-1);
  for (const int environment_code : spec.environment_exit_codes) {
    if (status == environment_code && status != spec.expect_exit) {
      record.verdict = setup.require_profiler ? verdict::fail : verdict::skip;
      const std::string output = payload_output_tail(setup.trial_dir);
      if (const auto usage = usage_error_line(output)) {
        record.verdict = verdict::fail;
        record.reason = fmt::format(
            "payload exited {}, an environment exit code, but its output shows the command "
            "itself is wrong (\"{}\"): a usage error is a failure, not a skip",
            status, *usage);
        return;
      }
      if (spec.environment_marker &&
          !name_regex::compile(*spec.environment_marker).search(output)) {
        record.verdict = verdict::fail;
        record.reason = fmt::format(
            "payload exited {}, an environment exit code, but printed nothing matching the "
            "recipe's environment_marker /{}/ ({}); a skip needs the payload to say why",
            status, *spec.environment_marker, spec.path.string());
        return;
      }
      const std::string said = last_output_line(setup.trial_dir);
      record.reason = fmt::format(
          "payload exited {}, its environment exit code (environment_exit_codes in {}): this "
          "environment cannot run it{}{}",
          status, spec.path.string(), said.empty() ? "" : fmt::format(" (payload: \"{}\")", said),
          setup.require_profiler ? "; a skip is a failure under --require-profiler" : "");
      return;
    }
  }
  if (status != spec.expect_exit) {
    record.verdict = verdict::fail;
    record.reason = fmt::format("payload exited {} (expected {})", status, spec.expect_exit);
    return;
  }
  record.verdict = verdict::pass;
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
  record.working_directory = std::filesystem::current_path().string();
  record.cell = setup.cell;
  return record;
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

trial_record run_trial(const trial_setup& setup, std::ostream& out, std::ostream& err) {
  const recipe& spec = *setup.spec;
  trial_record record = new_record(setup);

  const plan_context planning{setup.environment, setup.dry_run};
  std::optional<rank_launch> ranks;
  launch_plan plan;
  try {
    trial_launch launch = plan_trial_launch(spec, setup.command, setup.trial_dir, planning);
    ranks = std::move(launch.ranks);
    plan = std::move(launch.plan);
  } catch (const skip_error& missing) {
    const verdict outcome = setup.require_profiler ? verdict::fail : verdict::skip;
    if (setup.dry_run) {
      record.verdict = outcome;
      record.reason = missing.what();
      fmt::print(out, "aorta: trial {}: cannot wrap here: {}\n", setup.index, record.reason);
      return record;
    }
    return record_unrunnable_trial(setup, outcome, missing.what());
  }
  record.argv = plan.argv;
  record.env_set = plan.env_set;
  record.env_unset = plan.env_unset;
  for (const auto& warning : plan.warnings) fmt::print(err, "aorta: warning: {}\n", warning);

  const std::string label = setup.cell ? fmt::format("cell {} trial {}", setup.cell->name, setup.index)
                                       : fmt::format("trial {}", setup.index);
  if (setup.dry_run) {
    fmt::print(out, "aorta: {}: would run: {}\n", label, joined_argv(plan.argv));
    for (const auto& [name, value] : plan.env_set) {
      fmt::print(out, "aorta: {}: would set {}={}\n", label, name, value);
    }
    for (const auto& name : plan.env_unset)
      fmt::print(out, "aorta: {}: would unset {}\n", label, name);
    if (ranks) print_rank_layout(*ranks, record.collectors, setup.trial_dir, label, out);
    record.verdict = verdict::skip;
    record.reason = "dry run: nothing was launched";
    return record;
  }

  prepare_trial_dir(setup.trial_dir, ranks ? std::vector<std::string>{} : record.collectors);
  write_command_record(setup.trial_dir / "command.json", setup.command, plan);

  process_spec launch;
  launch.argv = plan.argv;
  launch.environment = plan.child_environment(setup.environment);
  launch.stdout_log = setup.trial_dir / "stdout.log";
  launch.stderr_log = setup.trial_dir / "stderr.log";
  if (spec.timeout_seconds) {
    // The recipe holds it to [min_timeout_seconds, max_timeout_seconds]: no overflow, never 0.
    launch.timeout = std::chrono::ceil<std::chrono::milliseconds>(
        std::chrono::duration<double>(*spec.timeout_seconds));
  }
  capture_watch watch(spec, setup.trial_dir, setup.versions,
                      std::chrono::ceil<std::chrono::milliseconds>(
                          std::chrono::duration<double>(spec.capture_exit_grace_seconds)));
  if (watch.active()) launch.stop_when = [&watch] { return watch.hung(); };
  fmt::print(out, "aorta: {}: running: {}\n", label, joined_argv(plan.argv));
  out.flush();
  const process_result result = run_process(launch);
  watch.stop();  // the payload has ended: no probe may race the reads below
  record.exit_status = result.exit_status;
  record.signal = result.signal;
  record.timed_out = result.timed_out;
  record.interrupted_by = result.interrupted_by;
  record.wall_seconds = result.wall_seconds;
  const std::string ending =
      result.stopped ? "hung after a complete capture" : result.describe(timeout_origin(spec));
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

  std::vector<capture> captures;
  std::vector<rank_captures> rank_sets;
  const bool frames_needed = checks_need_frames(setup.checks);
  if (record.verdict != verdict::skip && ranks) {
    rank_sets = record_rank_captures(spec, setup.trial_dir, ranks->expected_ranks, record,
                                     captures, out, frames_needed);
  } else if (record.verdict != verdict::skip) {
    std::vector<capture_source> sources;
    for (const auto& request : spec.collect) {
      sources.push_back(capture_source{&request, setup.trial_dir / request.name});
    }
    read_captures(sources, setup.versions, spec.allow_empty, record, captures, frames_needed);
  }

  // A trial without ranks is one rank holding every capture, moved there: a copy of each capture
  // (its kernels and frames) was made per trial. The checks read both views from that one.
  if (!ranks) rank_sets.push_back(rank_captures{0, {}, {}, std::move(captures)});
  const std::vector<capture>& judged = ranks ? captures : rank_sets.front().captures;
  // Verdict and check lines first: CTest's JUnit output keeps only the first 1024 bytes of a
  // passing test, and people read from the top.
  evaluate_checks(setup.checks, judged, rank_sets, record, out, "aorta: ");
  if (setup.checks.empty()) {
    fmt::print(out, "aorta: {}: no checks ran (none in the recipe, no --check): only the "
                    "payload's exit status was judged\n",
               label);
  }
  fmt::print(out, "aorta: {}: {}{}\n", label, to_string(record.verdict),
             record.reason.empty() ? "" : fmt::format(" ({})", record.reason));

  if (!judged.empty()) {
    // With neither checks nor chosen metrics there is nothing to focus on: the table shows
    // everything (loader and libc frames folded), the measurements all but those frames.
    std::size_t hidden = 0;
    const bool focused = !setup.checks.empty() || !setup.measures.empty();
    const metric_set measured =
        select_metrics(record.metrics, setup.checks,
                       focused ? setup.measures : std::vector<std::string>{"all"}, hidden);
    write_metrics_table(out, focused ? measured : record.metrics);
    if (focused && hidden > 0) {
      fmt::print(out,
                 "({} more metric(s) in {}; MEASURE NAME shows one, MEASURE all every one but "
                 "the loader's and libc's)\n",
                 hidden, (setup.trial_dir / "result.json").string());
    }
    out << check_measurements(record.checks);
    out << ctest_measurements(measured);
  }

  write_result_json(setup.trial_dir / "result.json", record);
  return record;
}

}  // namespace aorta::detail
