#include "baseline/gate_modes.hpp"

#include "baseline/welch_p_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace aorta::detail {
namespace {

// One direction of a bound: sign +1 tests "slower than allowed", -1 "faster".
struct directed_test {
  bool beyond = false;  // some estimate is past the bound itself
  double p_value = 1.0;
  double p_within = 1.0;
  double p_moved = 1.0;
};

// The within-mode shift past log_margin in the direction of sign: the least-squares t of
// process_modes.cpp moved from 0 to the margin.
double within_p(const multimodal_test& modes, double log_margin, double sign) {
  if (modes.shared_modes == 0 || modes.within_df < 1.0) return 1.0;
  const double excess = sign * (modes.within_shift - log_margin);
  if (modes.within_standard_error == 0.0) return excess > 0.0 ? 0.0 : 1.0;
  return student_t_survival(excess / modes.within_standard_error, modes.within_df);
}

// Location within the modes against the margin, the move between modes against "no move"; each
// counts only when its estimate (the within-mode ratio, or the ratio of the geometric means for
// the move) is past the bound, and the two share the row's level by weighted Bonferroni:
// gate_within_share of it to the location, the rest to the move.
directed_test directed_modes(const multimodal_test& modes, double factor, double sign) {
  const double log_bound = std::log(factor);
  const double log_margin = sign * log_bound > 0.0 ? gate_margin_share * log_bound : log_bound;
  const double p_within = within_p(modes, log_margin, sign);
  const double p_moved = sign > 0.0 ? modes.frequency_p_greater : modes.frequency_p_less;
  const bool within_beyond =
      modes.shared_modes > 0 && sign * (modes.within_shift - log_bound) > 0.0;
  const bool moved_beyond = sign * (std::log(modes.overall_ratio) - log_bound) > 0.0;
  directed_test test;
  test.p_within = p_within;
  test.p_moved = p_moved;
  test.beyond = within_beyond || moved_beyond;
  const double counted_within = !test.beyond || within_beyond ? p_within : 1.0;
  const double counted_moved = !test.beyond || moved_beyond ? p_moved : 1.0;
  test.p_value = std::min(
      1.0, std::min(counted_within / gate_within_share, counted_moved / (1.0 - gate_within_share)));
  return test;
}

}  // namespace

bool assess_multimodal(gate_row& row, double factor, double sign) {
  const auto modes = test_multimodal(row.fresh, row.base, mode_pairing::none);
  if (modes.modes < 2) return false;
  const auto forbidden = directed_modes(modes, factor, sign);
  row.estimate_beyond = forbidden.beyond;
  row.p_value = forbidden.p_value;
  row.mode_moved_up = forbidden.beyond ? sign > 0.0
                      : modes.shared_modes > 0 ? modes.within_ratio > 1.0
                                               : modes.overall_ratio > 1.0;
  if (row.op == compare_op::equal) {
    const auto other = directed_modes(modes, factor, -sign);
    if (!forbidden.beyond && other.beyond) row.mode_moved_up = sign < 0.0;
    row.estimate_beyond = forbidden.beyond || other.beyond;
    row.p_value = std::min(1.0, 2.0 * std::min(forbidden.p_value, other.p_value));
    row.p_better.reset();
    row.estimate_better = false;
  } else {
    // "Better" is past the bound mirrored: a `time +5%` row is FASTER below 1/1.05.
    const auto better = directed_modes(modes, 1.0 / factor, -sign);
    if (!forbidden.beyond && better.beyond) row.mode_moved_up = sign < 0.0;
    row.estimate_better = better.beyond;
    row.p_better = better.p_value;
  }
  row.modes = modes;
  const bool shared = modes.shared_modes > 0;
  // The change the row was judged on: within the modes where the sides share one, else the ratio
  // of the geometric means. The medians move with the mix of modes: a 10% slower new run with
  // more trials in the fast mode has the lower median.
  row.delta = (shared ? modes.within_ratio : modes.overall_ratio) - 1.0;
  row.mode_evidence = fmt::format(
      "multi-modal, {}; within modes x{} p={} (t, {:g} df, against the margin); moved between "
      "modes p={:.3g} (Mann-Whitney on the mode; geometric means x{:.4f}); weighted Bonferroni "
      "over the two ({:g}/{:g})",
      describe_modes(modes, "new", "baseline"),
      shared ? fmt::format("{:.4f}", modes.within_ratio) : "n/a",
      shared ? fmt::format("{:.3g}", forbidden.p_within) : "n/a", modes.within_df,
      forbidden.p_moved, modes.overall_ratio, gate_within_share, 1.0 - gate_within_share);
  return true;
}

}  // namespace aorta::detail
