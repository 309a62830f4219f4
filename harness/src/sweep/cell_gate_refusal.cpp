// The refusal of a regression gate over cells (--baseline, --gate, the recipe's gate:, a baseline
// check): cells are judged against each other, so such a gate would judge nothing.
#include "sweep/cell_sweep.hpp"

#include "metrics/quantity_table.hpp"
#include "recipe/cell_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

namespace aorta::detail {

void refuse_gate_over_cells(const sweep_request& request, const recipe& spec,
                            const std::vector<check_expression>& checks) {
  if (request.baseline_dir || request.history_baseline) {
    throw usage_error("--baseline with a recipe that has cells: the baseline gate judges one "
                      "test against another process; cells are judged against each other by "
                      "the confound verdicts (docs/regression-gate.md, 'A/B on one GPU'). Fix: "
                      "drop --baseline, or run one cell per test to gate it");
  }
  constexpr std::string_view judged =
      "the regression gate judges one test against its baseline, and cells are judged against "
      "each other (the confound verdicts, cell-addressed checks), so nothing would judge it";
  if (request.gate) {
    throw usage_error(fmt::format("--gate with a recipe that has cells: {}. Fix: drop --gate, "
                                  "or run one cell per test to gate it",
                                  judged));
  }
  if (spec.gate) {
    throw usage_error(fmt::format("{}: gate: with cells: {}. Fix: drop the recipe's gate:, or "
                                  "run one cell per test to gate it",
                                  spec.path.string(), judged));
  }
  const auto baseline_check = std::find_if(checks.begin(), checks.end(),
                                           [](const auto& check) { return check.baseline(); });
  if (baseline_check == checks.end()) return;
  const auto& extra = request.extra_checks;
  const bool flag = std::find(extra.begin(), extra.end(), baseline_check->text()) != extra.end();
  const check_expression term = baseline_check->term(false);
  const std::string shown = written_term(term.quantity(), term.argument());
  const auto cells = plan_cells(spec);
  throw usage_error(fmt::format(
      "{}check '{}' with a recipe that has cells: {}. Fix: drop it, or compare the cells with a "
      "cell-addressed check (e.g. '{}@{} / {}@{} <= 1.05'; docs/checks-and-metrics.md, 'Checks "
      "over cells')",
      flag ? "--" : spec.path.string() + ": ", baseline_check->text(), judged, shown,
      cells.back().name, shown, cells.front().name));
}

}  // namespace aorta::detail
