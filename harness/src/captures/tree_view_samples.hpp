// The PC-sample parts of `aorta view`: a node's share of the samples and its top stall reasons.
// A line's share is of its kernel's samples (what samples(K, LINE) / samples(K) reads); any other
// node's is of every sample in the file.
#pragma once

#include "captures/tree_view_model.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace aorta::detail {

// Stall reasons shown per line and per kernel: past the third the shares are small enough that a
// list of every reason hides the one that matters.
inline constexpr std::size_t view_top_stalls = 3;

// Per node, in percent; `inclusive_samples` holds each node's own samples plus its children's.
[[nodiscard]] std::vector<double> sample_shares(const view_tree& tree,
                                                const std::vector<double>& inclusive_samples);

// Per node, the view_top_stalls largest of its own stall reasons plus its children's, largest
// first (ties by reason). Empty for nodes without any. Throws capture_error past max_count.
[[nodiscard]] std::vector<std::vector<pc_stall>> inclusive_stalls(const view_tree& tree);

// "stalls: long_scoreboard 44%, wait 4%, barrier 1%" of `samples` samples, or "" without stalls.
[[nodiscard]] std::string top_stalls_text(const std::vector<pc_stall>& stalls, double samples);

}  // namespace aorta::detail
