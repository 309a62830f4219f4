#include "record/verdict_rules.hpp"

#include <fmt/format.h>

#include <utility>

namespace aorta::detail {

void decide_verdict(trial_record& record, verdict outcome, std::string reason) {
  record.verdict = outcome;
  record.reason = std::move(reason);
}

void record_pass(trial_record& record) {
  record.verdict = verdict::pass;
}

void fail_if_passing(trial_record& record, std::string reason) {
  if (record.verdict != verdict::pass) return;
  decide_verdict(record, verdict::fail, std::move(reason));
}

void fail_unless_failed(trial_record& record, std::string reason) {
  if (record.verdict != verdict::pass && record.verdict != verdict::skip) return;
  decide_verdict(record, verdict::fail, std::move(reason));
}

void fail_unless_interrupted(trial_record& record, const std::string& reason) {
  if (record.verdict == verdict::error) return;
  const std::string before =
      record.verdict == verdict::fail ? fmt::format(" ({})", record.reason) : "";
  decide_verdict(record, verdict::fail, fmt::format("{}{}", reason, before));
}

void lay_over_gate(trial_record& record, const std::optional<verdict>& turned_to,
                   const std::string& reason) {
  if (!turned_to || record.verdict != verdict::pass) return;
  decide_verdict(record, *turned_to, reason);
  record.verdict_from_gate = true;
}

}  // namespace aorta::detail
