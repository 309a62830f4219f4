// Checks that address the ranks of a multi-rank trial: max_over_ranks(F(A)), min_over_ranks(F(A)),
// imbalance(F(A)) = max / min and straggler(F(A)) over the ranks (check.hpp has the grammar).
#pragma once

#include "aorta/capture.hpp"
#include "aorta/check.hpp"

#include <vector>

namespace aorta {

// Evaluates expression.per_rank() on every rank's captures, then reduces. A rank whose value
// cannot be measured fails the check naming the rank; imbalance with a rank at 0 is undefined (a
// failure naming that rank). A single-process trial is passed as one rank. No ranks: a failure.
// A straggler over a timed quantity (time_ms, cycles) fails, saying why, when two ranks ran on one
// card at once, unless `ranks_serialized` (the recipe's key: they took the card in turn).
[[nodiscard]] check_result evaluate_rank_check(const check_expression& expression,
                                               const std::vector<rank_captures>& ranks,
                                               bool ranks_serialized = false);

}  // namespace aorta
