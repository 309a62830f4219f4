#include "baseline/pc_sample_gate.hpp"

#include "metrics/pc_sample_metrics.hpp"
#include "metrics/quantity_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>

namespace aorta::detail {
namespace {

constexpr std::string_view other_lines = "(other lines)";
constexpr std::string_view not_stalled = "(not stalled)";
// Moves smaller than this many points are left out of the evidence: they are noise at any
// sample count a kernel gets.
constexpr double shown_move_points = 0.5;
constexpr std::size_t shown_moves = 3;

enum class row_kind { lines, reasons };

// One trial's samples of a kernel per category, or why they do not add up.
struct trial_counts {
  std::map<std::string, double> counts;
  std::string broken;
};

trial_counts counts_of(const pc_kernel_record& kernel, row_kind kind) {
  trial_counts out;
  const auto& listed = kind == row_kind::lines ? kernel.lines : kernel.reasons;
  double sum = 0.0;
  for (const auto& [name, count] : listed) {
    out.counts[name] = count;
    sum += count;
  }
  // Lines past pc_line_metric_limit and samples that did not stall are what the listed leave.
  const double rest = kernel.samples - sum;
  if (rest < 0) {
    out.broken =
        fmt::format("the {} hold {:.0f} samples of the kernel's {:.0f}",
                    kind == row_kind::lines ? "lines" : "stall reasons", sum, kernel.samples);
  } else if (rest > 0) {
    out.counts[std::string(kind == row_kind::lines ? other_lines : not_stalled)] = rest;
  }
  return out;
}

struct side_counts {
  std::vector<trial_counts> trials;  // those that sampled the kernel
  std::map<std::string, double> pooled;
  std::string broken;
};

side_counts side_of(const measured_test& test, const std::string& kernel, row_kind kind) {
  side_counts side;
  for (const auto& trial : test.trials) {
    const auto kernels = pc_kernels_in_metrics(trial.metrics);
    const auto found = kernels.find(kernel);
    if (found == kernels.end() || found->second.samples <= 0) continue;
    trial_counts counts = counts_of(found->second, kind);
    if (!counts.broken.empty()) side.broken = counts.broken;
    for (const auto& [name, count] : counts.counts) side.pooled[name] += count;
    side.trials.push_back(std::move(counts));
  }
  return side;
}

// The categories with samples, those below min_category_samples (both sides) folded into one.
std::vector<std::string> categories_of(const side_counts& base, const side_counts& fresh,
                                       std::string_view fold_into) {
  std::map<std::string, double> both = base.pooled;
  for (const auto& [name, count] : fresh.pooled) both[name] += count;
  std::vector<std::string> kept;
  bool folded = false;
  for (const auto& [name, count] : both) {
    if (count >= min_category_samples && name != fold_into)
      kept.push_back(name);
    else if (count > 0)
      folded = true;
  }
  if (folded) kept.emplace_back(fold_into);
  return kept;
}

std::vector<double> counts_in(const std::map<std::string, double>& counts,
                              const std::vector<std::string>& categories) {
  std::vector<double> out(categories.size(), 0.0);
  for (const auto& [name, count] : counts) {
    const auto at = std::find(categories.begin(), categories.end(), name);
    // A name not kept was folded, and the fold is the last category.
    out[at == categories.end() ? categories.size() - 1
                               : static_cast<std::size_t>(at - categories.begin())] += count;
  }
  return out;
}

// One trial's share (%) of the category at `index`.
double share_in(const std::map<std::string, double>& counts, std::size_t index,
                const std::vector<std::string>& categories) {
  const std::vector<double> split = counts_in(counts, categories);
  const double total = std::accumulate(split.begin(), split.end(), 0.0);
  return total > 0 ? 100.0 * split[index] / total : 0.0;
}

bool seen_in_majority(std::size_t seen, const measured_test& side) {
  return 2 * seen > side.trials.size();
}

// A side that sampled (`<c>_pc_samples`) but kept no kernel's samples: recorded by an aorta from
// before the gate read PC samples.
bool totals_only(const measured_test& side) {
  for (const auto& trial : side.trials)
    for (const auto& [key, value] : trial.metrics)
      if (key.ends_with("_pc_samples") && value > 0 && pc_kernels_in_metrics(trial.metrics).empty())
        return true;
  return false;
}

std::optional<gate_row> kernel_row(double tolerance, const measured_test& base,
                                   const measured_test& fresh, const std::string& kernel,
                                   row_kind kind) {
  side_counts base_side = side_of(base, kernel, kind);
  side_counts fresh_side = side_of(fresh, kernel, kind);
  const bool in_base = seen_in_majority(base_side.trials.size(), base);
  const bool in_fresh = seen_in_majority(fresh_side.trials.size(), fresh);
  if (!in_base && !in_fresh) return std::nullopt;
  // No stall reason recorded on either side: nothing to compare but "not stalled" with itself.
  const auto has_reasons = [](const side_counts& side) {
    return std::any_of(side.pooled.begin(), side.pooled.end(),
                       [](const auto& entry) { return entry.first != not_stalled; });
  };
  if (kind == row_kind::reasons && !has_reasons(base_side) && !has_reasons(fresh_side))
    return std::nullopt;
  gate_row row;
  row.test = base.test;
  row.label = kind == row_kind::lines ? fmt::format("samples({}) by line", kernel)
                                      : fmt::format("stalls({}) by reason", kernel);
  row.quantity = (kind == row_kind::lines ? line_samples_row() : stall_samples_row()).quantity;
  row.fraction = tolerance;
  row.bound_text = fmt::format("shares move <= {:g} points", tolerance * 100.0);
  const std::string fold(kind == row_kind::lines ? other_lines : not_stalled);
  row.categories = categories_of(base_side, fresh_side, fold);
  if (row.categories.empty()) row.categories.push_back(fold);
  row.base_counts = counts_in(base_side.pooled, row.categories);
  row.fresh_counts = counts_in(fresh_side.pooled, row.categories);
  if (!in_base && totals_only(base)) {
    row.why_unknown = "the baseline holds PC-sample totals but no kernel's lines or stall reasons "
                      "(recorded before the gate read them). Fix: re-record it with `aorta "
                      "baseline record`";
    return row;
  }
  const std::string broken = !base_side.broken.empty() ? base_side.broken : fresh_side.broken;
  if (!broken.empty()) {
    row.why_unknown = fmt::format("{}; the recorded samples are inconsistent. Fix: re-record the "
                                  "baseline and re-run",
                                  broken);
    return row;
  }
  // The table shows each trial's share of the category whose pooled share moved most.
  const double base_total = std::accumulate(row.base_counts.begin(), row.base_counts.end(), 0.0);
  const double fresh_total = std::accumulate(row.fresh_counts.begin(), row.fresh_counts.end(), 0.0);
  std::size_t most = 0;
  double largest = -1.0;
  for (std::size_t i = 0; i < row.categories.size(); ++i) {
    const double move = std::abs((fresh_total > 0 ? row.fresh_counts[i] / fresh_total : 0.0) -
                                 (base_total > 0 ? row.base_counts[i] / base_total : 0.0));
    // Unmoved shares show the hottest category rather than the first by name.
    if (move > largest || (move == largest && row.base_counts[i] > row.base_counts[most])) {
      largest = move;
      most = i;
    }
  }
  if (in_base)
    for (const auto& trial : base_side.trials)
      row.base.push_back(share_in(trial.counts, most, row.categories));
  if (in_fresh)
    for (const auto& trial : fresh_side.trials)
      row.fresh.push_back(share_in(trial.counts, most, row.categories));
  return row;
}

// The regularized lower incomplete gamma P(a, x) by its series, for x < a + 1.
double lower_gamma_series(double a, double x) {
  double term = 1.0 / a;
  double sum = term;
  for (int n = 1; n < 10000; ++n) {
    term *= x / (a + n);
    sum += term;
    if (std::abs(term) < std::abs(sum) * 1e-15) break;
  }
  return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

// The regularized upper incomplete gamma Q(a, x) by Lentz's continued fraction, for x >= a + 1.
double upper_gamma_fraction(double a, double x) {
  constexpr double tiny = 1e-300;
  double b = x + 1.0 - a;
  double c = 1.0 / tiny;
  double d = 1.0 / b;
  double h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double step = d * c;
    h *= step;
    if (std::abs(step - 1.0) < 1e-15) break;
  }
  return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}

std::string moves_text(const gate_row& row) {
  const double base_total = std::accumulate(row.base_counts.begin(), row.base_counts.end(), 0.0);
  const double fresh_total = std::accumulate(row.fresh_counts.begin(), row.fresh_counts.end(), 0.0);
  if (base_total <= 0 || fresh_total <= 0) return {};
  // Largest move first; of equal moves a line or a reason before the (other ...) category, whose
  // move is only the others' seen from the other side.
  std::vector<std::tuple<double, bool, std::size_t>> moved;
  for (std::size_t i = 0; i < row.categories.size(); ++i) {
    const double change =
        100.0 * (row.fresh_counts[i] / fresh_total - row.base_counts[i] / base_total);
    const bool folded = row.categories[i].starts_with('(');
    // Rounded, so moves equal but for the last bit of a division tie as they read.
    const double size = std::round(std::abs(change) * 1e6) / 1e6;
    if (size >= shown_move_points) moved.emplace_back(-size, folded, i);
  }
  std::sort(moved.begin(), moved.end());
  const bool stalls = declaration_of(row.quantity).argument_names_reason;
  std::string text;
  for (std::size_t k = 0; k < moved.size() && k < shown_moves; ++k) {
    const std::size_t i = std::get<2>(moved[k]);
    const std::string& name = row.categories[i];
    text += fmt::format("{}{}{} {:.1f}% -> {:.1f}%", text.empty() ? "" : ", ", name,
                        stalls && name != not_stalled ? " stalls" : "",
                        100.0 * row.base_counts[i] / base_total,
                        100.0 * row.fresh_counts[i] / fresh_total);
  }
  return text;
}

}  // namespace

std::vector<gate_row> pc_sample_gate_rows(double tolerance, const measured_test& base,
                                          const measured_test& fresh) {
  std::set<std::string> kernels;
  for (const auto* side : {&base, &fresh})
    for (const auto& trial : side->trials)
      for (const auto& [name, record] : pc_kernels_in_metrics(trial.metrics)) kernels.insert(name);
  std::vector<gate_row> rows;
  for (const std::string& kernel : kernels) {
    for (const row_kind kind : {row_kind::lines, row_kind::reasons}) {
      if (auto row = kernel_row(tolerance, base, fresh, kernel, kind)) rows.push_back(*row);
    }
  }
  return rows;
}

homogeneity_test test_homogeneity(const std::vector<double>& base_counts,
                                  const std::vector<double>& fresh_counts) {
  homogeneity_test out;
  const double base_total = std::accumulate(base_counts.begin(), base_counts.end(), 0.0);
  const double fresh_total = std::accumulate(fresh_counts.begin(), fresh_counts.end(), 0.0);
  const double total = base_total + fresh_total;
  if (base_total <= 0 || fresh_total <= 0) return out;
  int categories = 0;
  for (std::size_t i = 0; i < base_counts.size() && i < fresh_counts.size(); ++i) {
    const double column = base_counts[i] + fresh_counts[i];
    if (column <= 0) continue;
    ++categories;
    const double expected_base = column * base_total / total;
    const double expected_fresh = column * fresh_total / total;
    out.statistic +=
        (base_counts[i] - expected_base) * (base_counts[i] - expected_base) / expected_base +
        (fresh_counts[i] - expected_fresh) * (fresh_counts[i] - expected_fresh) / expected_fresh;
    out.moved += 0.5 * std::abs(fresh_counts[i] / fresh_total - base_counts[i] / base_total);
  }
  out.degrees = categories - 1;
  out.p_value = out.degrees < 1 ? 1.0 : chi_square_survival(out.statistic, out.degrees);
  return out;
}

double chi_square_survival(double x, double degrees) {
  if (!(x > 0)) return 1.0;
  const double a = degrees / 2.0;
  const double half = x / 2.0;
  const double q =
      half < a + 1.0 ? 1.0 - lower_gamma_series(a, half) : upper_gamma_fraction(a, half);
  return std::clamp(q, 0.0, 1.0);
}

void assess_proportions(gate_row& row) {
  const homogeneity_test test = test_homogeneity(row.base_counts, row.fresh_counts);
  row.p_value = test.p_value;
  row.estimate_beyond = test.moved > row.fraction;
  row.moves = moves_text(row);
}

void explain_slower_by_stalls(std::vector<gate_row>& rows) {
  std::map<std::string, const gate_row*> by_label;
  for (const gate_row& row : rows) by_label[row.test + '\0' + row.label] = &row;
  const auto find = [&](const gate_row& near, const std::string& label) -> const gate_row* {
    const auto found = by_label.find(near.test + '\0' + label);
    return found == by_label.end() ? nullptr : found->second;
  };
  constexpr std::string_view time_form = "time_ms(";
  for (gate_row& row : rows) {
    const bool slower =
        (row.verdict == gate_verdict::worse || row.verdict == gate_verdict::ambiguous) &&
        row.delta.value_or(0.0) > 0.0;
    if (row.quantity != kernel_time_row().quantity || !slower ||
        !row.label.starts_with(time_form) || !row.label.ends_with(")") ||
        row.evidence.find("slower: ") != std::string::npos)
      continue;
    const std::string kernel =
        row.label.substr(time_form.size(), row.label.size() - time_form.size() - 1);
    const gate_row* stalls = find(row, fmt::format("stalls({}) by reason", kernel));
    if (stalls == nullptr || stalls->moves.empty() || !stalls->estimate_beyond) continue;
    const gate_row* count = find(row, fmt::format("count({})", kernel));
    const bool same_work = count != nullptr && count->verdict == gate_verdict::same;
    row.evidence += fmt::format("; {}slower: {}", same_work ? "same work, " : "", stalls->moves);
  }
}

}  // namespace aorta::detail
