// Cells (docs/recipes.md, "Cells"): the recipe's mitigation_axis x diagnostic_axis. A mitigation
// changes what runs (environment, payload arguments, or the whole command: two builds of one
// payload); a diagnostic changes how it is observed (the collectors). Every cell runs the same
// number of trials, interleaved round by round on one GPU, so the confound verdicts can pair them.
#pragma once

#include "aorta/error.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aorta {

// The name `none` on either axis: no change.
inline constexpr const char* no_change_name = "none";

struct mitigation_def {
  std::string name;
  std::map<std::string, std::string> env_set;
  std::vector<std::string> env_unset;
  std::vector<std::string> extra_args;             // appended to the payload's command
  std::optional<std::vector<std::string>> command;  // replaces the payload's command
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
