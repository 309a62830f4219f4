#include "baseline/measured_series.hpp"

#include "checks/closest_names.hpp"
#include "checks/ncu_checks.hpp"
#include "metrics/anchor_hint.hpp"
#include "metrics/quantity_table.hpp"

#include <fmt/format.h>

namespace aorta::detail {

std::map<std::string, std::string>
fingerprint_of(const std::map<std::string, std::string>& versions) {
  auto fingerprint = versions;
  fingerprint.erase("aorta");
  return fingerprint;
}

namespace {

// Each rank's rows of one trial as that rank's snapshot; the first collector with kernels gives
// the kernels, as for the sum.
void add_rank_snapshots(const trial_record& record, std::size_t trial, measured_test& result) {
  std::string collector;
  for (const auto& row : record.ranks) {
    if (collector.empty() && !row.kernels.empty()) collector = row.collector;
  }
  for (const auto& row : record.ranks) {
    auto& rank = result.ranks[row.rank];
    rank.trials.resize(trial + 1);
    rank.places.resize(trial + 1);
    auto& snapshot = rank.trials[trial];
    snapshot.metrics.insert(row.metrics.begin(), row.metrics.end());
    if (row.collector == collector) {
      for (const auto& [name, sample] : row.kernels) {
        const auto& [launches, time_ms] = sample;
        snapshot.kernels[name] = kernel_sample{
            launches ? std::optional(static_cast<double>(*launches)) : std::nullopt, time_ms};
      }
    }
    rank.places[trial] = rank_place{row.host, row.card};
  }
}

}  // namespace

measured_test rank_as_test(const measured_test& test, int rank) {
  measured_test one;
  one.test = test.test;
  one.fingerprint = test.fingerprint;
  one.provenance = test.provenance;
  if (const auto found = test.ranks.find(rank); found != test.ranks.end()) {
    one.trials = found->second.trials;
  }
  one.trials.resize(test.trials.size());
  return one;
}

measured_test measured_from_records(const std::string& test,
                                    const std::vector<trial_record>& records) {
  measured_test result;
  result.test = test;
  bool every_trial_serialized = true;
  for (const auto& record : records) {
    // A trial the gate skipped (no baseline yet) measured like any other: it is what
    // `baseline record` records.
    const bool measured = record.verdict_from_gate || record.verdict == verdict::pass ||
                          record.verdict == verdict::fail;
    if (!measured) continue;
    every_trial_serialized = every_trial_serialized && record.ranks_serialized;
    if (result.trials.empty()) result.fingerprint = fingerprint_of(record.versions);
    trial_snapshot snapshot;
    for (const auto& [name, value] : record.metrics.values) {
      if (const auto number = numeric_value(value)) snapshot.metrics[name] = *number;
    }
    // Kernel checks read one capture (the first with kernels), so only that collector's rows.
    const std::string collector =
        record.metrics.kernels.empty() ? std::string{} : record.metrics.kernels.front().collector;
    for (const auto& row : record.metrics.kernels) {
      if (row.collector != collector) continue;
      auto& sample = snapshot.kernels[row.name];
      const bool first = sample.time_ms == 0.0 && !sample.launches;
      sample.time_ms += row.total_ms;
      if (!row.launches) {
        sample.launches.reset();
      } else if (first || sample.launches) {
        sample.launches = sample.launches.value_or(0.0) + static_cast<double>(*row.launches);
      }
    }
    result.trials.push_back(std::move(snapshot));
    add_rank_snapshots(record, result.trials.size() - 1, result);
  }
  for (auto& [rank, series] : result.ranks) {
    series.trials.resize(result.trials.size());
    series.places.resize(result.trials.size());
  }
  result.ranks_serialized = !result.trials.empty() && every_trial_serialized;
  return result;
}

std::optional<double> kernel_sample_value(const kernel_sample& sample, check_quantity quantity) {
  // A baseline's kernel table keeps the one timed column and the one exact column of the
  // kernel rows of the quantity table.
  const quantity_declaration& declared = declaration_of(quantity);
  if (declared.source != value_source::kernels || !declared.numeric) return std::nullopt;
  if (declared.timing == quantity_timing::timed) return sample.time_ms;
  return sample.launches;
}

bool has_timed_quantities(const measured_test& test) {
  for (const auto& trial : test.trials) {
    if (!trial.kernels.empty()) return true;
    for (const auto& [key, value] : trial.metrics) {
      const auto* declared = declaration_of_metric(key);
      if (declared != nullptr && is_timed_quantity(declared->quantity)) return true;
    }
  }
  return false;
}

namespace {

// No kernel, function or scope matched: 0 for count() and for a term written `F(A)?`, else not
// measured (a misspelt or vanished name must not read 0 and pass an upper bound).
std::optional<double> absent_term_value(check_quantity quantity, bool absent_reads_zero,
                                      std::string what, const std::vector<std::string>& names,
                                      const std::string& argument, std::string& why) {
  if (reads_zero_when_absent(quantity, absent_reads_zero)) return 0.0;
  why = fmt::format("{}, so {}({}) was not measured{}", what, to_string(quantity), argument,
                    closest_names_text(names, argument));
  return std::nullopt;
}

// A function's Ir in a trial's per-function metrics (a baseline keeps no capture).
std::optional<double> function_metric_value(check_quantity quantity, const std::string& argument,
                                            const name_regex& pattern, bool absent_reads_zero,
                                            const trial_snapshot& trial, std::string& why) {
  // The per-function metrics a trial records (callgrind_ir.* and callgrind_self_ir.*).
  const std::string_view prefix = declaration_of(quantity).metric_prefix;
  const std::string_view form = to_string(quantity);
  std::optional<double> value;
  std::vector<std::string> matches;
  std::vector<std::string> functions;
  for (const auto& [name, number] : trial.metrics) {
    if (!name.starts_with(prefix)) continue;
    functions.push_back(name.substr(prefix.size()));
    if (!pattern.search(functions.back())) continue;
    matches.push_back(functions.back());
    value = number;
  }
  if (matches.size() > 1) {
    why = fmt::format("{}({}) matches several functions; anchor it{}", form, argument,
                      anchor_hint(form, argument, matches, functions));
    return std::nullopt;
  }
  if (value) return value;
  return absent_term_value(quantity, absent_reads_zero,
                           fmt::format("{}({}) matches none of the functions a trial records ({}*)",
                                       form, argument, prefix),
                           functions, argument, why);
}

std::optional<double> measure_one(check_quantity quantity, const std::string& argument,
                                  const std::optional<name_regex>& pattern, bool absent_reads_zero,
                                  const trial_snapshot& trial, std::string& why) {
  const quantity_declaration& declared = declaration_of(quantity);
  if (!declared.numeric) {
    why = fmt::format("{} has no numeric value to compare with a baseline", to_string(quantity));
    return std::nullopt;
  }
  switch (declared.source) {
  case value_source::metrics: {
    const auto found = trial.metrics.find(argument);
    if (found == trial.metrics.end()) {
      why = fmt::format("metric '{}' not measured", argument);
      return std::nullopt;
    }
    return found->second;
  }
  case value_source::kernels: {
    double total = 0.0;
    std::size_t matched = 0;
    for (const auto& [name, sample] : trial.kernels) {
      if (!pattern->search(name)) continue;
      ++matched;
      const std::optional<double> value = kernel_sample_value(sample, quantity);
      if (!value) {
        why = fmt::format("launch count of '{}' unknown", name);
        return std::nullopt;
      }
      total += *value;
    }
    if (matched > 0) return total;
    std::vector<std::string> names;
    for (const auto& [name, sample] : trial.kernels) names.push_back(name);
    return absent_term_value(quantity, absent_reads_zero,
                           fmt::format("no kernel matches '{}'", argument), names, argument, why);
  }
  case value_source::scopes: {
    const auto found = trial.metrics.find(metric_key(quantity, argument));
    if (found == trial.metrics.end()) {
      if (reads_zero_when_absent(quantity, absent_reads_zero)) return 0.0;
      why = fmt::format("scope '{}' not measured", argument);
      return std::nullopt;
    }
    return found->second;
  }
  case value_source::functions: {
    if (declared.metric_prefix.empty()) {
      why = fmt::format("{}() is not recorded in baselines; check an exact count instead",
                        to_string(quantity));
      return std::nullopt;
    }
    return function_metric_value(quantity, argument, *pattern, absent_reads_zero, trial, why);
  }
  case value_source::counters: {
    counter_sum sum = ncu_counter_in_metrics(trial.metrics, argument, *pattern);
    if (!sum.value && sum.no_kernel_matched && reads_zero_when_absent(quantity, absent_reads_zero))
      return 0.0;
    if (!sum.value) why = std::move(sum.why);
    return sum.value;
  }
  case value_source::findings:
    why = fmt::format("{} is judged against a count, not a baseline", to_string(quantity));
    return std::nullopt;
  case value_source::pc_samples:
    why = fmt::format("{}() is not recorded in baselines; check a share against a number",
                      to_string(quantity));
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::optional<double> measure(const check_expression& expression, const trial_snapshot& trial,
                              std::string& why) {
  const auto numerator =
      measure_one(expression.quantity(), expression.argument(), expression.pattern(),
                  expression.absent_reads_zero(), trial, why);
  if (!numerator || !expression.is_ratio()) return numerator;
  const auto denominator = measure_one(expression.denominator_quantity(), *expression.denominator(),
                                       expression.denominator_pattern(),
                                       expression.denominator_absent_reads_zero(), trial, why);
  if (!denominator) return std::nullopt;
  if (*denominator == 0.0) {
    why = "the denominator is 0";
    return std::nullopt;
  }
  return *numerator / *denominator;
}

std::vector<double> measure_all(const check_expression& expression, const measured_test& test,
                                std::string& why) {
  std::vector<double> values;
  for (const auto& trial : test.trials) {
    if (const auto value = measure(expression, trial, why)) values.push_back(*value);
  }
  return values;
}

}  // namespace aorta::detail
