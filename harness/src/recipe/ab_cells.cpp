#include "recipe/ab_cells.hpp"

#include "recipe/cell_plan.hpp"

#include <fmt/format.h>

namespace aorta::detail {

void make_ab_cells(recipe& spec, const ab_arm& base, const ab_arm& head,
                   const std::vector<std::string>& args) {
  if (has_cells(spec)) {
    throw usage_error(fmt::format(
        "aorta ab: {} already has cells (mitigation_axis / diagnostic_axis); ab makes its own "
        "two, base and head. Fix: use `aorta sweep run` with that recipe, or a recipe without "
        "cells",
        spec.path.string()));
  }
  for (const auto& [name, arm] : {std::pair{"--base", &base}, std::pair{"--head", &head}}) {
    if (arm->program.empty()) {
      throw usage_error(fmt::format("aorta ab: {} names no program. Fix: give the executable of "
                                    "that build, e.g. {} build-main/bench",
                                    name, name));
    }
  }
  const source_location origin{"aorta ab", 0, 0};
  for (const auto& [name, arm] : {std::pair{"base", &base}, std::pair{"head", &head}}) {
    mitigation_def cell;
    cell.name = name;
    cell.command = std::vector<std::string>{arm->program};
    cell.working_directory = arm->working_directory;
    cell.command->insert(cell.command->end(), args.begin(), args.end());
    cell.where = origin;
    spec.mitigations.push_back(std::move(cell));
  }
  spec.mitigation_axis = {axis_item{"base", origin}, axis_item{"head", origin}};
  if (!spec.confound) {
    spec.confound = confound_spec{};
    spec.confound->where = origin;
  }
  if (!spec.confound->threshold_given) spec.confound->threshold = ab_default_threshold;
  spec.confound->baseline_cell = "base";
  (void)plan_cells(spec);
}

}  // namespace aorta::detail
