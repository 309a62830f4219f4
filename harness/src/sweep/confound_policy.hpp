// When a run's confound verdicts fail it (`confound.fail: true` or --strict): refusing a verdict
// that can never be reached, and what a row still AMBIGUOUS at the end does (docs/recipes.md,
// "Cells").
#pragma once

#include "aorta/cells.hpp"
#include "aorta/error.hpp"
#include "cells/confound.hpp"
#include "reporting/reporter.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

// One cell as the confound judgement pairs it with its reference cell.
struct confound_pair {
  std::string cell;
  std::string reference;
  int rounds = 0;      // the rounds both run: the fewer trials of the two
  bool timed = false;  // judged on times or cycles (a paired test), not only on exact counts
};

// Throws usage_error (64) when a timed pair has fewer rounds than the paired signed-rank test
// needs to call any row SLOWER at `alpha`: such a strict verdict could never fail on a timed row.
void refuse_unreachable_confound(const std::vector<confound_pair>& pairs, double alpha,
                                 std::string_view fails_by);

// `code` after the AMBIGUOUS rows under `policy`, printing what it did; unchanged when there are
// none or the policy passes them.
[[nodiscard]] exit_code apply_ambiguous_policy(const std::vector<confound_row>& rows,
                                               ambiguous_policy policy, exit_code code,
                                               reporting::reporter& report);

}  // namespace aorta::detail
