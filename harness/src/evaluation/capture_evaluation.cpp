#include "evaluation/capture_evaluation.hpp"

#include "aorta/metrics.hpp"
#include "collectors/capture_reading.hpp"
#include "process/signal_forwarding.hpp"
#include "ranks/rank_checks.hpp"
#include "record/verdict_rules.hpp"

#include <fmt/format.h>

namespace aorta::detail {

void record_interrupted_read(int signal_number, const std::string& read_error,
                             trial_record& record) {
  // The payload got the signal first (trial_runner's judge_exit): its reason says so, and the
  // read that the same signal stopped (one baseline per command) is a note.
  if (record.interrupted_by && record.verdict == verdict::error) {
    record.notes.push_back(fmt::format("the read of the captures was stopped too: {}", read_error));
    return;
  }
  if (record.verdict == verdict::fail)
    record.notes.push_back(fmt::format("before the interrupt: {}", record.reason));
  if (!record.interrupted_by) record.interrupted_by = signal_number;
  decide_verdict(record, verdict::error,
                 fmt::format("interrupted: aorta received {} while it read the captures ({}); the "
                             "run stopped, later trials did not run",
                             signal_label(signal_number), read_error));
}

void read_captures(const std::vector<capture_source>& sources, const tool_version_map& versions,
                   bool allow_empty, trial_record& record, std::vector<capture>& captures,
                   bool frames_needed, kernel_rows rows) {
  for (const auto& source : sources) {
    auto reading = read_one_capture(*source.request, source.output, versions, frames_needed);
    if (!reading) continue;
    if (reading->interrupted_by != 0) {
      // The remaining reads would be interrupted too, or judged by nobody: the run stops.
      record_interrupted_read(reading->interrupted_by, reading->error, record);
      return;
    }
    if (!reading->got) {
      record.notes.push_back(reading->error);
      fail_if_passing(record, reading->error);
      continue;
    }
    captures.push_back(std::move(*reading->got));
    const capture& got = captures.back();
    merge_metrics(record.metrics, compute_metrics(got, rows));
    for (const auto& note : got.notes)
      record.notes.push_back(fmt::format("{}: {}", source.request->name, note));
    if (reading->empty && !allow_empty) fail_if_passing(record, std::move(*reading->empty));
    if (reading->failure) fail_if_passing(record, std::move(*reading->failure));
  }
}

void add_kernel_rows(std::vector<capture>& captures, trial_record& record) {
  for (capture& each : captures) move_kernel_rows(each, record.metrics);
}

void evaluate_checks(const std::vector<check_expression>& checks,
                     const std::vector<capture>& captures, const std::vector<rank_captures>& ranks,
                     trial_record& record, reporting::reporter& report) {
  if (record.verdict != verdict::pass && record.verdict != verdict::fail) return;
  for (const auto& check : checks) {
    record.checks.push_back(check.over_ranks() == rank_reduction::none
                                ? evaluate_check(check, captures, record.metrics)
                                : evaluate_rank_check(check, ranks, record.ranks_serialized));
    const auto& outcome = record.checks.back();
    report.report(reporting::check_event{outcome, false});
    if (!outcome.passed)
      fail_if_passing(record, fmt::format("check failed: {}", outcome.expression));
  }
}

}  // namespace aorta::detail
