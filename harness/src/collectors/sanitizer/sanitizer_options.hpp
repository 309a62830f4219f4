// The sanitizer (NVIDIA compute-sanitizer) collector's options, validated and typed.
#pragma once

#include "aorta/recipe.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aorta {

// Largest padding accepted: compute-sanitizer adds it after every allocation, so a typo of a few
// digits would multiply the payload's device memory; 1 MiB covers any realistic overrun.
inline constexpr std::uint64_t max_sanitizer_padding_bytes = 1U << 20U;

struct sanitizer_options {
  std::string tool = "memcheck";  // memcheck | racecheck | initcheck | synccheck
  // memcheck only: `--leak-check full` (true) or `no` (false); nullopt leaves the tool's default.
  std::optional<bool> leak_check;
  // memcheck only: `--padding N`, bytes added after each allocation so an overrun into the next
  // allocation is caught; nullopt leaves the tool's default (0).
  std::optional<std::uint64_t> padding;
  // `--target-processes`: "all" (the tool's default, children too) or "application-only".
  std::string target_processes = "all";
  // Whether an error in the report fails the trial by itself. aorta passes --error-exitcode 0 (so
  // the checks, not "payload exited 1", name the error), which would let a recipe without an
  // error check pass a run with memory errors; false leaves the judging to the checks.
  bool fail_on_errors = true;
};

// The values `tool:` accepts, in the order the docs list them.
[[nodiscard]] const std::vector<std::string>& sanitizer_tools();

// Throws option_error naming the key, the allowed values and the fix.
[[nodiscard]] sanitizer_options parse_sanitizer_options(const option_map& options);

}  // namespace aorta
