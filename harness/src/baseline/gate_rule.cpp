#include "baseline/gate_rule.hpp"

#include "baseline/statistics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace aorta::detail {
namespace {

bool allows_up(compare_op op) {
  return op == compare_op::greater || op == compare_op::greater_equal;
}
bool allows_down(compare_op op) {
  return op == compare_op::less || op == compare_op::less_equal;
}

// Relative move of `value` against `reference`; a move from 0 is infinite.
double relative(double value, double reference) {
  if (reference == 0.0) return value == 0.0 ? 0.0 : std::copysign(INFINITY, value);
  return value / reference - 1.0;
}

}  // namespace

bool is_exact_quantity(check_quantity quantity, const std::string& metric_name) {
  if (quantity == check_quantity::count || quantity == check_quantity::ir) return true;
  if (quantity != check_quantity::metric) return false;
  return metric_name.ends_with("_kernel_count") || metric_name.starts_with("callgrind_");
}

bool rank_test_can_decide(std::size_t n1, std::size_t n2, double alpha) {
  double combinations = 1.0;  // C(n1 + n2, n1)
  for (std::size_t i = 1; i <= n1; ++i) {
    combinations = combinations * static_cast<double>(n2 + i) / static_cast<double>(i);
  }
  return 2.0 / combinations < alpha;
}

void judge(gate_row& row, const gate_params& params) {
  if (row.base.empty() && row.fresh.empty()) {
    row.verdict = gate_verdict::unknown;
    return;
  }
  if (row.base.empty()) {
    row.verdict = row.why_unknown.empty() ? gate_verdict::appeared : gate_verdict::unknown;
    row.fresh_median = quantile(row.fresh, 0.5);
    return;
  }
  if (row.fresh.empty()) {
    row.verdict = row.why_unknown.empty() ? gate_verdict::disappeared : gate_verdict::unknown;
    row.base_median = quantile(row.base, 0.5);
    return;
  }
  row.base_median = quantile(row.base, 0.5);
  row.fresh_median = quantile(row.fresh, 0.5);
  const double shift = relative(row.fresh_median, row.base_median);
  row.delta = shift;
  // The bound's excess: positive when the median is on the forbidden side of the bound.
  const double limit = row.fraction;
  if (std::abs(row.fresh_median - row.base_median) <= row.noise_floor) {
    row.verdict = gate_verdict::same;
    row.evidence = row.exact ? "exact" : "";
    if (row.fresh_median != row.base_median) row.evidence += " (below the noise floor)";
    return;
  }
  const bool violates_up = !allows_up(row.op) && shift > limit + 1e-12;
  const bool violates_down = !allows_down(row.op) &&
                             shift < (row.op == compare_op::equal ? -limit : limit) - 1e-12;
  const bool violates = violates_up || violates_down;
  // A move past the tolerance on the allowed side is reported, never failed.
  const bool beyond_other_side = !violates && std::abs(shift) > std::abs(limit) + 1e-12;

  if (row.exact) {
    row.evidence = "exact";
    row.verdict = violates             ? gate_verdict::worse
                  : beyond_other_side ? gate_verdict::better
                                       : gate_verdict::same;
    return;
  }
  if (!violates && !beyond_other_side) {
    row.verdict = gate_verdict::same;
  }
  if (rank_test_can_decide(row.base.size(), row.fresh.size(), params.alpha)) {
    const auto test = mann_whitney_u(row.fresh, row.base);
    row.p_value = test.p_value;
    row.evidence = fmt::format("p={:.3g}", test.p_value);
    if (!violates && !beyond_other_side) return;
    const bool significant = test.p_value < params.alpha;
    if (violates) {
      row.verdict = significant ? gate_verdict::worse : gate_verdict::ambiguous;
    } else {
      row.verdict = significant ? gate_verdict::better : gate_verdict::same;
    }
    return;
  }
  // Too few trials for the rank test to ever be significant: the ranges must be apart, beyond
  // the bound, for a verdict other than ambiguous.
  const auto base = summarize_samples(row.base);
  const auto fresh = summarize_samples(row.fresh);
  const bool apart_up = relative(fresh.min, base.max) > std::max(limit, 0.0);
  const bool apart_down = relative(fresh.max, base.min) < std::min(limit, 0.0);
  row.evidence = (apart_up || apart_down) ? "ranges apart" : "ranges overlap";
  if (!violates && !beyond_other_side) return;
  if (violates) {
    row.verdict = (violates_up ? apart_up : apart_down) ? gate_verdict::worse
                                                         : gate_verdict::ambiguous;
  } else {
    row.verdict = (apart_up || apart_down) ? gate_verdict::better : gate_verdict::same;
  }
}

std::string verdict_label(const gate_row& row) {
  const bool up = row.delta.value_or(0.0) > 0.0;
  const bool timing = row.quantity == check_quantity::time_ms ||
                      row.quantity == check_quantity::cycles ||
                      row.quantity == check_quantity::normalized_cycles;
  const bool counting = row.exact && row.label.find(" / ") == std::string::npos;
  switch (row.verdict) {
  case gate_verdict::same: return "SAME";
  case gate_verdict::ambiguous: return "AMBIGUOUS";
  case gate_verdict::appeared: return "NEW";
  case gate_verdict::disappeared: return "GONE";
  case gate_verdict::unknown: return "UNKNOWN";
  case gate_verdict::worse:
  case gate_verdict::better:
    if (timing && row.label.find(" / ") == std::string::npos) return up ? "SLOWER" : "FASTER";
    if (counting) return up ? "MORE" : "FEWER";
    return up ? "HIGHER" : "LOWER";
  }
  return "UNKNOWN";
}

bool fails_gate(const gate_row& row) {
  return row.verdict == gate_verdict::worse || row.verdict == gate_verdict::appeared ||
         row.verdict == gate_verdict::disappeared || row.verdict == gate_verdict::unknown;
}

}  // namespace aorta::detail
