// `aorta compare BASE NEW`: per test and kernel, old and new medians, delta, p-value and verdict,
// through the same judging stage as a gated run (baseline/gate_judge.hpp); BASE may be
// `history[:BRANCH]`, the store's baseline (docs/history.md).
#include "aorta/error.hpp"
#include "aorta/schema.hpp"
#include "baseline/card_identity.hpp"
#include "baseline/gate_attribution.hpp"
#include "baseline/gate_judge.hpp"
#include "baseline/gate_report.hpp"
#include "baseline/default_gate.hpp"
#include "baseline/fingerprint_diff.hpp"
#include "sweep/checked_recipe.hpp"
#include "baseline/result_sets.hpp"
#include "cells/confound.hpp"
#include "cli/commands.hpp"
#include "cli/history_baseline_option.hpp"
#include "cli/option_checks.hpp"
#include "history/history_baseline.hpp"
#include "json_document.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <map>
#include <set>
#include <string>

namespace aorta::cli {
namespace {

struct compare_flags {
  std::string base;
  std::string fresh;
  std::string gate{detail::default_gate_text};
  bool json = false;
  std::optional<double> alpha;  // unset: the gate line's alpha (0.05 when it names none)
  // unset: the gate line's `ambiguous` item, else pass (compare shows the rows; a gated run's
  // default is fail, since its sequential rule has spent the trials that could settle them).
  std::optional<std::string> ambiguous;
  history_baseline_flags history;
};

// `compare history[:BRANCH] NEW`: each test of NEW judged against its baseline from the store,
// on that test's card when the store has it.
struct history_bases {
  std::map<std::string, detail::measured_test> tests;
  std::map<std::string, detail::history_baseline> sources;
  std::string commit;  // the commit under test, for the bisect hint
};

std::optional<history_bases> bases_from_history(
    const compare_flags& flags, const std::map<std::string, detail::measured_test>& fresh) {
  const auto source = resolve_history_baseline(flags.base, flags.history);
  if (!source) return std::nullopt;
  const auto store = detail::open_history_store(source->store, detail::store_access::read_only);
  history_bases bases;
  bases.commit = source->commit;
  for (const auto& [name, test] : fresh) {
    const auto card = test.fingerprint.find(std::string(detail::card_key));
    auto baseline = detail::baseline_from_history(
        *store, {source->store, source->branch, name,
                 card == test.fingerprint.end() ? std::string() : card->second,
                 source->max_commits});
    bases.tests.emplace(name, baseline.measured);
    bases.sources.emplace(name, std::move(baseline));
  }
  return bases;
}

ambiguous_policy compare_ambiguous_policy(const compare_flags& flags,
                                                  const detail::gate_spec& spec) {
  if (flags.ambiguous) {
    const auto chosen = detail::parse_ambiguous_policy(*flags.ambiguous);  // ambiguous_check
    if (!chosen) throw usage_error("--ambiguous takes fail, skip or pass");
    if (spec.ambiguous && *spec.ambiguous != *chosen) {
      throw usage_error(fmt::format("--gate says ambiguous {} but --ambiguous says {}; give one "
                                    "of them",
                                    detail::to_string(*spec.ambiguous), *flags.ambiguous));
    }
    return *chosen;
  }
  return spec.ambiguous.value_or(ambiguous_policy::pass);
}

int compare_results(const compare_flags& flags) {
  require_no_history_options(flags.base, flags.history);
  auto spec = detail::parse_gate_flag(flags.gate);
  if (flags.alpha) {
    if (spec.alpha_given && spec.params.alpha != *flags.alpha) {
      throw usage_error(fmt::format("--gate says alpha {} but --alpha says {}; give one of them",
                                    spec.params.alpha, *flags.alpha));
    }
    spec.params.alpha = *flags.alpha;
  }
  const auto fresh = detail::load_measured(flags.fresh);
  const auto history = bases_from_history(flags, fresh);
  const auto base = history ? history->tests : detail::load_measured(flags.base);
  detail::gate_policy policy;
  policy.gate = spec;
  policy.unknown_fails = false;  // compare fails on a confident regression only
  policy.ambiguous = compare_ambiguous_policy(flags, spec);
  std::vector<detail::gate_row> rows;
  std::vector<std::string> warnings;
  bool regressed = false;
  std::set<std::string> regressed_tests;
  bool ambiguous_fails = false;
  bool skipped = false;
  std::string common_names;
  for (const auto& [name, old_test] : base) {
    const auto found = fresh.find(name);
    if (found == fresh.end()) continue;
    common_names += " " + name;
    if (const auto card = detail::card_difference(old_test, found->second, spec.same_card)) {
      warnings.push_back(fmt::format("{}: {}", name, *card));
    }
    // Present on one side only counts too: nvbench's `sample_times` adds a key, and a baseline
    // of nvbench's means then holds another quantity than the run.
    for (const auto& [key, before, after] :
         detail::fingerprint_differences(old_test, found->second)) {
      warnings.push_back(
          fmt::format("{}: fingerprint {} differs: '{}' vs '{}'", name, key, before, after));
    }
    auto judged = detail::judge_gate(old_test, found->second, policy);
    if (judged.failed && !judged.failed_on_ambiguous) regressed_tests.insert(name);
    regressed = regressed || (judged.failed && !judged.failed_on_ambiguous);
    ambiguous_fails = ambiguous_fails || judged.failed_on_ambiguous;
    skipped = skipped || judged.skipped;
    rows.insert(rows.end(), judged.rows.begin(), judged.rows.end());
  }
  if (rows.empty() && !common_names.empty()) {
    // Tests in common whose rows the gate cannot form (no kernel measured on both sides, or
    // only quantities the gate does not judge): nothing compared is never a pass.
    throw usage_error(fmt::format("{} and {} hold the same test(s) ({}) but no row to compare: "
                                  "no kernel has a quantity the gate '{}' judges measured on "
                                  "both sides. Fix: compare results that measured kernels (a "
                                  "profiler collector) or give a --gate naming what they hold",
                                  flags.base, flags.fresh, common_names.substr(1), flags.gate));
  }
  if (rows.empty()) {
    std::string base_names;
    std::string fresh_names;
    for (const auto& [name, test] : base) base_names += " " + name;
    for (const auto& [name, test] : fresh) fresh_names += " " + name;
    throw usage_error(fmt::format("{} and {} have no test in common (base:{}; new:{}). Fix: "
                                  "compare results of the same tests (directory names are the "
                                  "test names)",
                                  flags.base, flags.fresh, base_names.empty() ? " none" : base_names,
                                  fresh_names.empty() ? " none" : fresh_names));
  }
  detail::order_by_significance(rows);  // per test, culprit first
  const auto ambiguous = detail::ambiguous_rows(rows);
  const bool failed = regressed || ambiguous_fails;
  skipped = skipped && !failed;
  if (flags.json) {
    const auto geomean = detail::geomean_ratio(rows);
    nlohmann::json out = {{"base", flags.base},
                          {"new", flags.fresh},
                          {"alpha", spec.params.alpha},
                          {"regressed", regressed},
                          {"ambiguous_policy", detail::to_string(policy.ambiguous)},
                          {"ambiguous_rows", ambiguous},
                          {"verdict", failed ? "fail" : (skipped ? "skip" : "pass")},
                          {"geomean_ratio", geomean ? nlohmann::json(*geomean) : nlohmann::json(nullptr)},
                          {"warnings", warnings},
                          {"summaries", detail::gate_summaries(rows)},
                          {"rows", detail::gate_rows_json(rows)}};
    if (history) {
      out["history"] = nlohmann::json::object();
      for (const auto& [name, source] : history->sources) {
        out["history"][name] = source.to_json();
        if (regressed_tests.contains(name))
          out["history"][name]["bisect"] = detail::history_bisect_hint(source, history->commit, name);
      }
    }
    std::cout << detail::document_text(detail::stamped(std::move(out), schemas::compare));
  } else {
    fmt::print(std::cout, "{}", detail::format_gate_table(rows, false));
    for (const auto& warning : warnings) fmt::print(std::cout, "aorta: warning: {}\n", warning);
    if (!ambiguous.empty()) {
      fmt::print(std::cout, "aorta: compare: {} row(s) AMBIGUOUS ({}): {}\n", ambiguous.size(),
                 fmt::join(ambiguous, ", "),
                 ambiguous_fails ? "FAILED under 'ambiguous fail'"
                                 : (skipped ? "SKIPPED under 'ambiguous skip'"
                                            : "passed under 'ambiguous pass'"));
    }
    if (history) {
      for (const auto& [name, source] : history->sources) {
        fmt::print(std::cout, "aorta: {}: baseline from {}\n", name, source.describe());
        if (regressed_tests.contains(name)) {
          fmt::print(std::cout, "aorta: {}: find the commit that regressed with:\n  {}\n", name,
                     detail::history_bisect_hint(source, history->commit, name));
        }
      }
    }
    fmt::print(std::cout, "aorta: compare: {}\n", regressed ? "REGRESSED (a confident regression)"
                                                 : "no confident regression");
  }
  if (failed) return 1;
  return skipped ? 77 : 0;
}

}  // namespace

void add_compare_command(CLI::App& app, action& selected) {
  auto* compare = app.add_subcommand(
      "compare", "aorta compare BASE NEW: per test and kernel old/new median, delta, p-value, "
                 "verdict; exit 1 only on a confident regression");
  auto flags = std::make_shared<compare_flags>();
  compare->add_option("base", flags->base,
                      "Baseline file/dir, results dir, result.json, or history[:BRANCH] (the "
                      "branch's trials in --history since its last change point)")
      ->required();
  compare->add_option("new", flags->fresh, "Results dir, result.json or baseline")->required();
  compare->add_option("--gate", flags->gate, "Tolerances, e.g. \"time +5%, count exact\"");
  auto* alpha = compare->add_option("--alpha", "False-alarm rate per test, from 1e-9 to 0.5 "
                                               "(default: the gate's alpha, else 0.05)")
                    ->check(CLI::Range(1e-9, 0.5).description(""));
  compare->add_option("--ambiguous", flags->ambiguous,
                      "What rows AMBIGUOUS do: fail (exit 1), skip (exit 77) or pass, rows "
                      "named (default: the gate's 'ambiguous' item, else pass)")
      ->check(ambiguous_check());
  compare->add_flag("--json", flags->json, "JSON instead of the table");
  add_history_baseline_options(*compare, flags->history);
  compare->callback([&selected, flags, alpha] {
    if (alpha->count() > 0) flags->alpha = alpha->as<double>();
    selected = [flags] { return compare_results(*flags); };
  });
}


}  // namespace aorta::cli
