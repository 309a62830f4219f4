// The ncu (NVIDIA Nsight Compute) collector's options, validated and typed.
#pragma once

#include "aorta/recipe.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta {

// Longest kernel_name pattern accepted: a pattern naming kernels is a line, and std::regex, which
// checks it, compiles by recursion.
inline constexpr std::size_t max_ncu_kernel_regex_bytes = 4096;

struct ncu_options {
  // Metrics to collect; gpu__time_duration.sum is always included (it is what kernel time is).
  std::vector<std::string> metrics{"gpu__time_duration.sum"};
  std::string clock_control = "none";       // none | base (none: measure the card as it is)
  std::optional<std::string> kernel_name;   // regex, passed as `-k regex:<re>`
  std::optional<std::string> launch_skip;   // digits
  std::optional<std::string> launch_count;  // digits
};

[[nodiscard]] ncu_options parse_ncu_options(const option_map& options);

}  // namespace aorta
