// `aorta sweep run` for a recipe with cells: every cell's trials, interleaved round by round on the
// GPU CTest gave the test (cells never spread over GPUs: the point is one device), then the
// confound verdicts and matrix.json / matrix.md.
#pragma once

#include "aorta/check.hpp"
#include "aorta/launch_plan.hpp"
#include "aorta/sweep.hpp"
#include "process/signal_forwarding.hpp"
#include "reporting/reporter.hpp"

#include <functional>
#include <vector>

namespace aorta::detail {

struct trial_console;

// The regression gate judges one test against its baseline; cells are judged against each other.
// Throws usage_error (64) naming what asked for the gate in a run with cells (--baseline, --gate,
// the recipe's gate:, a baseline check), which would otherwise judge nothing.
void refuse_gate_over_cells(const sweep_request& request, const recipe& spec,
                            const std::vector<check_expression>& checks);

// `spec` is loaded with its overrides applied; `environment` is the parent's with GPU pinning.
// `trial_checks` judge each trial, `cell_checks` (term@cell) the run once every cell ran.
// Throws usage_error / recipe_error (64) before anything runs; then calls `launch` (which takes
// the output directory's lock) before it writes anything under request.output_dir.
[[nodiscard]] sweep_outcome run_cell_sweep(const sweep_request& request, const recipe& spec,
                                           const std::vector<check_expression>& trial_checks,
                                           const std::vector<check_expression>& cell_checks,
                                           const env_map& environment,
                                           signal_forwarding& interrupts,
                                           const std::function<void()>& launch,
                                           trial_console* console, reporting::reporter& report);

}  // namespace aorta::detail
