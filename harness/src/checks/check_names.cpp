// The spellings of the grammar's enums, and the comparison every numeric check ends in.
#include "aorta/check.hpp"
#include "metrics/quantity_table.hpp"

namespace aorta {

std::string_view to_string(compare_op op) noexcept {
  switch (op) {
  case compare_op::equal: return "==";
  case compare_op::not_equal: return "!=";
  case compare_op::less: return "<";
  case compare_op::less_equal: return "<=";
  case compare_op::greater: return ">";
  case compare_op::greater_equal: return ">=";
  }
  return "?";
}

bool compare(double actual, compare_op op, double threshold) noexcept {
  switch (op) {
  case compare_op::equal: return actual == threshold;
  case compare_op::not_equal: return actual != threshold;
  case compare_op::less: return actual < threshold;
  case compare_op::less_equal: return actual <= threshold;
  case compare_op::greater: return actual > threshold;
  case compare_op::greater_equal: return actual >= threshold;
  }
  return false;
}

std::string_view to_string(rank_reduction reduction) noexcept {
  switch (reduction) {
  case rank_reduction::none: return "";
  case rank_reduction::max: return "max_over_ranks";
  case rank_reduction::min: return "min_over_ranks";
  case rank_reduction::imbalance: return "imbalance";
  case rank_reduction::straggler: return "straggler";
  }
  return "?";
}

std::string_view to_string(check_quantity quantity) noexcept {
  const auto& declared = detail::declaration_of(quantity);
  return declared.quantity == quantity ? declared.check_name : "?";
}

}  // namespace aorta
