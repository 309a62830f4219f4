// The per-scope metrics of a Proton instrumentation capture (compute_metrics' scope part).
#pragma once

#include "aorta/metrics.hpp"

namespace aorta::detail {

// `proton_scope_cycles.<scope>` and `proton_scope_normalized_cycles.<scope>` per (scope, kernel),
// keyed `<kernel>/<scope>` when the scope occurs under several kernels (with a note); a
// non-finite total is left out with a note.
void add_scope_metrics(const capture& source, metric_set& out);

}  // namespace aorta::detail
