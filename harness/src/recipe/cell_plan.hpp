// The cells of a recipe: mitigation_axis x diagnostic_axis, each resolved to what it changes
// (environment, arguments, command, collectors, trials). Naming rule (docs/recipes.md, "Cells"):
// `<mitigation>` when the diagnostic axis is only `none`, else `<mitigation>.<diagnostic>`, where
// a stacked mitigation is its names joined by '+'.
#pragma once

#include "aorta/recipe.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

// What one mitigation_axis entry changes, its stacked mitigations merged: resolved once and shared
// by the entry's cells (one per diagnostic), so a large mitigation is never copied per cell.
struct cell_changes {
  std::map<std::string, std::string> env_set;
  std::vector<std::string> env_unset;
  std::vector<std::string> extra_args;
  std::optional<std::vector<std::string>> command;  // nullopt: the command after `--`
  std::filesystem::path working_directory;           // empty: aorta's own
};

struct cell_plan {
  std::string name;
  std::vector<std::string> mitigations;  // the stacked names; {"none"} for no change
  std::string mitigation;                // the axis entry ("fast+big")
  std::string diagnostic;                // "none" or a diagnostics: name
  // Null: no change (as `none`).
  std::shared_ptr<const cell_changes> changes;
  // The diagnostic's collectors, one list shared by its cells; null: the recipe's collect:.
  std::shared_ptr<const std::vector<collector_request>> collect;
  int trials = 1;
};

// The cell's changes; an empty set for a plan without any.
[[nodiscard]] const cell_changes& changes_of(const cell_plan& cell);

// True when the recipe names anything but `none` on an axis: its trials then go to
// `<output>/<cell>/trial_<n>/`.
[[nodiscard]] bool has_cells(const recipe& spec);

// Every cell, mitigation-major. Throws recipe_error (file:line, the names, the fix) for an
// undefined or repeated name, stacked mitigations that disagree on a variable, two commands or two
// trial counts, a reserved cell name, and a confound block that cannot be judged (one cell, or a
// baseline cell that does not exist).
[[nodiscard]] std::vector<cell_plan> plan_cells(const recipe& spec);

// Throws recipe_error (from_recipe) or usage_error (--trials) when the cells' trials add
// up to more than max_scheduled_trials; `origin` names what set the counts.
void check_scheduled_trials(const std::vector<cell_plan>& cells, const std::string& origin,
                            bool from_recipe);

// `--trials N`: every cell's count becomes N (the recipe's trials: and each mitigation's). Throws
// usage_error naming --trials when the cells would then run more than max_scheduled_trials, before
// anything plans the changed recipe, whose own check would name the recipe as the counts' source.
void apply_trials_flag(recipe& spec, int trials);

// By cell, the cell it is judged against: the baseline cell's mitigation under the cell's own
// diagnostic (times under different collectors are not comparable). nullopt for the baseline
// cells themselves or when no such cell exists. One pass and a lookup per cell: searching the
// cells for each cell's reference cost max_cells^2 comparisons of names.
[[nodiscard]] std::vector<std::optional<std::size_t>> reference_cells(
    const std::vector<cell_plan>& cells, std::size_t baseline);

// The index of `name` in `cells`, or a usage_error listing the cells (for --baseline-cell).
[[nodiscard]] std::size_t find_cell(const std::vector<cell_plan>& cells, const std::string& name,
                                    const std::string& origin);

}  // namespace aorta::detail
