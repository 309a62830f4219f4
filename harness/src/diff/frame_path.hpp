// The frames above a placed kernel in a capture's calling-context tree, outermost first: the path
// `aorta diff` names a kernel by, its flame graph stacks, and a confound sentence's place.
#pragma once

#include "aorta/capture.hpp"

#include <cstddef>
#include <string_view>
#include <vector>

namespace aorta::detail {

// At most frame_path_depth_limit frames (the innermost ones): a cycle or a runaway parent chain in
// a hostile capture cannot loop or grow without bound.
inline constexpr std::size_t frame_path_depth_limit = 32;

// Empty for no_parent (the root) or an index outside the capture's frames. The views point into
// `source`.
[[nodiscard]] std::vector<std::string_view> frames_above(const capture& source, std::size_t frame);

}  // namespace aorta::detail
