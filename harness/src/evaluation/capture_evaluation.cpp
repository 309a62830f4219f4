#include "evaluation/capture_evaluation.hpp"

#include "aorta/metrics.hpp"
#include "ranks/rank_checks.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

namespace aorta::detail {

void read_captures(const std::vector<capture_source>& sources, const tool_version_map& versions,
                   bool allow_empty, trial_record& record, std::vector<capture>& captures) {
  for (const auto& source : sources) {
    const collector_request& request = *source.request;
    const auto* collector = find_collector(request.name);
    if (collector == nullptr || !collector->attaches()) continue;
    const auto config = config_of(request);
    try {
      captures.push_back(collector->read_capture(source.output, read_context{config.get(), versions}));
    } catch (const capture_error& e) {
      record.notes.push_back(e.what());
      if (record.verdict == verdict::pass) {
        record.verdict = verdict::fail;
        record.reason = e.what();
      }
      continue;
    }
    const capture& got = captures.back();
    merge_metrics(record.metrics, compute_metrics(got));
    for (const auto& note : got.notes) record.notes.push_back(fmt::format("{}: {}", request.name, note));
    if (got.empty() && !allow_empty && record.verdict == verdict::pass) {
      record.verdict = verdict::fail;
      record.reason = collector->explain_empty(got, *config);
    }
    if (record.verdict == verdict::pass) {
      if (auto failure = collector->failure_in_capture(got, *config)) {
        record.verdict = verdict::fail;
        record.reason = std::move(*failure);
      }
    }
  }
}

void evaluate_checks(const std::vector<check_expression>& checks,
                     const std::vector<capture>& captures,
                     const std::vector<rank_captures>& ranks, trial_record& record,
                     std::ostream& out, std::string_view prefix) {
  if (record.verdict != verdict::pass && record.verdict != verdict::fail) return;
  for (const auto& check : checks) {
    record.checks.push_back(check.over_ranks() == rank_reduction::none
                                ? evaluate_check(check, captures, record.metrics)
                                : evaluate_rank_check(check, ranks));
    const auto& outcome = record.checks.back();
    if (outcome.passed) {
      fmt::print(out, "{}check PASS  {}  (actual {})\n", prefix, outcome.expression,
                 outcome.actual);
    } else {
      fmt::print(out, "{}check FAIL  {}\n{}\n", prefix, outcome.expression, outcome.message);
    }
    if (!outcome.passed && record.verdict == verdict::pass) {
      record.verdict = verdict::fail;
      record.reason = fmt::format("check failed: {}", outcome.expression);
    }
  }
}

}  // namespace aorta::detail
