#include "sweep/confound_policy.hpp"

#include "cells/signed_rank.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace aorta::detail {

void refuse_unreachable_confound(const std::vector<confound_pair>& pairs, double alpha,
                                 std::string_view fails_by) {
  for (const auto& pair : pairs) {
    if (!pair.timed || can_reach(alpha, pair.rounds)) continue;
    throw usage_error(fmt::format(
        "{} with {} round(s) of cell {} against {}: the paired signed-rank test needs at least "
        "{} rounds to call a timed row SLOWER at alpha {:g} (its smallest p with {} is {}), so "
        "this verdict could never fail on a time. Fix: run {} or more trials per cell (--trials "
        "or trials:), or raise confound.alpha",
        fails_by, pair.rounds, pair.cell, pair.reference, pairs_to_reach(alpha), alpha, pair.rounds,
        pair.rounds > 0 ? fmt::format("1/2^{}", pair.rounds) : std::string("1"),
        pairs_to_reach(alpha)));
  }
}

exit_code apply_ambiguous_policy(const std::vector<confound_row>& rows, ambiguous_policy policy,
                                 exit_code code, reporting::reporter& report) {
  std::vector<std::string> ambiguous;
  for (const auto& row : rows) {
    if (row.verdict == confound_verdict::ambiguous)
      ambiguous.push_back(fmt::format("{}: {}", row.cell, row.quantity));
  }
  if (ambiguous.empty()) return code;
  const std::string listed = fmt::format("{}", fmt::join(ambiguous, ", "));
  switch (policy) {
  case ambiguous_policy::pass:
    reporting::say(report, fmt::format("confound: {} row(s) still AMBIGUOUS ({}); passed by "
                                       "confound.ambiguous: pass",
                                       ambiguous.size(), listed));
    return code;
  case ambiguous_policy::skip:
    reporting::say(
        report, fmt::format("SKIPPED: {} confound row(s) still AMBIGUOUS at the end of the run "
                            "({}): slower than the threshold in the medians, not shown by the "
                            "test. Run more trials, or set confound.ambiguous (fail, skip, pass)",
                            ambiguous.size(), listed));
    return code == exit_code::ok ? exit_code::skipped : code;
  case ambiguous_policy::fail: break;
  }
  reporting::say(
      report, fmt::format("FAILED: {} confound row(s) still AMBIGUOUS at the end of the run ({}): "
                          "slower than the threshold in the medians, not shown by the test "
                          "(confound.ambiguous: fail). Run more trials, or set "
                          "confound.ambiguous (fail, skip, pass)",
                          ambiguous.size(), listed));
  return code == exit_code::ok ? exit_code::failed : code;
}

exit_code skip_when_a_cell_measured_nothing(const std::vector<compared_cell>& cells,
                                            const std::vector<cell_trials>& trials, exit_code code,
                                            reporting::reporter& report) {
  if (code != exit_code::ok || cells.size() < 2) return code;
  for (std::size_t i = 0; i < cells.size() && i < trials.size(); ++i) {
    if (!cells[i].on_this_lane) continue;
    const trial_record* skipped = nullptr;
    bool measured = false;
    for (const auto& trial : trials[i]) {
      if (!trial) continue;
      if (trial->verdict != verdict::skip) measured = true;
      if (skipped == nullptr) skipped = &*trial;
    }
    if (measured) continue;
    reporting::say(
        report,
        fmt::format("SKIPPED: cell {} measured no trial ({}), so the comparison of cells has no "
                    "side there: not a pass",
                    cells[i].name,
                    skipped != nullptr ? fmt::format("every trial skipped: {}", skipped->reason)
                                       : std::string("no trial ran")));
    return exit_code::skipped;
  }
  return code;
}

}  // namespace aorta::detail
