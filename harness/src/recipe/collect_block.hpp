// The recipe's `collect:` block: names or name -> options, normalised to the original's string
// option values, then checked by validate_collectors with errors pointing back into the file.
#pragma once

#include "aorta/recipe.hpp"
#include "recipe/yaml_read.hpp"

#include <string>
#include <vector>

namespace aorta::detail {

// Parses and validates; throws recipe_error "<file>:<line>:<col>: recipe.collect.<name>.<key>: ..."
[[nodiscard]] std::vector<collector_request> read_collect_block(const std::string& file,
                                                                const map_entry& entry);

}  // namespace aorta::detail
