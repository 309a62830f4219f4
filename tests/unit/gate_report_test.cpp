// The gate's table (baseline/gate_report.hpp): a passing gate still shows its largest deltas.
#include "baseline/gate_report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace {

using aorta::detail::gate_row;
using aorta::detail::gate_verdict;
using ::testing::HasSubstr;

gate_row same_row(const std::string& label, double base, double fresh) {
  gate_row row;
  row.test = "t";
  row.label = label;
  row.quantity = aorta::check_quantity::time_ms;
  row.bound_text = "<= baseline + 5%";
  row.base = {base, base, base};
  row.fresh = {fresh, fresh, fresh};
  row.base_median = base;
  row.fresh_median = fresh;
  row.delta = fresh / base - 1.0;
  row.verdict = gate_verdict::same;
  return row;
}

TEST(GateReport, APassingGateNamesItsLargestMovesAndTheGeomean) {
  std::vector<gate_row> rows{same_row("time_ms(a)", 1.0, 1.01), same_row("time_ms(b)", 1.0, 1.041),
                             same_row("time_ms(c)", 1.0, 0.98), same_row("time_ms(d)", 1.0, 1.0),
                             same_row("time_ms(e)", 1.0, 1.002)};
  const std::string table = aorta::detail::format_gate_table(rows, true);
  EXPECT_THAT(table, HasSubstr("all 5 row(s) SAME; largest moves: time_ms(b) +4.10% (<= baseline "
                               "+ 5%), time_ms(c) -2.00% (<= baseline + 5%), time_ms(a) +1.00% "
                               "(<= baseline + 5%)\n"));
  EXPECT_THAT(table, HasSubstr("geomean of new/base medians over 5 timed row(s):"));
  // Nothing moved: no "largest moves" to show.
  std::vector<gate_row> still{same_row("time_ms(a)", 1.0, 1.0)};
  EXPECT_THAT(aorta::detail::format_gate_table(still, true), HasSubstr("all 1 row(s) SAME\n"));
}

}  // namespace
