// The nvbench collector's options, validated and typed.
#pragma once

#include "aorta/recipe.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace aorta {

// Bounds that catch typos, not plans: nvbench stops a state at its own noise target long before.
inline constexpr std::uint64_t max_nvbench_min_samples = 1'000'000;
inline constexpr double max_nvbench_seconds = 86'400.0;
inline constexpr long long max_nvbench_device = 1023;

// The fingerprint entry (result.json `versions`) of a capture made with sample_times.
inline constexpr std::string_view nvbench_time_key = "nvbench_time";
inline constexpr std::string_view nvbench_time_of_samples =
    "sample mean after the warm-up rule (--jsonbin)";

struct nvbench_options {
  // --devices: "all" or a comma-separated list of device ids, as nvbench spells it.
  std::optional<std::string> devices;
  std::optional<std::uint64_t> min_samples;  // --min-samples
  std::optional<double> min_time;            // --min-time, seconds of GPU time per state
  std::optional<double> timeout;             // --timeout, seconds of wall time per state
  // --jsonbin instead of --json: nvbench also writes each state's sample times, and the state's
  // time becomes their mean after the warm-up rule. Off by default: an existing baseline holds
  // nvbench's mean of every sample, warm-up included, and would be compared with another quantity.
  bool sample_times = false;
};

[[nodiscard]] nvbench_options parse_nvbench_options(const option_map& options);

}  // namespace aorta
