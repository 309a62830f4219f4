// Cells (docs/recipes.md, "Cells"): the recipe's mitigation_axis x diagnostic_axis. A mitigation
// changes what runs (environment, payload arguments, or the whole command: two builds of one
// payload); a diagnostic changes how it is observed (the collectors). Every cell runs the same
// number of trials, interleaved round by round on one GPU, so the confound verdicts can pair them.
#pragma once

#include "aorta/error.hpp"

#include <filesystem>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aorta {

// The name `none` on either axis: no change.
inline constexpr const char* no_change_name = "none";

// The most cells one recipe may make (mitigation_axis entries x diagnostic_axis entries). Each cell
// is a directory of trials, a banner line, a row of every confound table and of matrix.json, and
// runs its trials one after another on one GPU: a matrix beyond this is a generated recipe gone
// wrong. A recipe past it is refused at load (64) before any cell is planned (10,000 cells ended
// in std::bad_alloc with nothing written).
inline constexpr std::size_t max_cells = 4096;

// The most trials one run of cells may schedule, over all its cells: the schedule holds one entry
// per trial, so 4096 cells of `trials: 1000000` would need 4 * 10^9 of them (std::bad_alloc).
// Past it, a recipe is refused at load and `--trials` before anything runs (64).
inline constexpr std::size_t max_scheduled_trials = 10'000'000;

// The longest cell name: it is a directory name (NAME_MAX on Linux).
inline constexpr std::size_t max_cell_name_length = 255;

struct mitigation_def {
  std::string name;
  std::map<std::string, std::string> env_set;
  std::vector<std::string> env_unset;
  std::vector<std::string> extra_args;             // appended to the payload's command
  std::optional<std::vector<std::string>> command;  // replaces the payload's command
  // Where the payload starts (`aorta bisect`: the commit's worktree); empty: aorta's own.
  std::filesystem::path working_directory;
  std::optional<int> trials;
  source_location where;
};

// What a confound row still AMBIGUOUS when the run ends does to a run whose confound verdicts
// fail it (`confound.fail: true` or --strict): fails it (the default: no green without evidence),
// makes it skipped (77), or passes it as before.
enum class ambiguous_policy { fail, skip, pass };

struct confound_spec {
  double threshold = 1.15;  // the original's default: a cell 15% slower than the baseline cell
  bool threshold_given = false;  // the recipe wrote threshold: (`aorta ab` defaults otherwise)
  std::optional<std::string> baseline_cell;  // nullopt: the first cell
  bool fail = false;                          // a SLOWER verdict fails the run
  double alpha = 0.05;
  ambiguous_policy ambiguous = ambiguous_policy::fail;
  source_location where;
};

// One entry of mitigation_axis: a mitigation name, or several stacked with '+' ("fast+big").
struct axis_item {
  std::string text;
  source_location where;
};

}  // namespace aorta
