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

// A cell of a run that compares cells, with whether it belongs to this lane (a cell for another
// platform is skipped as its tests are, and is no missing side).
struct compared_cell {
  std::string name;
  bool on_this_lane = true;
};

// `code`, or skipped (77) when it would pass while a cell of this lane measured nothing (every
// trial skipped): the comparison the run was asked for then has no side, which is never a pass,
// even where the confound verdicts only report. Says which cell and why.
[[nodiscard]] exit_code skip_when_a_cell_measured_nothing(const std::vector<compared_cell>& cells,
                                                          const std::vector<cell_trials>& trials,
                                                          exit_code code,
                                                          reporting::reporter& report);

}  // namespace aorta::detail
