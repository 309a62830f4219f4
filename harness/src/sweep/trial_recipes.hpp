// The recipes the cells' trials run under, one per diagnostic: the recipe without its cell blocks
// (which no trial reads) and with that diagnostic's collectors, shared by the diagnostic's cells.
// Each cell held a whole copy of the recipe, axes included, so memory grew with cells x recipe
// (3,000 cells took 2.5 GB in a dry run, 10,000 ended in std::bad_alloc).
#pragma once

#include "aorta/recipe.hpp"
#include "recipe/cell_plan.hpp"

#include <map>
#include <memory>

namespace aorta::detail {

class trial_recipes {
public:
  explicit trial_recipes(const recipe& spec);

  // The recipe for `plan`'s trials: the same object for every cell of one diagnostic.
  [[nodiscard]] std::shared_ptr<const recipe> of(const cell_plan& plan);

private:
  std::shared_ptr<const recipe> without_cells_;
  // Keyed by the diagnostic's collector list, which plan_cells shares among its cells.
  std::map<const std::vector<collector_request>*, std::shared_ptr<const recipe>> by_collectors_;
};

}  // namespace aorta::detail
