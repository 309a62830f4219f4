// Checks that address the ranks of a multi-rank trial: max_over_ranks(F(A)), min_over_ranks(F(A))
// and imbalance(F(A)) = max / min of F(A) over the ranks (check.hpp has the grammar).
#pragma once

#include "aorta/capture.hpp"
#include "aorta/check.hpp"

#include <vector>

namespace aorta {

// Evaluates expression.per_rank() on every rank's captures, then reduces. A rank whose value
// cannot be measured fails the check naming the rank; imbalance with a rank at 0 is undefined (a
// failure naming that rank). A single-process trial is passed as one rank. No ranks: a failure.
[[nodiscard]] check_result evaluate_rank_check(const check_expression& expression,
                                               const std::vector<rank_captures>& ranks);

}  // namespace aorta
