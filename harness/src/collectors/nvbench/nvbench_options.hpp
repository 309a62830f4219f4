// The nvbench collector's options, validated and typed.
#pragma once

#include "aorta/recipe.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace aorta {

// Bounds that catch typos, not plans: nvbench stops a state at its own noise target long before.
inline constexpr std::uint64_t max_nvbench_min_samples = 1'000'000;
inline constexpr double max_nvbench_seconds = 86'400.0;
inline constexpr long long max_nvbench_device = 1023;

struct nvbench_options {
  // --devices: "all" or a comma-separated list of device ids, as nvbench spells it.
  std::optional<std::string> devices;
  std::optional<std::uint64_t> min_samples;  // --min-samples
  std::optional<double> min_time;            // --min-time, seconds of GPU time per state
  std::optional<double> timeout;             // --timeout, seconds of wall time per state
};

[[nodiscard]] nvbench_options parse_nvbench_options(const option_map& options);

}  // namespace aorta
