// Attribution of a confound verdict (docs/recipes.md, "Confound verdicts"): where in the cell the
// change is, how much of it each row carries, and whether the cell did more work or the same work
// more slowly. A SLOWER row alone says "this moved"; a user's next three questions are these.
#pragma once

#include "cells/confound.hpp"

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace aorta::detail {

// The cell's total in one family of rows, the denominator of every row's share.
struct family_total {
  std::string family;  // "kernel time" or "Ir"
  bool exact = false;
  double reference = 0.0;  // medians over the paired rounds
  double cell = 0.0;
  double ratio = 1.0;         // exact: cell / reference; timed: median of the per-round ratios
  std::optional<double> low;  // timed only: the interval of that median
  std::optional<double> high;
};

struct cell_change {
  std::string cell;
  std::string reference;
  std::vector<family_total> totals;  // kernel time first, then Ir; a family not measured is absent
  std::string sentence;              // confound_summary.hpp
};

// The distribution-free interval of the median of `values`: order statistics k and n+1-k with k
// the largest whose binomial coverage is at least 95%. Below 6 values no pair reaches 95%, so it
// is [min, max] (coverage 1 - 2^(1-n): 93.75% for 5). Requires a non-empty sample.
[[nodiscard]] std::pair<double, double> median_interval(std::vector<double> values);

// Fills system_frame, share, self_share, the interval and the work words of `rows` (all of one cell
// against its reference) and orders them answer first (order_by_contribution). Returns the cell's
// totals for the summary sentence.
[[nodiscard]] cell_change attribute_pair(std::span<confound_row> rows,
                                         const snapshot_by_round& cell,
                                         const snapshot_by_round& reference);

// The answer first: moved rows (SLOWER, FASTER), then AMBIGUOUS and UNKNOWN, then SAME; the
// program's rows before the loader's and libc's; then the largest share of the change (self share
// for a function, so the function that does the work leads its callers), then the largest move.
void order_by_contribution(std::span<confound_row> rows);

}  // namespace aorta::detail
