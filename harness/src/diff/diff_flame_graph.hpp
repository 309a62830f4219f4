// The differential flame graph of `aorta diff A B --html FILE` (issue 43): one offline HTML page
// (inline SVG, no script) where each frame of the call or scope tree is a box as wide as its time
// (the larger of A's and B's), red where B is slower, blue where it is faster, grey unchanged.
#pragma once

#include "aorta/capture.hpp"

#include <string>

namespace aorta::detail {

// Kernels under their frames (Proton's tree and trace, rocpd by agent); a capture without frames
// gives one level of kernels, callgrind one level of functions by self Ir.
[[nodiscard]] std::string diff_flame_graph_svg(const capture& a, const capture& b);
// The offline page of `aorta diff --html`: a title, the legend and the SVG above.
[[nodiscard]] std::string diff_flame_graph_html(const capture& a, const capture& b,
                                                const std::string& title);

}  // namespace aorta::detail
