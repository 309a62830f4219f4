// `aorta ab`: the common A/B of two builds of one payload as a recipe with two cells, `base` and
// `head`, whose mitigations replace the command (docs/regression-gate.md, "A/B on one GPU").
#pragma once

#include "aorta/recipe.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace aorta::detail {

// The threshold `aorta ab` judges with when the recipe's `confound:` sets none: a regression
// gate's usual 5%. `sweep run` keeps the original aorta's 15% (confound_spec), because its
// recipes compare mitigations whose point is a large effect, and the original's recipes must keep
// their verdicts; the banner of both says which default applied.
inline constexpr double ab_default_threshold = 1.05;

// One arm: its program, and the directory it starts in (empty: aorta's own).
struct ab_arm {
  std::string program;
  std::filesystem::path working_directory;
};

// Turns `spec` into the two cells `base` (the baseline) and `head`, running each arm's program
// followed by `args`. Throws usage_error when the recipe already has cells.
void make_ab_cells(recipe& spec, const ab_arm& base, const ab_arm& head,
                   const std::vector<std::string>& args);

}  // namespace aorta::detail
