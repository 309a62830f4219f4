#include "sweep/gate_run.hpp"

#include "baseline/card_identity.hpp"
#include "baseline/default_gate.hpp"
#include "baseline/fingerprint_diff.hpp"
#include "baseline/gate_attribution.hpp"
#include "baseline/gate_judge.hpp"
#include "baseline/gate_report.hpp"
#include "baseline/sequential_gate.hpp"
#include "cells/confound.hpp"
#include "json_document.hpp"
#include "metrics/number_format.hpp"
#include "record/gate_verdict.hpp"
#include "sweep/gate_baseline.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

namespace aorta::detail {
namespace fs = std::filesystem;
namespace {

// Every row's new median and its delta, for CTest's measurements (a reporter that does not keep
// measurements drops them).
reporting::measurements_event row_measurements(const std::vector<gate_row>& rows) {
  reporting::measurements_event measured;
  for (const auto& row : rows) {
    if (row.fresh.empty()) continue;
    measured.items.push_back({"gate " + row.label, exact_number(row.fresh_median)});
    if (row.delta && std::isfinite(*row.delta)) {
      measured.items.push_back(
          {"gate " + row.label + " delta %", exact_number(*row.delta * 100.0)});
    }
  }
  return measured;
}

// What gate.json says of the test: the rows as checks of the last trial, so every report shows
// them, and the verdict the gate turned it to. Laid over the last trial in memory too, for the
// sweep's totals.
gate_test_verdict said_of_test(const trial_record& last, const std::vector<gate_row>& rows,
                               const std::vector<std::string>& notes, const gate_judgement& judged,
                               const std::string& failure) {
  gate_test_verdict said{last.trial_index, last.started_at, std::nullopt, failure, {}, notes};
  for (const auto& row : rows) {
    check_result result;
    result.expression = row.label.find("baseline") != std::string::npos ? row.label
                                                       : fmt::format("{} {}", row.label, row.bound_text);
    result.passed = !fails_gate(row) && !(judged.failed && row.verdict == gate_verdict::ambiguous);
    result.expected = row.bound_text;
    result.actual = fmt::format("{} ({}, {}{})", row.fresh.empty() ? "-" : format_number(row.fresh_median),
                                row.delta ? fmt::format("{:+.2f}%", *row.delta * 100.0) : "-",
                                verdict_label(row), row.evidence.empty() ? "" : ", " + row.evidence);
    result.message = fmt::format("gate {}: {}", verdict_label(row), result.actual);
    said.checks.push_back(std::move(result));
  }
  if (!failure.empty()) said.turned_to = judged.failed ? verdict::fail : verdict::skip;
  return said;
}

// The note of rows still AMBIGUOUS that passed (`ambiguous pass`).
constexpr std::string_view ambiguous_warning_prefix = "gate WARNING: ";

// "2 row(s) still AMBIGUOUS after 15 trial(s) (the budget): k: time_ms(a), k: time_ms(b)"
std::string ambiguous_summary(const gate_judgement& judged, std::size_t trials) {
  const auto listed = ambiguous_rows(judged.rows);
  return fmt::format("{} row(s) still AMBIGUOUS after {} trial(s) (the budget): {}", listed.size(),
                     trials, fmt::join(listed, ", "));
}

// The sweep's choice over the gate line's: `--ambiguous` on the command line is the nearer one.
ambiguous_policy chosen_ambiguous_policy(const sweep_request& request,
                                         const std::optional<gate_spec>& gate) {
  if (request.ambiguous) return *request.ambiguous;
  if (gate && gate->ambiguous) return *gate->ambiguous;
  return ambiguous_policy::fail;
}

// What the test's verdict line and its last trial's reason say: empty when the gate passes.
std::string gate_failure(const gate_judgement& judged, ambiguous_policy policy,
                         std::size_t trials, const std::string& table) {
  if (judged.failed && !judged.failed_on_ambiguous) {
    return "regression against the baseline:\n" + table;
  }
  if (!judged.failed_on_ambiguous && !judged.skipped) return {};
  return fmt::format("gate: {} (ambiguous {}: set the gate item 'ambiguous fail|skip|pass' or "
                     "--ambiguous, or run more trials):\n{}",
                     ambiguous_summary(judged, trials), to_string(policy), table);
}

// gate.json's verdict: a pass is a "warn" when AMBIGUOUS rows passed or the card differs.
std::string_view gate_verdict_word(const gate_judgement& judged, bool other_card) {
  if (judged.failed) return "fail";
  if (judged.skipped) return "skip";
  return judged.ambiguous > 0 || other_card ? "warn" : "pass";
}

// The gate's last line, naming the rows still AMBIGUOUS whatever the policy made of them, and
// the run's exit code.
exit_code announce_gate(const gate_judgement& judged, bool other_card, std::size_t trials,
                        reporting::reporter& out) {
  const std::string ambiguous_tail =
      judged.ambiguous > 0 ? "; " + ambiguous_summary(judged, trials) : std::string();
  if (judged.failed) {
    out.report(reporting::gate_event{
        fmt::format("gate FAILED: {}{}",
                    judged.failed_on_ambiguous ? "AMBIGUOUS rows fail under 'ambiguous fail'"
                                               : "a confident regression against the baseline",
                    ambiguous_tail)});
    return exit_code::failed;
  }
  if (judged.skipped) {
    out.report(reporting::gate_event{fmt::format(
        "SKIPPED: gate: AMBIGUOUS rows skip the test under 'ambiguous skip'{}", ambiguous_tail)});
    return exit_code::skipped;
  }
  out.report(reporting::gate_event{fmt::format(
      "gate {}{}",
      judged.ambiguous > 0 ? "passed with a WARNING (AMBIGUOUS rows passed under 'ambiguous pass')"
                           : (other_card ? "passed with a WARNING (another card)" : "passed"),
      ambiguous_tail)});
  return exit_code::ok;
}

// The notes under the table, which the last trial's result.json keeps: another card, where a
// history baseline came from (so every report names it), the rows still AMBIGUOUS.
std::vector<std::string> gate_notes(const gate_judgement& judged, ambiguous_policy policy,
                                    const gate_baseline& loaded,
                                    const std::optional<std::string>& card_note,
                                    std::size_t trials) {
  std::vector<std::string> notes;
  if (card_note) notes.push_back("gate NOTE: " + *card_note);
  if (loaded.history) notes.push_back("gate baseline: " + loaded.described);
  if (judged.ambiguous > 0) {
    const std::string what =
        judged.failed ? "gate FAILED: "
                      : (judged.skipped ? "gate SKIPPED: " : std::string(ambiguous_warning_prefix));
    notes.push_back(fmt::format("{}{} (ambiguous {})", what, ambiguous_summary(judged, trials),
                                to_string(policy)));
  }
  return notes;
}

}  // namespace

std::string gate_pass_judgement(const std::vector<trial_record>& trials) {
  std::string text = "the gate against the baseline passed";
  if (trials.empty()) return text;
  for (const auto& note : trials.back().notes) {
    if (note.starts_with(ambiguous_warning_prefix)) text += "; " + note;
  }
  return text;
}

bool gate_requested(const sweep_request& request, const recipe& spec,
                    const std::vector<check_expression>& checks) {
  return request.baseline_dir || request.history_baseline || request.gate || spec.gate ||
         std::any_of(checks.begin(), checks.end(),
                     [](const auto& c) { return c.baseline().has_value(); });
}

std::variant<exit_code, gate_session>
gate_session::open(const sweep_request& request, const std::optional<gate_spec>& gate,
                   const std::vector<check_expression>& checks, std::vector<trial_record>& trials,
                   reporting::reporter& out) {
  const std::string test = gate_test_name(request);
  const auto fresh = measured_from_records(test, trials);
  if (fresh.trials.empty()) return exit_code::ok;  // nothing measured: the trials' verdict stands
  exit_code no_baseline = exit_code::ok;
  auto loaded = load_gate_baseline(request, test, trials, no_baseline, out);
  if (!loaded) return no_baseline;
  if (const auto differences = fingerprint_differences(loaded->test, fresh); !differences.empty()) {
    std::string listed;
    for (const auto& [key, before, after] : differences) {
      listed += fmt::format("\n  {}: '{}' vs '{}' here", key, before, after);
    }
    return skip_or_fail(request, trials,
                        fmt::format("baseline {} was recorded on another machine or toolchain; "
                                    "the fingerprint differs in:{}\n{}",
                                    loaded->described, listed, loaded->fix),
                        out);
  }
  gate_policy policy;
  policy.gate = gate;
  policy.checks = checks;
  policy.ambiguous = chosen_ambiguous_policy(request, policy.gate);
  const bool same_card = policy.gate && policy.gate->same_card;
  auto card_note = card_difference(loaded->test, fresh, same_card);
  if (card_note && same_card) {
    return skip_or_fail(request, trials,
                        fmt::format("baseline {}: {}", loaded->described, *card_note), out);
  }
  return gate_session(request, std::move(*loaded), std::move(policy), std::move(card_note),
                      trials.size());
}

gate_session::gate_session(const sweep_request& request, gate_baseline loaded, gate_policy policy,
                           std::optional<std::string> card_note, std::size_t asked)
    : request_(&request), test_(gate_test_name(request)), loaded_(std::move(loaded)),
      policy_(std::move(policy)), card_note_(std::move(card_note)), asked_(asked) {}

// The planned trials (topped up to the minimum a timed row needs), then the extra trials each
// look asks for.
int gate_session::more_trials(const std::vector<trial_record>& trials, reporting::reporter& out) {
  const auto fresh = measured_from_records(test_, trials);
  if (!judged_) {
    if (has_timed_quantities(fresh) && trials.size() < min_timed_samples) {
      out.report(reporting::gate_event{
          fmt::format("gate: timed rows need {} trials a side; running trial {}", min_timed_samples,
                      trials.size())});
      return 1;
    }
    const gate_params params = policy_.gate ? policy_.gate->params : gate_params{};
    const int planned = static_cast<int>(trials.size());
    const int asked = static_cast<int>(asked_);
    policy_.sequential = make_sequential_plan(
        planned, params.max_trials > 0 ? params.max_trials : std::max(asked * 3, planned),
        params.alpha);
    judged_ = judge_gate(loaded_.test, fresh, policy_, trials.size());
  } else {
    judged_ = judge_gate_again(*judged_, loaded_.test, fresh, policy_, trials.size());
  }
  if (judged_->more_trials == 0) return 0;
  const std::string how_many =
      judged_->more_trials == 1 ? std::string("one") : std::to_string(judged_->more_trials);
  out.report(reporting::gate_event{fmt::format(
      "gate: {} AMBIGUOUS verdict(s) after {} trial(s); {} more (budget {}, alpha {:.3g} at this "
      "look)",
      judged_->ambiguous, trials.size(), how_many, policy_.sequential->budget,
      look_alpha(*policy_.sequential, judged_->look + 1))});
  return judged_->more_trials;
}

exit_code gate_session::close(std::vector<trial_record>& trials, reporting::reporter& out) {
  const gate_judgement& judged = *judged_;
  auto rows = judged.rows;
  order_by_significance(rows);
  const auto fresh = measured_from_records(test_, trials);
  const auto notes = gate_notes(judged, policy_.ambiguous, loaded_, card_note_, trials.size());
  const std::string table = format_gate_table(rows, !judged.failed && judged.ambiguous == 0);
  const double alpha = policy_alpha(policy_);
  out.report(reporting::gate_event{
      fmt::format("gate against {} ({} baseline trial(s), {} new, alpha {}):", loaded_.described,
                  loaded_.test.trials.size(), fresh.trials.size(), alpha)});
  out.report(reporting::table_event{"gate", table});
  for (const auto& note : notes) out.report(reporting::gate_event{note});
  const auto bisect_hint = judged.failed && loaded_.history
                               ? std::optional(history_bisect_hint(
                                     *loaded_.history, request_->history_baseline->commit, test_))
                               : std::nullopt;
  if (bisect_hint) {
    out.report(reporting::gate_event{fmt::format(
        "the baseline's newest commit is {}; find the commit that regressed with:\n  {}",
        loaded_.history->commits.back(), *bisect_hint)});
  }
  out.report(row_measurements(rows));
  nlohmann::json record = {{"test", test_},
                           {"baseline", loaded_.described},
                           {"alpha", alpha},
                           {"trials", fresh.trials.size()},
                           {"trial_budget", policy_.sequential ? policy_.sequential->budget : 0},
                           {"extra_rounds", judged.look},
                           {"ambiguous", judged.ambiguous},
                           {"ambiguous_policy", to_string(policy_.ambiguous)},
                           {"ambiguous_rows", ambiguous_rows(rows)},
                           {"verdict", gate_verdict_word(judged, card_note_.has_value())},
                           {"warnings", notes},
                           {"summary", gate_summaries(rows)},
                           {"rows", gate_rows_json(rows)}};
  if (loaded_.history) {
    record["history"] = loaded_.history->to_json();
    if (bisect_hint) record["history"]["bisect"] = *bisect_hint;
  }
  const std::string failure = gate_failure(judged, policy_.ambiguous, trials.size(), table);
  const auto said = said_of_test(trials.back(), rows, notes, judged, failure);
  record["test_verdict"] = to_json(said);
  write_json_document(request_->output_dir / "gate.json", std::move(record), schemas::gate);
  lay_over(trials.back(), said);
  return announce_gate(judged, card_note_.has_value(), trials.size(), out);
}

}  // namespace aorta::detail
