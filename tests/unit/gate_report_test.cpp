// The gate's table (baseline/gate_report.hpp): a passing gate still shows its largest deltas, a
// moved kernel says whether it did more work (baseline/gate_explain.hpp).
#include "baseline/gate_attribution.hpp"
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
              HasSubstr("SLOWER (fail): 100% of the test's kernel time change (+20.0%); same "
                        "work, slower (launches 20 -> 20, instructions +0.00%)\n"));
}

// Shares against hand-computed totals: kernel time sums the test's time_ms medians; Ir takes the
// outermost function's inclusive Ir.
TEST(GateReport, AMovedRowCarriesItsShareOfTheTestsChange) {
  gate_row slower = same_row("time_ms(gemm)", 1.0, 1.2);
  slower.verdict = gate_verdict::worse;
  const gate_row other = same_row("time_ms(copy)", 2.0, 2.02);
  gate_row elsewhere = same_row("time_ms(gemm)", 5.0, 9.0);  // another test: not in the total
  elsewhere.test = "u";
  const std::vector<gate_row> rows{slower, other, elsewhere};
  const auto share = aorta::detail::gate_share(rows, slower);
  ASSERT_TRUE(share.has_value());
  EXPECT_NEAR(*share, 0.2 / 0.22, 1e-12);
  EXPECT_EQ(aorta::detail::gate_share_text(rows, slower),
            "91% of the test's kernel time change (+7.3%)");  // 3.0 -> 3.22

  gate_row main_row = same_row("ir(main)", 100.0, 110.0);
  main_row.exact = true;
  gate_row work = same_row("ir(work())", 50.0, 59.0);
  work.exact = true;
  work.verdict = gate_verdict::worse;
  EXPECT_EQ(aorta::detail::gate_share_text({main_row, work}, work),
            "90% of the test's Ir change (+10.0%)");
  // Nothing moved in total: no share rather than a division by zero.
  EXPECT_FALSE(aorta::detail::gate_share({same_row("time_ms(a)", 1.0, 1.0)},
                                         same_row("time_ms(a)", 1.0, 1.0)));
  EXPECT_FALSE(aorta::detail::gate_share({same_row("count(a)", 1.0, 2.0)},
                                         same_row("count(a)", 1.0, 2.0)))
      << "a count has no family total";
}

TEST(GateReport, TheSummarySentenceNamesTheCulpritItsShareAndWhy) {
  gate_row slower = same_row("time_ms(gemm)", 1.0, 1.2);
  slower.verdict = gate_verdict::worse;
  gate_row launches = same_row("count(gemm)", 20, 22);
  launches.exact = true;
  launches.verdict = gate_verdict::worse;
  const gate_row other = same_row("time_ms(copy)", 2.0, 2.02);
  const std::vector<gate_row> rows{slower, launches, other};
  const auto sentences = aorta::detail::gate_summaries(rows);
  ASSERT_EQ(sentences.size(), 1U);
  EXPECT_EQ(sentences[0],
            "t: time_ms(gemm) SLOWER +20.00% (<= baseline + 5%), 91% of the test's kernel time "
            "change (+7.3%), more work (launches 20 -> 22); 1 other row(s) moved");
  const std::string table = aorta::detail::format_gate_table(rows, false);
  EXPECT_THAT(table, HasSubstr("\nsummary: " + sentences[0] + "\n"));
  const auto json = aorta::detail::gate_rows_json(rows);
  EXPECT_NEAR(json.at(0).at("share").get<double>(), 0.2 / 0.22, 1e-12);
  EXPECT_EQ(json.at(0).at("why"), "more work (launches 20 -> 22)");
  EXPECT_FALSE(json.at(2).contains("why"));

  const std::vector<gate_row> still{same_row("time_ms(a)", 1.0, 1.03),
                                    same_row("time_ms(b)", 1.0, 1.0)};
  EXPECT_EQ(aorta::detail::gate_summaries(still),
            std::vector<std::string>{"t: all 2 row(s) SAME, largest move time_ms(a) +3.00%"});
  EXPECT_TRUE(aorta::detail::gate_summaries(still, true).empty());
}

}  // namespace
