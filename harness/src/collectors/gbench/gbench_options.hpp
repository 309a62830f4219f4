// The gbench (Google Benchmark) collector's options, validated and typed.
#pragma once

#include "aorta/recipe.hpp"

#include <cstdint>
#include <optional>

namespace aorta {

// More repetitions than this is a typo, not a plan: each one reruns every benchmark.
inline constexpr std::uint64_t max_gbench_repetitions = 1000;

struct gbench_options {
  // --benchmark_repetitions=N; nullopt leaves the benchmark binary's own setting.
  std::optional<std::uint64_t> repetitions;
};

[[nodiscard]] gbench_options parse_gbench_options(const option_map& options);

}  // namespace aorta
