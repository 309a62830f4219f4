// The callgrind (valgrind) collector's options, validated and typed.
#pragma once

#include "aorta/recipe.hpp"

#include <optional>
#include <string>

namespace aorta {

struct callgrind_options {
  // Collect only while inside this function (valgrind --toggle-collect); nullopt = everything.
  std::optional<std::string> toggle_collect;
  bool cache_sim = false;       // --cache-sim; off: instruction counts only, and much faster
  bool trace_children = false;  // --trace-children, for payloads started through a script
};

[[nodiscard]] callgrind_options parse_callgrind_options(const option_map& options);

}  // namespace aorta
