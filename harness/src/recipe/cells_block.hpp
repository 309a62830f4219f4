// The recipe's cell blocks (docs/recipes.md, "Cells"): `mitigations:`, `diagnostics:`,
// `confound:` and the two axes. Shapes and values are checked here; how the names combine into
// cells (undefined names, stacking conflicts, the baseline cell) is checked by plan_cells.
#pragma once

#include "aorta/recipe.hpp"
#include "recipe/yaml_read.hpp"

#include <string>
#include <vector>

namespace aorta::detail {

// The longest mitigation or diagnostic name: a cell name becomes a directory name, and two of them
// joined must stay well below NAME_MAX (255).
inline constexpr std::size_t max_cell_part_length = 100;

[[nodiscard]] std::vector<axis_item> read_axis(const std::string& file, const map_entry& entry);
// `root` names the block in messages: recipe.mitigations, or the mitigations file's own name for
// what --mitigations-file reads (whose errors are about that file, not the recipe).
[[nodiscard]] std::vector<mitigation_def> read_mitigations(const std::string& file,
                                                           const map_entry& entry,
                                                           const std::string& root);
[[nodiscard]] std::vector<diagnostic_def> read_diagnostics(const std::string& file,
                                                           const map_entry& entry);
[[nodiscard]] confound_spec read_confound(const std::string& file, const map_entry& entry);

// A mitigation's or diagnostic's own name: [A-Za-z0-9_][A-Za-z0-9_-]*, at most
// max_cell_part_length, not `none`. No '.', '+' or '/': those join names into cell names, and a
// cell name is a directory that must stay inside the output directory.
void check_part_name(const std::string& name, const source_location& where,
                     const std::string& path);

}  // namespace aorta::detail
