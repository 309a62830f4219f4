// How much of a test's change one gate row carries, and the gate's summary sentence (issue 43):
// "vecadd: time_ms(add_kernel) +17.35% (<= baseline + 5%), 96% of the test's kernel time change
// (+16.9%), more work (launches 20 -> 22)". The cells' confound table says the same of a cells run
// (cells/confound_summary.hpp); the gate has no paired rounds, so its sentence gives the row's
// delta and bound rather than an interval.
#pragma once

#include "baseline/gate_rule.hpp"

#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

// The row's share of its test's total change in the row's family: for `time_ms(K)`, the change of
// the sum of the test's kernel-time medians; for `ir(F)`, the change of the inclusive Ir of the
// test's outermost function (the `ir` row with the largest base median), so a caller's share is
// inclusive. Empty for other rows, a side without samples, or a total that did not move.
[[nodiscard]] std::optional<double> gate_share(const std::vector<gate_row>& rows,
                                               const gate_row& row);

// "96% of the test's kernel time change (+16.9%)", or empty when gate_share is.
[[nodiscard]] std::string gate_share_text(const std::vector<gate_row>& rows, const gate_row& row);

// One sentence per test in `rows` (ordered as order_by_significance leaves them): the leading
// moved row with its delta, bound, share and work words, and how many other rows moved; a test
// where nothing moved says "all N row(s) SAME" with its largest move (left out under moved_only).
[[nodiscard]] std::vector<std::string> gate_summaries(const std::vector<gate_row>& rows,
                                                      bool moved_only = false);

}  // namespace aorta::detail
