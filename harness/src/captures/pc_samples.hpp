// Sums of PC sample lines (aorta/capture.hpp pc_sample_line) across captures, e.g. the ranks of
// one trial: counts add per (kernel, location) and per stall reason, with a checked sum.
#pragma once

#include "aorta/capture.hpp"

#include <string_view>
#include <vector>

namespace aorta::detail {

// The lines of every capture in `parts`, summed per (kernel, location) and sorted like a
// capture's. Throws capture_error naming `where` when a count would pass detail::max_count.
[[nodiscard]] std::vector<pc_sample_line>
sum_pc_samples(const std::vector<const std::vector<pc_sample_line>*>& parts,
               std::string_view where);

}  // namespace aorta::detail
