#include "sweep/gate_run.hpp"

#include "baseline/card_identity.hpp"
#include "baseline/gate_attribution.hpp"
#include "baseline/gate_judge.hpp"
#include "baseline/gate_report.hpp"
#include "baseline/default_gate.hpp"
#include "baseline/sequential_gate.hpp"
#include "cells/confound.hpp"
#include "json_document.hpp"
#include "metrics/ctest_measurement.hpp"
#include "metrics/number_format.hpp"
#include "sweep/gate_baseline.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <set>

namespace aorta::detail {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> fingerprint_differences(const measured_test& base,
                                                 const measured_test& fresh) {
  std::vector<std::string> differences;
  std::set<std::string> keys;
  for (const auto& [key, value] : base.fingerprint) keys.insert(key);
  for (const auto& [key, value] : fresh.fingerprint) keys.insert(key);
  for (const auto& key : keys) {
    if (key == card_key) continue;  // the card is told about, not skipped on (card_identity.hpp)
    const auto old_value = base.fingerprint.find(key);
    const auto new_value = fresh.fingerprint.find(key);
    const std::string before = old_value == base.fingerprint.end() ? "(absent)" : old_value->second;
    const std::string after = new_value == fresh.fingerprint.end() ? "(absent)" : new_value->second;
    if (before != after) differences.push_back(fmt::format("{}: '{}' vs '{}' here", key, before, after));
  }
  return differences;
}

std::optional<gate_spec> chosen_spec(const sweep_request& request, const recipe& spec,
                                     const std::vector<check_expression>& checks) {
  if (request.gate) return parse_gate_spec(*request.gate);
  if (spec.gate) return parse_gate_spec(*spec.gate);
  const bool explicit_checks = std::any_of(checks.begin(), checks.end(),
                                           [](const auto& c) { return c.baseline().has_value(); });
  if (explicit_checks) return std::nullopt;
  return parse_gate_spec(default_gate_text);
}

// The sequential rule (sequential_gate.hpp): the planned trials (topped up to the minimum a timed
// row needs), then the extra trials the judgement asks for, one look after each. nullopt when a
// trial run for it did not pass.
std::optional<gate_judgement> judge_sequentially(const std::string& test, gate_policy& policy,
                                                 const measured_test& base,
                                                 std::vector<trial_record>& trials,
                                                 const std::function<trial_record(int)>& run_trial,
                                                 const gate_params& params, std::ostream& out) {
  auto fresh = measured_from_records(test, trials);
  const int asked = static_cast<int>(trials.size());
  const auto run_one = [&] {
    trials.push_back(run_trial(static_cast<int>(trials.size())));
    if (trials.back().verdict != verdict::pass) {
      fmt::print(out, "aorta: gate: extra trial {} did not pass: {}\n", trials.back().trial_index,
                 trials.back().reason);
      return false;
    }
    fresh = measured_from_records(test, trials);
    return true;
  };
  while (has_timed_quantities(fresh) && trials.size() < min_timed_samples) {
    fmt::print(out, "aorta: gate: timed rows need {} trials a side; running trial {}\n",
               min_timed_samples, trials.size());
    if (!run_one()) return std::nullopt;
  }
  const int planned = static_cast<int>(trials.size());
  policy.sequential = make_sequential_plan(
      planned, params.max_trials > 0 ? params.max_trials : std::max(asked * 3, planned),
      params.alpha);
  auto judged = judge_gate(base, fresh, policy, trials.size());
  while (judged.more_trials > 0) {
    const std::string how_many =
        judged.more_trials == 1 ? std::string("one") : std::to_string(judged.more_trials);
    fmt::print(out, "aorta: gate: {} AMBIGUOUS verdict(s) after {} trial(s); {} more (budget {}, "
                    "alpha {:.3g} at this look)\n",
               judged.ambiguous, trials.size(), how_many, policy.sequential->budget,
               look_alpha(*policy.sequential, judged.look + 1));
    for (int i = 0; i < judged.more_trials; ++i) {
      if (!run_one()) return std::nullopt;
    }
    judged = judge_gate_again(judged, base, fresh, policy, trials.size());
  }
  return judged;
}

void print_measurements(const std::vector<gate_row>& rows, std::ostream& out) {
  for (const auto& row : rows) {
    if (row.fresh.empty()) continue;
    out << ctest_measurement("gate " + row.label, exact_number(row.fresh_median));
    if (row.delta && std::isfinite(*row.delta)) {
      out << ctest_measurement("gate " + row.label + " delta %", exact_number(*row.delta * 100.0));
    }
  }
}

// The gate's rows become checks of the last trial's result.json, so every report shows them.
void record_in_last_trial(const sweep_request& request, std::vector<trial_record>& trials,
                          const std::vector<gate_row>& rows, const std::vector<std::string>& notes,
                          const gate_judgement& judged, const std::string& failure) {
  if (trials.empty()) return;
  auto& last = trials.back();
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
    last.checks.push_back(std::move(result));
  }
  last.notes.insert(last.notes.end(), notes.begin(), notes.end());
  if (!failure.empty() && last.verdict == verdict::pass) {
    last.verdict = judged.failed ? verdict::fail : verdict::skip;
    last.verdict_from_gate = true;
    last.reason = failure;
  }
  write_result_json(request.output_dir / fmt::format("trial_{}", last.trial_index) / "result.json",
                    last);
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
                        std::ostream& out) {
  const std::string ambiguous_tail =
      judged.ambiguous > 0 ? "; " + ambiguous_summary(judged, trials) : std::string();
  if (judged.failed) {
    fmt::print(out, "aorta: gate FAILED: {}{}\n",
               judged.failed_on_ambiguous ? "AMBIGUOUS rows fail under 'ambiguous fail'"
                                          : "a confident regression against the baseline",
               ambiguous_tail);
    return exit_code::failed;
  }
  if (judged.skipped) {
    fmt::print(out, "aorta: SKIPPED: gate: AMBIGUOUS rows skip the test under 'ambiguous skip'{}\n",
               ambiguous_tail);
    return exit_code::skipped;
  }
  fmt::print(out, "aorta: gate {}{}\n",
             judged.ambiguous > 0
                 ? "passed with a WARNING (AMBIGUOUS rows passed under 'ambiguous pass')"
                 : (other_card ? "passed with a WARNING (another card)" : "passed"),
             ambiguous_tail);
  return exit_code::ok;
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

exit_code run_gate(const sweep_request& request, const recipe& spec,
                   const std::vector<check_expression>& checks, std::vector<trial_record>& trials,
                   const std::function<trial_record(int)>& run_trial, std::ostream& out) {
  const std::string test = gate_test_name(request);
  auto fresh = measured_from_records(test, trials);
  if (fresh.trials.empty()) return exit_code::ok;  // nothing measured: the trials' verdict stands
  exit_code no_baseline = exit_code::ok;
  const auto loaded = load_gate_baseline(request, test, trials, no_baseline, out);
  if (!loaded) return no_baseline;
  const measured_test* base = &loaded->test;
  const std::string& described = loaded->described;
  if (const auto differences = fingerprint_differences(*base, fresh); !differences.empty()) {
    std::string listed;
    for (const auto& difference : differences) listed += "\n  " + difference;
    return skip_or_fail(request, trials,
                        fmt::format("baseline {} was recorded on another machine or toolchain; "
                                    "the fingerprint differs in:{}\n{}",
                                    described, listed, loaded->fix),
                        out);
  }

  gate_policy policy;
  policy.gate = chosen_spec(request, spec, checks);
  policy.checks = checks;
  policy.ambiguous = chosen_ambiguous_policy(request, policy.gate);
  const gate_params params = policy.gate ? policy.gate->params : gate_params{};
  const bool same_card = policy.gate && policy.gate->same_card;
  const auto card_note = card_difference(*base, fresh, same_card);
  if (card_note && same_card) {
    return skip_or_fail(request, trials, fmt::format("baseline {}: {}", described, *card_note), out);
  }
  const auto judged = judge_sequentially(test, policy, *base, trials, run_trial, params, out);
  if (!judged) return exit_code::failed;
  auto rows = judged->rows;
  order_by_significance(rows);
  fresh = measured_from_records(test, trials);

  const bool failed = judged->failed;
  const auto still_ambiguous = judged->ambiguous;
  std::vector<std::string> notes;
  if (card_note) notes.push_back("gate NOTE: " + *card_note);
  // The last trial's result.json (and so every report) names where a history baseline came from.
  if (loaded->history) notes.push_back("gate baseline: " + described);
  if (still_ambiguous > 0) {
    const std::string what = failed ? "gate FAILED: "
                                    : (judged->skipped ? "gate SKIPPED: "
                                                       : std::string(ambiguous_warning_prefix));
    notes.push_back(fmt::format("{}{} (ambiguous {})", what,
                                ambiguous_summary(*judged, trials.size()),
                                to_string(policy.ambiguous)));
  }
  const std::string table = format_gate_table(rows, !failed && still_ambiguous == 0);
  fmt::print(out, "aorta: gate against {} ({} baseline trial(s), {} new, alpha {}):\n{}",
             described, base->trials.size(), fresh.trials.size(), params.alpha, table);
  for (const auto& note : notes) fmt::print(out, "aorta: {}\n", note);
  if (failed && loaded->history) {
    fmt::print(out, "aorta: the baseline's newest commit is {}; find the commit that regressed "
                    "with:\n  {}\n",
               loaded->history->commits.back(),
               history_bisect_hint(*loaded->history, request.history_baseline->commit, test));
  }
  if (request.ctest_measurements) print_measurements(rows, out);

  nlohmann::json record = {{"test", test},
                           {"baseline", described},
                           {"alpha", params.alpha},
                           {"trials", fresh.trials.size()},
                           {"trial_budget", policy.sequential ? policy.sequential->budget : 0},
                           {"extra_rounds", judged->look},
                           {"ambiguous", still_ambiguous},
                           {"ambiguous_policy", to_string(policy.ambiguous)},
                           {"ambiguous_rows", ambiguous_rows(rows)},
                           {"verdict", gate_verdict_word(*judged, card_note.has_value())},
                           {"warnings", notes},
                           {"summary", gate_summaries(rows)},
                           {"rows", gate_rows_json(rows)}};
  if (loaded->history) {
    record["history"] = loaded->history->to_json();
    if (failed) {
      record["history"]["bisect"] =
          history_bisect_hint(*loaded->history, request.history_baseline->commit, test);
    }
  }
  write_json_document(request.output_dir / "gate.json", std::move(record), schemas::gate);
  const std::string failure = gate_failure(*judged, policy.ambiguous, trials.size(), table);
  record_in_last_trial(request, trials, rows, notes, *judged, failure);
  return announce_gate(*judged, card_note.has_value(), trials.size(), out);
}

}  // namespace aorta::detail
