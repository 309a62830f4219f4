// A timed row's tolerance is never below what its baseline's own noise makes of it: a `time +2%`
// on a kernel whose trials scatter by 4% between processes would judge noise, not the code
// (docs/regression-gate.md, "Calibration").
#pragma once

#include "baseline/gate_rule.hpp"

namespace aorta::detail {

// What a gate line's `floor` item asks for: the tolerance of a timed row is at least `multiple`
// times the log noise of its baseline samples (0: off).
inline constexpr double default_noise_floor_multiple = 1.0;

// Raises row.fraction (and says so in row.bound_text and row.floor_note) when the baseline's
// samples, at least min_timed_samples of them, put the floor above the declared tolerance.
// Rows compared exactly, or with too few baseline samples, are left alone.
void raise_to_noise_floor(gate_row& row, double multiple);

}  // namespace aorta::detail
