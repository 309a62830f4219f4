#include "baseline/process_modes.hpp"

#include "baseline/statistics.hpp"
#include "baseline/welch_p_values.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>

namespace aorta::detail {
namespace {

struct mode_segment {
  std::size_t begin = 0;
  std::size_t end = 0;  // one past the last, in sorted order
};

double mean_of(const std::vector<double>& sorted, std::size_t begin, std::size_t end) {
  double sum = 0.0;
  for (std::size_t i = begin; i < end; ++i) sum += sorted[i];
  return sum / static_cast<double>(end - begin);
}

// Sum of squared deviations from the part's mean.
double spread_of(const std::vector<double>& sorted, std::size_t begin, std::size_t end) {
  const double mean = mean_of(sorted, begin, end);
  double sum = 0.0;
  for (std::size_t i = begin; i < end; ++i) sum += (sorted[i] - mean) * (sorted[i] - mean);
  return sum;
}

// The cut of `part` (an index into `sorted`) leaving the least spread within the two sides, or
// nullopt when no cut passes the limits of process_modes.hpp.
std::optional<std::size_t> best_cut(const std::vector<double>& sorted, mode_segment part,
                                    mode_reach reach) {
  if (part.end - part.begin < 2 * min_mode_trials) return std::nullopt;
  std::size_t best = 0;
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t cut = part.begin + min_mode_trials; cut + min_mode_trials <= part.end; ++cut) {
    const double within = spread_of(sorted, part.begin, cut) + spread_of(sorted, cut, part.end);
    if (within < least) {
      least = within;
      best = cut;
    }
  }
  const double low = mean_of(sorted, part.begin, best);
  const double high = mean_of(sorted, best, part.end);
  const double least_ratio = reach == mode_reach::wide ? mode_wide_ratio : mode_min_ratio;
  if (high - low < std::log(least_ratio)) return std::nullopt;
  // Ashman's D = sqrt(2) |m1 - m2| / sqrt(s1^2 + s2^2), sample variances of the two sides.
  const double var_low =
      spread_of(sorted, part.begin, best) / static_cast<double>(best - part.begin - 1);
  const double var_high =
      spread_of(sorted, best, part.end) / static_cast<double>(part.end - best - 1);
  const double pooled = var_low + var_high;
  const double separation =
      high - low < std::log(mode_wide_ratio) ? mode_narrow_separation : mode_min_separation;
  if (pooled > 0.0 && std::sqrt(2.0) * (high - low) / std::sqrt(pooled) < separation) {
    return std::nullopt;
  }
  return best;
}

// The shift of the cell's log times with one intercept per mode (least squares), and its t-test.
void within_mode_shift(const std::vector<double>& logs, const std::vector<bool>& is_cell,
                       const std::vector<std::size_t>& mode_of, multimodal_test& test) {
  const std::size_t modes = test.modes;
  std::vector<double> cell_sum(modes, 0.0), reference_sum(modes, 0.0);
  for (std::size_t i = 0; i < logs.size(); ++i) {
    (is_cell[i] ? cell_sum : reference_sum)[mode_of[i]] += logs[i];
  }
  double weighted_shift = 0.0;
  double weight = 0.0;
  for (std::size_t m = 0; m < modes; ++m) {
    const auto nc = static_cast<double>(test.cell_per_mode[m]);
    const auto nr = static_cast<double>(test.reference_per_mode[m]);
    if (nc == 0.0 || nr == 0.0) continue;
    ++test.shared_modes;
    const double w = nc * nr / (nc + nr);
    weighted_shift += w * (cell_sum[m] / nc - reference_sum[m] / nr);
    weight += w;
  }
  if (test.shared_modes == 0) return;
  const double shift = weighted_shift / weight;
  // Residuals after the per-mode intercept: the mode's mean of (log - shift x is_cell).
  std::vector<double> intercept(modes, 0.0);
  std::vector<double> count(modes, 0.0);
  for (std::size_t i = 0; i < logs.size(); ++i) {
    intercept[mode_of[i]] += logs[i] - (is_cell[i] ? shift : 0.0);
    count[mode_of[i]] += 1.0;
  }
  double residual = 0.0;
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const double e =
        logs[i] - (is_cell[i] ? shift : 0.0) - intercept[mode_of[i]] / count[mode_of[i]];
    residual += e * e;
  }
  test.within_ratio = std::exp(shift);
  test.within_shift = shift;
  test.within_df = static_cast<double>(logs.size()) - static_cast<double>(modes) - 1.0;
  if (test.within_df < 1.0) return;
  const double standard_error = std::sqrt(residual / test.within_df / weight);
  test.within_standard_error = standard_error;
  if (standard_error == 0.0) {  // identical trials within every mode: the shift is certain
    test.within_p_greater = shift > 0.0 ? 0.0 : 1.0;
    test.within_p_less = shift < 0.0 ? 0.0 : 1.0;
    return;
  }
  const double t = shift / standard_error;
  test.within_p_greater = student_t_survival(t, test.within_df);
  test.within_p_less = student_t_survival(-t, test.within_df);
}

// One-sided p-values from the two-sided Mann-Whitney test: half of it in the direction U moved
// (what scipy's one-sided test gives there), the complement in the other.
void frequency_shift(const std::vector<double>& cell_modes,
                     const std::vector<double>& reference_modes, multimodal_test& test) {
  const auto result = mann_whitney_u(cell_modes, reference_modes);
  const double centre =
      static_cast<double>(cell_modes.size()) * static_cast<double>(reference_modes.size()) / 2.0;
  const double half = result.p_value / 2.0;
  test.frequency_p_greater = result.u > centre ? half : result.u < centre ? 1.0 - half : 1.0;
  test.frequency_p_less = result.u < centre ? half : result.u > centre ? 1.0 - half : 1.0;
}

}  // namespace

mode_split detect_modes(const std::vector<double>& values, mode_reach reach) {
  // Modes are cut on log times: a time that is zero, negative or not finite leaves one mode of
  // unknown centre, and the caller's single-mode rule judges the row.
  if (!std::all_of(values.begin(), values.end(),
                   [](double v) { return std::isfinite(v) && v > 0.0; })) {
    return {std::vector<std::size_t>(values.size(), 0),
            {std::numeric_limits<double>::quiet_NaN()}};
  }
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<double> sorted;
  for (const auto i : order) sorted.push_back(std::log(values[i]));
  std::vector<mode_segment> parts{{0, sorted.size()}};
  // Split the part with the best cut until none passes or max_modes is reached.
  for (bool split = true; split && parts.size() < max_modes;) {
    split = false;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      const auto cut = best_cut(sorted, parts[p], reach);
      if (!cut) continue;
      const mode_segment high{*cut, parts[p].end};
      parts[p].end = *cut;
      parts.insert(parts.begin() + static_cast<std::ptrdiff_t>(p) + 1, high);
      split = true;
      break;
    }
  }
  mode_split result;
  result.mode_of.assign(values.size(), 0);
  for (std::size_t m = 0; m < parts.size(); ++m) {
    result.centres.push_back(std::exp(mean_of(sorted, parts[m].begin, parts[m].end)));
    for (std::size_t i = parts[m].begin; i < parts[m].end; ++i) result.mode_of[order[i]] = m;
  }
  return result;
}

namespace {

// The tests on one split of the trials (cell's first) into modes.
multimodal_test judge_split(const std::vector<double>& cell, const std::vector<double>& reference,
                            const mode_split& split, mode_pairing pairing) {
  std::vector<double> values(cell);
  values.insert(values.end(), reference.begin(), reference.end());
  multimodal_test test;
  test.modes = split.centres.size();
  test.centres = split.centres;
  test.mode_of = split.mode_of;
  test.cell_per_mode.assign(test.modes, 0);
  test.reference_per_mode.assign(test.modes, 0);
  std::vector<bool> is_cell(values.size(), false);
  std::vector<double> logs, cell_modes, reference_modes;
  double cell_log_sum = 0.0, reference_log_sum = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    is_cell[i] = i < cell.size();
    logs.push_back(std::log(values[i]));
    (is_cell[i] ? test.cell_per_mode : test.reference_per_mode)[split.mode_of[i]] += 1;
    (is_cell[i] ? cell_modes : reference_modes).push_back(static_cast<double>(split.mode_of[i]));
    (is_cell[i] ? cell_log_sum : reference_log_sum) += logs.back();
  }
  const auto modes_used = [](const std::vector<std::size_t>& per_mode) {
    return std::count_if(per_mode.begin(), per_mode.end(), [](std::size_t n) { return n > 0; });
  };
  // Both cells of a round in one mode in all rounds but one: a drift common to the pair (which
  // pairing cancels; a shift of the cell can move one round across the cut), not modes of their
  // own processes, which put the two cells of about half the rounds in different modes. And each
  // cell must have trials in two modes: a cell shifted past a cut, its reference all on one side,
  // is a change of location that the paired test judges, not modes (10 trials of a cell all in
  // one of two equally likely modes: 2 in 1,000).
  // Unpaired sides have no common drift to tell apart.
  std::size_t discordant = 0;
  for (std::size_t r = 0; r < std::min(cell.size(), reference.size()); ++r) {
    discordant += split.mode_of[r] != split.mode_of[cell.size() + r] ? 1 : 0;
  }
  const bool drift_only = pairing == mode_pairing::by_round && discordant < min_discordant_rounds;
  if (test.modes < 2 || drift_only ||
      modes_used(test.cell_per_mode) < 2 || modes_used(test.reference_per_mode) < 2) {
    test.modes = std::min<std::size_t>(test.modes, 1);
    return test;
  }
  test.overall_ratio = std::exp(cell_log_sum / static_cast<double>(cell.size()) -
                                reference_log_sum / static_cast<double>(reference.size()));
  within_mode_shift(logs, is_cell, split.mode_of, test);
  frequency_shift(cell_modes, reference_modes, test);
  return test;
}

// The modes are found on the cell's trials with its estimated shift taken out, so that a change
// of the cell does not split a mode into the cell's and the reference's copies (a 20% change of
// modes 1.5x apart makes four groups 1.2x apart). Start without a shift; repeat with the
// within-mode one (or, when no mode holds both cells, the ratio of the geometric means) until the
// modes stop changing.
multimodal_test aligned_modes(const std::vector<double>& cell, const std::vector<double>& reference,
                              mode_pairing pairing, mode_reach reach) {
  double shift = 0.0;
  std::vector<std::size_t> previous;
  multimodal_test test;
  for (int pass = 0; pass < 5; ++pass) {
    std::vector<double> aligned;
    for (const double v : cell) aligned.push_back(v / std::exp(shift));
    aligned.insert(aligned.end(), reference.begin(), reference.end());
    auto split = detect_modes(aligned, reach);
    if (pass > 0 && split.mode_of == previous) break;
    auto candidate = judge_split(cell, reference, split, pairing);
    if (candidate.modes < 2 && pass > 0) break;  // keep the last multi-modal split
    test = std::move(candidate);
    if (test.modes < 2) break;
    previous = std::move(split.mode_of);
    shift = std::log(test.shared_modes > 0 ? test.within_ratio : test.overall_ratio);
  }
  return test;
}

}  // namespace

multimodal_test test_multimodal(const std::vector<double>& cell,
                                const std::vector<double>& reference, mode_pairing pairing) {
  // Wide modes first: before the shift is known, a change of the cell as large as a narrow gap
  // (10% on modes 1% wide) splits each mode into its two sides' copies. Narrow modes only when
  // the trials form no wide groups at all: wide groups that are a shift of the cell or a drift
  // common to both cells are not modes, and their narrow copies are not either.
  auto wide = aligned_modes(cell, reference, pairing, mode_reach::wide);
  if (wide.modes >= 2) return wide;
  std::vector<double> pooled(cell);
  pooled.insert(pooled.end(), reference.begin(), reference.end());
  if (detect_modes(pooled, mode_reach::wide).centres.size() >= 2) return wide;
  return aligned_modes(cell, reference, pairing, mode_reach::narrow);
}

std::string describe_modes(const multimodal_test& test, std::string_view cell_name,
                           std::string_view reference_name) {
  std::vector<std::string> centres;
  for (const double c : test.centres) centres.push_back(fmt::format("{:.4g}", c));
  return fmt::format("{} modes at [{}]: {} {}, {} {} trials per mode", test.modes,
                     fmt::join(centres, ", "), cell_name, fmt::join(test.cell_per_mode, "+"),
                     reference_name, fmt::join(test.reference_per_mode, "+"));
}

nlohmann::json multimodal_json(const multimodal_test& test, std::string_view cell_key,
                               std::string_view reference_key) {
  return {{"modes", test.modes},
          {"centres", test.centres},
          {std::string(cell_key), test.cell_per_mode},
          {std::string(reference_key), test.reference_per_mode},
          {"within_ratio",
           test.shared_modes > 0 ? nlohmann::json(test.within_ratio) : nlohmann::json(nullptr)},
          {"within_p_greater", test.within_p_greater},
          {"within_p_less", test.within_p_less},
          {"within_df", test.within_df},
          {"overall_ratio", test.overall_ratio},
          {"frequency_p_greater", test.frequency_p_greater},
          {"frequency_p_less", test.frequency_p_less}};
}

}  // namespace aorta::detail
