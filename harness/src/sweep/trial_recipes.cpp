#include "sweep/trial_recipes.hpp"

namespace aorta::detail {

trial_recipes::trial_recipes(const recipe& spec) {
  auto trimmed = std::make_shared<recipe>(spec);
  trimmed->mitigations.clear();
  trimmed->mitigations.shrink_to_fit();
  trimmed->diagnostics.clear();
  trimmed->diagnostics.shrink_to_fit();
  trimmed->mitigation_axis = {axis_item{no_change_name, {}}};
  trimmed->diagnostic_axis = {axis_item{no_change_name, {}}};
  without_cells_ = std::move(trimmed);
}

std::shared_ptr<const recipe> trial_recipes::of(const cell_plan& plan) {
  if (!plan.collect) return without_cells_;
  auto& made = by_collectors_[plan.collect.get()];
  if (!made) {
    auto spec = std::make_shared<recipe>(*without_cells_);
    spec->collect = *plan.collect;
    made = std::move(spec);
  }
  return made;
}

}  // namespace aorta::detail
