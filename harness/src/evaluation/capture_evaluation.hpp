// The one evaluation path: captures -> metrics -> checks -> verdict, into a trial record. Used by
// `sweep run` after the payload ends and by `aorta check` on a capture that already exists, so both
// judge a capture the same way and write the same record shape.
#pragma once

#include "aorta/capture.hpp"
#include "aorta/check.hpp"
#include "aorta/collector.hpp"
#include "aorta/metrics.hpp"
#include "aorta/trial_record.hpp"
#include "reporting/reporter.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace aorta::detail {

// One collector's output to read: its directory in a trial, or the path given to `aorta check`.
struct capture_source {
  const collector_request* request = nullptr;
  std::filesystem::path output;
};

// A read stopped by `signal_number` (interrupted_error, whose message is `read_error`): the trial
// is an `error` interrupted by that signal, whatever it was before, so it is never reported as a
// failed check; a failure found before is kept as a note. A trial whose payload that signal
// already interrupted keeps its reason, and the stopped read becomes a note.
void record_interrupted_read(int signal_number, const std::string& read_error,
                             trial_record& record);

// Reads each source with its collector into `captures`, merging metrics and notes into `record`.
// A capture that cannot be read, or an empty one unless `allow_empty`, fails a passing record with
// the collector's explanation; an interrupted read ends the reading (record_interrupted_read).
// `frames_needed`: whether a check reads where kernels ran (checks_need_frames); without, readers
// may skip the call tree. `rows`: kernel_rows::deferred leaves record.metrics.kernels to
// add_kernel_rows, after the checks.
void read_captures(const std::vector<capture_source>& sources, const tool_version_map& versions,
                   bool allow_empty, trial_record& record, std::vector<capture>& captures,
                   bool frames_needed = true, kernel_rows rows = kernel_rows::copied);

// The per-kernel rows that read_captures(..., kernel_rows::deferred) left out, in capture order,
// moved out of `captures` (their kernel lists are left empty).
void add_kernel_rows(std::vector<capture>& captures, trial_record& record);

// Evaluates `checks` (per-rank checks against `ranks`) into record.checks, reporting each as a
// check event; the first failing check fails a passing record. Checks run only on a pass or fail:
// a skipped or errored trial has nothing to judge.
void evaluate_checks(const std::vector<check_expression>& checks,
                     const std::vector<capture>& captures, const std::vector<rank_captures>& ranks,
                     trial_record& record, reporting::reporter& report);

}  // namespace aorta::detail
