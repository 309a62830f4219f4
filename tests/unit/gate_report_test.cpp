// The gate's table (baseline/gate_report.hpp): a passing gate still shows its largest deltas, a
// moved kernel says whether it did more work (baseline/gate_explain.hpp).
#include "baseline/gate_explain.hpp"
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

TEST(GateReport, AMovedKernelSaysWhetherItDidMoreWork) {
  gate_row slower = same_row("time_ms(gemm)", 1.0, 1.2);
  slower.verdict = gate_verdict::worse;
  gate_row launches = same_row("count(gemm)", 20, 20);
  launches.exact = true;
  gate_row instructions = same_row("ncu(smsp__inst_executed.sum, gemm)", 1e6, 1e6);
  instructions.exact = true;
  EXPECT_EQ(aorta::detail::gate_work_words({slower, launches, instructions}, slower),
            "same work, slower (launches 20 -> 20, instructions +0.00%)");
  gate_row more = same_row("ncu(smsp__inst_executed.sum, gemm)", 1e6, 1.2e6);
  more.exact = true;
  EXPECT_EQ(aorta::detail::gate_work_words({slower, launches, more}, slower),
            "more work (instructions +20.00%)");
  EXPECT_THAT(aorta::detail::gate_work_words({slower, launches}, slower),
              ::testing::StartsWith("same launches, slower (launches 20 -> 20); no instruction"));
  EXPECT_EQ(aorta::detail::gate_work_words({slower}, slower), "") << "nothing to tell by";
  EXPECT_EQ(aorta::detail::gate_work_words({launches, instructions}, launches), "")
      << "a count row is the evidence, not explained";
  EXPECT_THAT(aorta::detail::format_gate_table({slower, launches, instructions}, false),
              HasSubstr(": same work, slower (launches 20 -> 20, instructions +0.00%)\n"));
}

}  // namespace
