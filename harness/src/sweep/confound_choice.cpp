#include "sweep/confound_choice.hpp"

#include "aorta/error.hpp"
#include "recipe/ab_cells.hpp"

#include <fmt/format.h>

namespace aorta::detail {

confound_choice choose_confound(const recipe& spec, const sweep_request& request,
                                const std::vector<cell_plan>& cells) {
  confound_choice choice;
  if (spec.confound) {
    choice.threshold = spec.confound->threshold;
    choice.threshold_source = spec.confound->threshold_given ? "the recipe's confound.threshold"
                              : spec.confound->threshold == ab_default_threshold
                                  ? "aorta ab's default; sweep run's is the original aorta's 1.15"
                                  : "the default, the original aorta's; aorta ab's is 1.05";
    choice.alpha = spec.confound->alpha;
    choice.fail_on_slower = spec.confound->fail;
    choice.ambiguous = spec.confound->ambiguous;
    if (spec.confound->baseline_cell) {
      choice.baseline = find_cell(cells, *spec.confound->baseline_cell, "confound.baseline_cell");
    }
  }
  if (request.baseline_cell) {
    choice.baseline = find_cell(cells, *request.baseline_cell, "--baseline-cell");
  }
  if (request.ambiguous) choice.ambiguous = *request.ambiguous;
  if (request.confound_threshold) {
    if (!(*request.confound_threshold >= 1.0 && *request.confound_threshold <= 1000.0)) {
      throw usage_error(fmt::format("--confound-threshold {}: the threshold is a ratio cell / "
                                    "baseline cell from 1 to 1000; e.g. 1.05 for 5%",
                                    *request.confound_threshold));
    }
    choice.threshold = *request.confound_threshold;
    choice.threshold_source = "--confound-threshold";
  }
  choice.fail_on_slower = choice.fail_on_slower || request.strict;
  return choice;
}

}  // namespace aorta::detail
