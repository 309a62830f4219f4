// The one place a trial's verdict is decided. Every stage that judges a trial (the launch, the
// payload's exit, the capture reads, the checks, the ranks, the gate) states which rule applies;
// the rules say which earlier verdicts a later finding may override, so that reading result.json
// (trial_record.cpp's parser) is the only other writer of `trial_record::verdict`.
#pragma once

#include "aorta/trial_record.hpp"

#include <optional>
#include <string>

namespace aorta::detail {

// A verdict and its reason, set together: the outcome of a launch, a refusal, an interrupt.
void decide_verdict(trial_record& record, verdict outcome, std::string reason);

// A trial whose run left nothing to object to; the reason stays as it was.
void record_pass(trial_record& record);

// A finding that fails a passing trial; a trial already failed, skipped or errored keeps its
// verdict and the first reason.
void fail_if_passing(trial_record& record, std::string reason);

// A finding that fails a trial that passed or was skipped (the payload's log is incomplete: a
// skip read from an incomplete log cannot be trusted).
void fail_unless_failed(trial_record& record, std::string reason);

// A finding that fails any trial except an interrupted one (its evidence is missing because of
// the interrupt); the reason of an earlier failure is kept after the new one, in parentheses.
void fail_unless_interrupted(trial_record& record, const std::string& reason);

// The gate's verdict of the test, laid over its last trial: it turns only a pass.
void lay_over_gate(trial_record& record, const std::optional<verdict>& turned_to,
                   const std::string& reason);

}  // namespace aorta::detail
