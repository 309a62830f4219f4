// Why a gate row moved (issue 43): the counter class that moved with a kernel's time in the same
// test — launches (count rows), ncu's instructions or bytes — in words: "more work (launches 20 ->
// 22)" or "same work, slower (instructions +0.00%)". The confound table says the same of cells
// (cells/confound_attribution.hpp).
#pragma once

#include "baseline/gate_rule.hpp"

#include <string>
#include <vector>

namespace aorta::detail {

// Empty for a row that is SAME or UNKNOWN, not a kernel's time or cycles, or has no counter row
// of its kernel in `rows` to tell.
[[nodiscard]] std::string gate_work_words(const std::vector<gate_row>& rows, const gate_row& row);

}  // namespace aorta::detail
