#include "cells/confound_attribution.hpp"

#include "baseline/statistics.hpp"
#include "metrics/display_names.hpp"
#include "metrics/quantity_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace aorta::detail {
namespace {

// A counter within 1% of its reference counts as unchanged: Ir and ncu's instruction counts move
// by a few hundredths of a percent between runs of one build (allocator, loader, timing loops).
constexpr double unchanged_counter = 0.01;

using snapshot_reader = std::function<std::optional<double>(const trial_snapshot&)>;

struct paired_series {
  std::vector<double> cell;
  std::vector<double> reference;
};

paired_series paired(const snapshot_by_round& cell, const snapshot_by_round& reference,
                     const snapshot_reader& read) {
  paired_series out;
  for (std::size_t round = 0; round < std::min(cell.size(), reference.size()); ++round) {
    if (!cell[round] || !reference[round]) continue;
    const auto a = read(*cell[round]);
    const auto b = read(*reference[round]);
    if (!a || !b || !std::isfinite(*a) || !std::isfinite(*b) || *b <= 0.0 || *a < 0.0) continue;
    out.cell.push_back(*a);
    out.reference.push_back(*b);
  }
  return out;
}

std::optional<family_total> total_of(std::string family, bool exact, const paired_series& series) {
  if (series.cell.empty()) return std::nullopt;
  family_total total;
  total.family = std::move(family);
  total.exact = exact;
  total.cell = summarize_samples(series.cell).median;
  total.reference = summarize_samples(series.reference).median;
  std::vector<double> ratios;
  for (std::size_t i = 0; i < series.cell.size(); ++i) {
    ratios.push_back(series.cell[i] / series.reference[i]);
  }
  total.ratio = summarize_samples(ratios).median;
  if (!exact) std::tie(total.low, total.high) = median_interval(ratios);
  return total;
}

std::optional<double> kernel_time_sum(const trial_snapshot& trial) {
  if (trial.kernels.empty()) return std::nullopt;
  double sum = 0.0;
  for (const auto& [name, sample] : trial.kernels) sum += sample.time_ms;
  return sum;
}

std::optional<double> metric(const trial_snapshot& trial, const std::string& key) {
  const auto found = trial.metrics.find(key);
  if (found == trial.metrics.end()) return std::nullopt;
  return found->second;
}

// "time_ms(gemm)" -> {"time_ms", "gemm"}.
std::pair<std::string_view, std::string_view> split_label(std::string_view label) {
  const std::size_t open = label.find('(');
  if (open == std::string_view::npos || !label.ends_with(')')) return {label, {}};
  return {label.substr(0, open), label.substr(open + 1, label.size() - open - 2)};
}

const confound_row* find_row(std::span<const confound_row> rows, const std::string& quantity) {
  for (const auto& row : rows) {
    if (row.quantity == quantity && row.ratio) return &row;
  }
  return nullptr;
}

std::string percent(double ratio) {
  return fmt::format("{:+.2f}%", (ratio - 1.0) * 100.0);
}

bool moved(double ratio) {
  return std::fabs(ratio - 1.0) >= unchanged_counter;
}

std::string direction(const confound_row& row) {
  return row.ratio && *row.ratio < 1.0 ? "faster" : "slower";
}

// The counters that say which class of cost moved under a timed row of kernel `name`.
std::string kernel_work(std::span<const confound_row> rows, const confound_row& row,
                        std::string_view name, const std::optional<family_total>& total_ir) {
  const std::string kernel(name);
  std::vector<std::string> changed;
  std::vector<std::string> unchanged;
  if (const auto* launches = find_row(rows, fmt::format("count({})", kernel))) {
    const std::string text =
        fmt::format("launches {} -> {}", launches->reference_median.value_or(0),
                    launches->cell_median.value_or(0));
    (moved(*launches->ratio) ? changed : unchanged).push_back(text);
  }
  const std::pair<std::string_view, std::string_view> counters[] = {
      {"smsp__inst_executed.sum", "instructions"},
      {"dram__bytes.sum", "DRAM bytes"},
      {"lts__t_bytes.sum", "L2 bytes"}};
  bool counted = false;
  for (const auto& [counter, words] : counters) {
    const auto* found = find_row(rows, fmt::format("ncu({}, {})", counter, kernel));
    if (found == nullptr) continue;
    counted = counted || counter == counters[0].first;
    const std::string text = fmt::format("{} {}", words, percent(*found->ratio));
    (moved(*found->ratio) ? changed : unchanged).push_back(text);
  }
  if (!changed.empty()) {
    const bool more = row.ratio.value_or(1.0) >= 1.0;
    return fmt::format("{} ({})", more ? "more work" : "less work", fmt::join(changed, ", "));
  }
  if (counted) return fmt::format("same work, {} ({})", direction(row), fmt::join(unchanged, ", "));
  if (total_ir && !moved(total_ir->ratio)) {
    return fmt::format("same work, {} (total Ir {})", direction(row), percent(total_ir->ratio));
  }
  if (total_ir) return fmt::format("more or less work (total Ir {})", percent(total_ir->ratio));
  return fmt::format("{}{}; no instruction counter in this capture tells more work from the "
                     "same work {} (ncu metrics: work or callgrind counts it)",
                     unchanged.empty() ? "time moved" : "same launches, ",
                     unchanged.empty()
                         ? std::string()
                         : fmt::format("{} ({})", direction(row), fmt::join(unchanged, ", ")),
                     direction(row));
}

std::string work_words(std::span<const confound_row> rows, const confound_row& row,
                       const std::optional<family_total>& total_ir) {
  if (!row.ratio || row.verdict == confound_verdict::same ||
      row.verdict == confound_verdict::unknown) {
    return {};
  }
  const auto [kind, name] = split_label(row.quantity);
  if (kind == "ir") {
    if (row.self_share && row.share && std::fabs(*row.self_share) < 0.05 &&
        std::fabs(*row.share) > 0.5) {
      return fmt::format("{} in its callees (Ir {}, its own {:.0f}% of the change)",
                         *row.ratio >= 1.0 ? "more work" : "less work", percent(*row.ratio),
                         *row.self_share * 100.0);
    }
    return fmt::format("{} (Ir {})", *row.ratio >= 1.0 ? "more work" : "less work",
                       percent(*row.ratio));
  }
  if (kind == "count") return *row.ratio >= 1.0 ? "more launches" : "fewer launches";
  if (kind == "time_ms" || kind == "cycles") return kernel_work(rows, row, name, total_ir);
  return {};
}

int confound_verdict_rank(confound_verdict verdict) {
  switch (verdict) {
  case confound_verdict::slower:
  case confound_verdict::faster: return 0;
  case confound_verdict::ambiguous:
  case confound_verdict::unknown: return 1;
  case confound_verdict::same: return 2;
  }
  return 2;
}

// In whole percent: a share a hair above another (a libc helper's 0.01% against main's 0%) must
// not outrank the next key.
double contribution(const confound_row& row) {
  if (row.self_share) return std::round(std::fabs(*row.self_share) * 100.0);
  if (row.share) return std::round(std::fabs(*row.share) * 100.0);
  return -1.0;
}

// A caller's inclusive share: among rows that carry none of the change themselves, the one whose
// subtree holds it comes before a function that merely moved by a larger fraction of a tiny cost.
double inclusive_share(const confound_row& row) {
  return row.share ? std::fabs(*row.share) : -1.0;
}

double confound_relative_move(const confound_row& row) {
  if (!row.ratio || *row.ratio <= 0.0) return 0.0;
  return std::fabs(std::log(*row.ratio));
}

std::optional<double> share_of(double cell, double reference,
                               const std::optional<family_total>& total) {
  if (!total) return std::nullopt;
  const double change = total->cell - total->reference;
  if (change == 0.0 || !std::isfinite(change)) return std::nullopt;
  return (cell - reference) / change;
}

}  // namespace

std::pair<double, double> median_interval(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  // P(B <= j) for B ~ Binomial(n, 1/2), accumulated until 2 P(B <= k-1) would exceed 5%.
  std::size_t k = 1;
  double below = std::pow(0.5, static_cast<double>(n));  // P(B <= 0)
  double term = below;
  for (std::size_t j = 1; j < n / 2; ++j) {
    term = term * static_cast<double>(n - j + 1) / static_cast<double>(j);
    if (2.0 * (below + term) > 0.05) break;
    below += term;
    k = j + 1;
  }
  return {values[k - 1], values[n - k]};
}

cell_change attribute_pair(std::span<confound_row> rows, const snapshot_by_round& cell,
                           const snapshot_by_round& reference) {
  cell_change change;
  if (!rows.empty()) {
    change.cell = rows.front().cell;
    change.reference = rows.front().reference;
  }
  const auto time_total = total_of("kernel time", false, paired(cell, reference, kernel_time_sum));
  const auto ir_total = total_of("Ir", true, paired(cell, reference, [](const trial_snapshot& t) {
                                   return metric(t, std::string(callgrind_total_ir_metric));
                                 }));
  for (auto& row : rows) {
    const auto [kind, name] = split_label(row.quantity);
    row.system_frame = kind == "ir" && is_system_frame(name);
    if (!row.exact && row.cell_values.size() > 0) {
      std::vector<double> ratios;
      for (std::size_t i = 0; i < row.cell_values.size(); ++i) {
        ratios.push_back(row.cell_values[i] / row.reference_values[i]);
      }
      std::tie(row.ratio_low, row.ratio_high) = median_interval(ratios);
    }
    if (!row.cell_median || !row.reference_median) continue;
    if (kind == "time_ms") {
      row.share = share_of(*row.cell_median, *row.reference_median, time_total);
    } else if (kind == "ir") {
      row.share = share_of(*row.cell_median, *row.reference_median, ir_total);
      const std::string self_key = metric_key(self_ir_row().quantity, name);
      const auto self = paired(
          cell, reference, [&self_key](const trial_snapshot& t) { return metric(t, self_key); });
      if (!self.cell.empty()) {
        row.self_share = share_of(summarize_samples(self.cell).median,
                                  summarize_samples(self.reference).median, ir_total);
      }
    }
  }
  for (auto& row : rows) row.work = work_words(rows, row, ir_total);
  order_by_contribution(rows);
  if (time_total) change.totals.push_back(*time_total);
  if (ir_total) change.totals.push_back(*ir_total);
  return change;
}

void order_by_contribution(std::span<confound_row> rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const confound_row& a, const confound_row& b) {
    if (confound_verdict_rank(a.verdict) != confound_verdict_rank(b.verdict)) {
      return confound_verdict_rank(a.verdict) < confound_verdict_rank(b.verdict);
    }
    if (a.system_frame != b.system_frame) return !a.system_frame;
    if (contribution(a) != contribution(b)) return contribution(a) > contribution(b);
    if (contribution(a) <= 0.0 && inclusive_share(a) != inclusive_share(b)) {
      return inclusive_share(a) > inclusive_share(b);
    }
    return confound_relative_move(a) > confound_relative_move(b);
  });
}

}  // namespace aorta::detail
