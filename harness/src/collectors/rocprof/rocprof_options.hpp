// The rocprof collector's options (docs/recipes.md), validated and typed.
#pragma once

#include "aorta/recipe.hpp"

#include <optional>
#include <string>
#include <vector>

namespace aorta {

struct rocprof_options {
  // Trace domains, lower-cased, de-duplicated, first-seen order: kernel, hip, hip_runtime,
  // memory_copy, rccl, marker, scratch.
  std::vector<std::string> trace{"kernel"};
  std::string output_format = "csv";  // csv | json | pftrace | otf2 | rocpd
  bool stats = true;
  std::vector<std::string> pmc;                     // counter names; emitted last before `--`
  std::optional<std::string> kernel_include_regex;  // verbatim
  std::optional<std::string> summary_units;         // sec | msec | usec | nsec
};

// Throws option_error naming the key, the allowed values and the fix.
[[nodiscard]] rocprof_options parse_rocprof_options(const option_map& options);

}  // namespace aorta
