// The comparison table: what a failing gated test prints, what `aorta compare` prints, and what a
// report can show (format_gate_table / gate_rows_json are the hook for report.html).
#pragma once

#include "baseline/gate_rule.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

// Geometric mean of fresh/base over the timed rows that have both (nullopt when none): the
// medians, or a multi-modal row's change within its modes.
[[nodiscard]] std::optional<double> geomean_ratio(const std::vector<gate_row>& rows);

// Test by test (by name), culprit first: failing rows, then other moves, then SAME; within each, the program's own rows
// before the loader's and libc's, then the largest relative move, then the largest absolute one.
// Stable, so a test's rows keep their order among equals. Call it after judging: the sequential
// looks match rows by position.
void order_by_significance(std::vector<gate_row>& rows);

// Columns: test, quantity, base median, new median, delta, p-value or interval, verdict; then a
// geomean line. `only_interesting` leaves SAME rows out (they are counted in a last line).
// Loader and libc rows (gate_row::system_frame) are folded into one line naming them.
[[nodiscard]] std::string format_gate_table(const std::vector<gate_row>& rows,
                                            bool only_interesting);

[[nodiscard]] nlohmann::json gate_rows_json(const std::vector<gate_row>& rows);

}  // namespace aorta::detail
