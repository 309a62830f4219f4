// The summary sentence of a confound comparison, the line a person reads first (as hyperfine ends
// with "X ran 1.20 ± 0.02 times faster than Y"): which cell moved, by how much with its interval,
// where, what share of the change that row carries and whether it is more work or the same work
// slower; then how many other rows stayed within what.
#pragma once

#include "cells/confound_attribution.hpp"

#include <span>
#include <string>

namespace aorta::detail {

// `rows`: one cell against its reference, ordered by order_by_contribution.
[[nodiscard]] std::string change_sentence(std::span<const confound_row> rows,
                                          const cell_change& change, double threshold);

// A share (0.96) as a whole percent (96), never -0 for a share a hair below zero.
[[nodiscard]] double whole_percent(double share);

// "+2.2%, within 5%" for a row the test calls significant but whose move stays inside the
// threshold; empty otherwise (SAME hides nothing there).
[[nodiscard]] std::string within_threshold_note(const confound_row& row, double threshold,
                                                double alpha);

}  // namespace aorta::detail
