// The warm-up rule for per-launch times of one process (docs/collectors.md, "Warm-up launches").
// The first launches of a GPU kernel in a process are slow: on an H100 a 2048 x 2048 x 2240 bf16
// GEMM's first launch took 7-13x its steady time, the second 4-7x, the third 1.2-1.8x, and from
// the 4th or 5th on (the 9th at worst in 60 processes) launches stayed within 1.25x of the
// process's steady median (benchmarks/gpu-2026-12-06/gemm-modes.json). A fixed count either
// keeps a slow launch or throws steady ones away, so the rule looks at the times themselves.
#pragma once

#include <cstddef>
#include <vector>

namespace aorta::detail {

// Fewer launches than this have no steady second half to judge the first ones by: none dropped.
inline constexpr std::size_t warmup_min_launches = 8;
// A launch is steady when within this factor of the median of the second half of the launches.
inline constexpr double warmup_steady_factor = 1.25;
// Warm-up ends at the first of this many consecutive steady launches.
inline constexpr std::size_t warmup_steady_run = 3;

// How many leading launches (in launch order) are warm-up: those before the first run of
// warmup_steady_run steady launches, at most half of them; 0 below warmup_min_launches.
[[nodiscard]] std::size_t warmup_launches(const std::vector<double>& times_in_launch_order);

}  // namespace aorta::detail
