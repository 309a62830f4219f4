// The bounded sequential verdict of a gated run (docs/regression-gate.md, "The sequential rule"):
// after the planned trials, only the rows still AMBIGUOUS are judged again, one extra trial at a
// time, until each is decided or the trial budget is spent. The significance level is split over
// the looks (Bonferroni), so the false-alarm rate per test stays at or below alpha however many
// looks a run takes: alpha / 2 at the planned trials, alpha / (2 J) at each of the J extra looks.
#pragma once

#include "baseline/gate_rule.hpp"

#include <vector>

namespace aorta::detail {

struct sequential_plan {
  int planned = 0;  // trials of the first look
  int budget = 0;   // trials at most (>= planned)
  double alpha = 0.05;
};

// Throws usage_error naming the fix when the budget is below the planned trials.
[[nodiscard]] sequential_plan make_sequential_plan(int planned, int max_trials, double alpha);

// The level of look `look` (0: the planned trials; 1..J: after each extra trial).
[[nodiscard]] double look_alpha(const sequential_plan& plan, int look);

// The first look: every row judged, Holm per test at look_alpha(plan, 0).
void judge_first_look(std::vector<gate_row>& rows, const sequential_plan& plan);

// A later look: `current` are the rows so far, `rebuilt` the same rows measured over all trials
// now, judged at this look's level (Holm over all of the test's timed rows). Only the rows of
// `current` that are AMBIGUOUS take their new verdict; decided rows keep theirs.
void judge_next_look(std::vector<gate_row>& current, std::vector<gate_row> rebuilt,
                     const sequential_plan& plan, int look);

[[nodiscard]] std::size_t count_ambiguous(const std::vector<gate_row>& rows);

}  // namespace aorta::detail
