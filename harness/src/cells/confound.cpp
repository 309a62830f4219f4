#include "cells/confound.hpp"

#include "baseline/default_gate.hpp"
#include "baseline/measured_series.hpp"
#include "baseline/statistics.hpp"
#include "cells/confound_attribution.hpp"
#include "cells/confound_summary.hpp"
#include "cells/signed_rank.hpp"
#include "metrics/quantity_table.hpp"

#include <fmt/format.h>

#include <cmath>
#include <algorithm>
#include <functional>
#include <set>

namespace aorta::detail {
namespace {

snapshot_by_round snapshots(const cell_trials& trials) {
  snapshot_by_round result;
  for (const auto& record : trials) {
    if (!record) {
      result.emplace_back();
      continue;
    }
    auto measured = measured_from_records("", {*record});
    if (measured.trials.empty()) {
      result.emplace_back();
    } else {
      result.emplace_back(std::move(measured.trials.front()));
    }
  }
  return result;
}

std::size_t measured_count(const snapshot_by_round& rounds) {
  std::size_t count = 0;
  for (const auto& round : rounds) count += round ? 1 : 0;
  return count;
}

struct quantity_reader {
  std::string label;
  bool exact = false;
  std::function<std::optional<double>(const trial_snapshot&)> read;
};

std::optional<double> metric_of(const trial_snapshot& trial, const std::string& key) {
  const auto found = trial.metrics.find(key);
  if (found == trial.metrics.end()) return std::nullopt;
  return found->second;
}

// The quantities with a gate item in the quantity table, as the default gate (default_gate_rows)
// judges them: kernel times and launch counts, scope cycles, function Ir and ncu counters
// (cells_confound_test.cpp holds the two lists equal).
std::vector<quantity_reader> quantities(const snapshot_by_round& a, const snapshot_by_round& b) {
  std::set<std::string> kernels;
  std::set<std::string> metric_keys;
  for (const auto* rounds : {&a, &b}) {
    for (const auto& round : *rounds) {
      if (!round) continue;
      for (const auto& [name, sample] : round->kernels) kernels.insert(name);
      for (const auto& [key, value] : round->metrics) metric_keys.insert(key);
    }
  }
  std::vector<quantity_reader> readers;
  for (const auto& name : kernels) {
    for (const auto& declared : quantity_table()) {
      if (declared.gate_item.empty() || declared.source != value_source::kernels) continue;
      readers.push_back({quantity_label(declared, name),
                         declared.timing == quantity_timing::exact,
                         [name, quantity = declared.quantity](
                             const trial_snapshot& t) -> std::optional<double> {
                           const auto found = t.kernels.find(name);
                           if (found == t.kernels.end()) return std::nullopt;
                           return kernel_sample_value(found->second, quantity);
                         }});
    }
  }
  for (const auto& key : metric_keys) {
    const quantity_declaration* declared = declaration_of_metric(key);
    if (declared == nullptr || declared->gate_item.empty()) continue;
    readers.push_back({quantity_label(*declared, std::string_view(key).substr(
                                                     declared->metric_prefix.size())),
                       declared->timing == quantity_timing::exact,
                       [key](const trial_snapshot& t) { return metric_of(t, key); }});
  }
  return readers;
}

// Trials from two or more process modes (process_modes.hpp): unpaired, since a process's mode is
// its own and pairing by round cannot cancel it. SLOWER when the cell is slower within the modes
// or its trials moved to slower modes, each tested at alpha / 2; AMBIGUOUS follows the
// within-mode ratio, which is the row's ratio.
void decide_multimodal(confound_row& row, const multimodal_test& modes,
                       const confound_settings& settings) {
  const bool shared = modes.shared_modes > 0;
  const double location = shared ? modes.within_ratio : modes.overall_ratio;
  const double threshold = settings.threshold;
  const double half = settings.alpha / 2.0;
  const bool within_slower = shared && location > threshold && modes.within_p_greater < half;
  const bool moved_slower = modes.overall_ratio > threshold && modes.frequency_p_greater < half;
  const bool within_faster = shared && location < 1.0 / threshold && modes.within_p_less < half;
  const bool moved_faster = modes.overall_ratio < 1.0 / threshold && modes.frequency_p_less < half;
  const bool up = location > threshold || moved_slower;
  const bool down = !up && (location < 1.0 / threshold || moved_faster);
  const double p_within = up     ? modes.within_p_greater
                          : down ? modes.within_p_less
                                 : std::min(modes.within_p_greater, modes.within_p_less);
  const double p_moved = up     ? modes.frequency_p_greater
                         : down ? modes.frequency_p_less
                                : std::min(modes.frequency_p_greater, modes.frequency_p_less);
  row.ratio = location;
  row.p_value = std::min(1.0, 2.0 * std::min(shared ? p_within : 1.0, p_moved));
  row.modes = modes;
  row.evidence = fmt::format(
      "multi-modal, {}; within modes x{:.4f} p={} (t, {:g} df); moved between modes p={:.3g} "
      "(Mann-Whitney on the mode; geometric means x{:.4f}); p={:.3g} (Bonferroni over the two)",
      describe_modes(modes), location, shared ? fmt::format("{:.3g}", p_within) : "n/a",
      modes.within_df, p_moved, modes.overall_ratio, *row.p_value);
  if (within_slower || moved_slower) {
    row.verdict = confound_verdict::slower;
  } else if (location > threshold) {
    row.verdict = confound_verdict::ambiguous;
  } else if (within_faster || moved_faster) {
    row.verdict = confound_verdict::faster;
  } else {
    row.verdict = confound_verdict::same;
  }
}

void decide(confound_row& row, const confound_settings& settings) {
  // Modes are found on log times: a cell time of 0 (allowed by the ratio) stays with the
  // signed-rank rule.
  const bool positive = std::all_of(row.cell_values.begin(), row.cell_values.end(),
                                    [](double v) { return v > 0.0; });
  if (!row.exact && positive) {
    const auto modes = test_multimodal(row.cell_values, row.reference_values);
    if (modes.modes >= 2) {
      decide_multimodal(row, modes, settings);
      return;
    }
  }
  const double ratio = *row.ratio;
  const bool up = ratio > settings.threshold;
  const bool down = ratio < 1.0 / settings.threshold;
  if (row.exact) {
    row.evidence = "exact";
    row.verdict = up ? confound_verdict::slower
                  : down ? confound_verdict::faster
                         : confound_verdict::same;
    return;
  }
  std::vector<double> log_ratios;
  for (std::size_t i = 0; i < row.cell_values.size(); ++i) {
    log_ratios.push_back(std::log(row.cell_values[i] / row.reference_values[i]));
  }
  const auto test = wilcoxon_signed_rank(log_ratios);
  row.p_value = up ? test.p_greater : down ? test.p_less : test.p_two_sided;
  row.evidence = fmt::format("p={:.3g} (signed-rank{}, W+={:g}, {} pairs)", *row.p_value,
                             up ? " one-sided >" : down ? " one-sided <" : "", test.w_plus,
                             log_ratios.size());
  const bool significant = *row.p_value < settings.alpha;
  if (up) {
    row.verdict = significant ? confound_verdict::slower : confound_verdict::ambiguous;
  } else if (down && significant) {
    row.verdict = confound_verdict::faster;
  } else {
    row.verdict = confound_verdict::same;
  }
}

// nullopt when neither cell measured the quantity (a profiler without launch counts).
std::optional<confound_row> judge_quantity(const quantity_reader& reader, const snapshot_by_round& cell,
                            const snapshot_by_round& reference,
                            const confound_settings& settings) {
  confound_row row;
  row.quantity = reader.label;
  row.exact = reader.exact;
  std::vector<double> ratios;
  bool in_cell = false;
  bool in_reference = false;
  for (std::size_t round = 0; round < std::min(cell.size(), reference.size()); ++round) {
    if (!cell[round] || !reference[round]) continue;
    const auto a = reader.read(*cell[round]);
    const auto b = reader.read(*reference[round]);
    in_cell = in_cell || a.has_value();
    in_reference = in_reference || b.has_value();
    if (!a || !b || !std::isfinite(*a) || !std::isfinite(*b) || *b <= 0.0 || *a < 0.0) continue;
    row.rounds.push_back(static_cast<int>(round));
    row.cell_values.push_back(*a);
    row.reference_values.push_back(*b);
    ratios.push_back(*a / *b);
  }
  if (!row.cell_values.empty()) {
    row.cell_median = summarize_samples(row.cell_values).median;
    row.reference_median = summarize_samples(row.reference_values).median;
    row.ratio = summarize_samples(ratios).median;
  }
  if (!in_cell && !in_reference) return std::nullopt;
  if (ratios.empty()) {
    row.evidence = !in_cell        ? "only in the reference cell"
                   : !in_reference ? "only in this cell"
                                   : "no round with a positive value in both cells";
    return row;
  }
  decide(row, settings);
  return row;
}

confound_row unknown_cell_row(const std::string& cell, const std::string& reference,
                              const std::string& why) {
  confound_row row;
  row.cell = cell;
  row.reference = reference;
  row.quantity = "(all)";
  row.evidence = why;
  return row;
}

}  // namespace

std::string_view to_string(confound_verdict verdict) noexcept {
  switch (verdict) {
  case confound_verdict::same: return "SAME";
  case confound_verdict::slower: return "SLOWER";
  case confound_verdict::faster: return "FASTER";
  case confound_verdict::ambiguous: return "AMBIGUOUS";
  case confound_verdict::unknown: return "UNKNOWN";
  }
  return "UNKNOWN";
}

std::string_view to_string(ambiguous_policy policy) noexcept {
  switch (policy) {
  case ambiguous_policy::fail: return "fail";
  case ambiguous_policy::skip: return "skip";
  case ambiguous_policy::pass: return "pass";
  }
  return "fail";
}

std::vector<confound_row> judge_cells(const std::vector<cell_plan>& cells,
                                      const std::vector<cell_trials>& trials,
                                      std::size_t baseline, const confound_settings& settings,
                                      std::vector<cell_change>* changes) {
  std::vector<snapshot_by_round> measured;
  for (const auto& cell : trials) measured.push_back(snapshots(cell));
  std::vector<confound_row> rows;
  const auto references = reference_cells(cells, baseline);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const auto& reference = references[i];
    if (!reference) continue;
    const std::string& name = cells[i].name;
    const std::string& reference_name = cells[*reference].name;
    // A cell that measured nothing must read UNKNOWN, never SAME by having no rows.
    const std::size_t unmeasured = measured_count(measured[i]) == 0           ? i
                                   : measured_count(measured[*reference]) == 0 ? *reference
                                                                               : cells.size();
    if (unmeasured != cells.size()) {
      rows.push_back(unknown_cell_row(
          name, reference_name,
          fmt::format("cell {} measured no trial: every one failed before a capture or was "
                      "skipped",
                      cells[unmeasured].name)));
      if (changes != nullptr) {
        changes->push_back({name, reference_name, {},
                            change_sentence(std::span(rows).last(1), {name, reference_name, {}, {}},
                                            settings.threshold)});
      }
      continue;
    }
    const std::size_t before = rows.size();
    for (const auto& reader : quantities(measured[i], measured[*reference])) {
      auto row = judge_quantity(reader, measured[i], measured[*reference], settings);
      if (!row) continue;
      row->cell = name;
      row->reference = reference_name;
      rows.push_back(std::move(*row));
    }
    if (rows.size() == before) {
      rows.push_back(unknown_cell_row(name, reference_name,
                                      "no kernel time, scope cycles or function Ir was measured "
                                      "(does the cell run a collector?)"));
      if (changes != nullptr) {
        changes->push_back({name, reference_name, {},
                            change_sentence(std::span(rows).last(1), {name, reference_name, {}, {}},
                                            settings.threshold)});
      }
      continue;
    }
    const std::span<confound_row> pair(rows.begin() + static_cast<std::ptrdiff_t>(before),
                                       rows.end());
    auto change = attribute_pair(pair, measured[i], measured[*reference]);
    change.sentence = change_sentence(pair, change, settings.threshold);
    if (changes != nullptr) changes->push_back(std::move(change));
  }
  return rows;
}

nlohmann::json confound_rows_json(const std::vector<confound_row>& rows) {
  using json = nlohmann::json;
  json out = json::array();
  const auto optional = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  for (const auto& row : rows) {
    out.push_back({{"cell", row.cell},
                   {"reference_cell", row.reference},
                   {"quantity", row.quantity},
                   {"exact", row.exact},
                   {"rounds", row.rounds},
                   {"reference_samples", row.reference_values},
                   {"cell_samples", row.cell_values},
                   {"reference_median", optional(row.reference_median)},
                   {"cell_median", optional(row.cell_median)},
                   {"ratio", optional(row.ratio)},
                   {"p_value", optional(row.p_value)},
                   {"modes", row.modes ? multimodal_json(*row.modes, "cell_trials", "reference_trials") : json(nullptr)},
                   {"evidence", row.evidence},
                   {"verdict", to_string(row.verdict)},
                   {"system_frame", row.system_frame},
                   {"share", optional(row.share)},
                   {"self_share", optional(row.self_share)},
                   {"ratio_low", optional(row.ratio_low)},
                   {"ratio_high", optional(row.ratio_high)},
                   {"work", row.work}});
  }
  return out;
}

}  // namespace aorta::detail
