// Which cell is the confound baseline and what judges the cells against it: the recipe's
// `confound:` block, then the command line (--baseline-cell, --confound-threshold, --ambiguous,
// --strict), with where the threshold came from for the banner (issue 43: sweep run's default is
// the original aorta's 1.15, aorta ab's 1.05).
#pragma once

#include "aorta/cells.hpp"
#include "aorta/recipe.hpp"
#include "aorta/sweep.hpp"
#include "recipe/cell_plan.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace aorta::detail {

struct confound_choice {
  std::size_t baseline = 0;
  double threshold = 1.15;
  double alpha = 0.05;
  bool fail_on_slower = false;
  ambiguous_policy ambiguous = ambiguous_policy::fail;
  std::string threshold_source = "the default, the original aorta's; aorta ab's is 1.05";
};

// Throws usage_error for a threshold out of range or a baseline cell that does not exist.
[[nodiscard]] confound_choice choose_confound(const recipe& spec, const sweep_request& request,
                                              const std::vector<cell_plan>& cells);

}  // namespace aorta::detail
