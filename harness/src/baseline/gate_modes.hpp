// The regression gate on trials from two or more process modes (process_modes.hpp): a row whose
// baseline and new trials each span the same modes is judged within the modes (location) and by
// the trials' moves between modes (frequency), as the cells judge does, but against the row's
// bound and margin rather than a threshold. docs/regression-gate.md, "Multi-modal timing (gate)".
#pragma once

#include "baseline/gate_rule.hpp"

namespace aorta::detail {

// The share of a multi-modal row's level spent on the within-mode test (the rest on the move
// between modes): a change of the code moves the kernel's time in every mode, so the location
// test carries the power; the move is the rarer case (docs/regression-gate.md has the figures).
inline constexpr double gate_within_share = 0.8;

// Fills the timed row's p-values and estimates from the modes when its trials are multi-modal
// and returns true; leaves the row alone and returns false otherwise. `factor` is the bound
// (1 + fraction), `sign` +1 when the bound forbids a rise, -1 a fall; the trials must all be
// positive.
bool assess_multimodal(gate_row& row, double factor, double sign);

}  // namespace aorta::detail
