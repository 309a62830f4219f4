// `aorta report` reads every result.json and its run marker through the bounded input layer (docs/guards.md, "Limits
// on hostile input"), as baselines and captures are read: the files below are hand-made.
#include "aorta/error.hpp"
#include "aorta/report.hpp"
#include "report/report_model.hpp"
#include "unit/process_test_support.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

namespace aorta {
namespace {

namespace fs = std::filesystem;

// One larger than max_json_file_bytes is skipped naming its size and the limit, not read whole.
TEST(ReportInput, OversizedResultIsSkippedNamingTheLimit) {
  const test::scratch_dir dir;
  fs::create_directories(dir / "trial_0");
  const fs::path big = dir / "trial_0" / "result.json";
  test::write_file(big, "{");
  fs::resize_file(big, (std::uintmax_t{64} << 20) + 1);  // sparse: nothing near 64 MiB is written
  const report_summary summary = write_aggregate_report(dir.path());
  EXPECT_EQ(summary.trials, 0U);
  ASSERT_EQ(summary.notes.size(), 1U);
  EXPECT_NE(summary.notes[0].find("bytes, more than aorta reads into memory"), std::string::npos)
      << summary.notes[0];
}

// The run marker: a FIFO hung the report (an open with no writer never returns), a huge one-line
// file was read whole. Both are refused naming the file and the fix.
TEST(ReportInput, RunMarkerThatIsNoSmallFileIsRefused) {
  const test::scratch_dir fifo_dir;
  ASSERT_EQ(::mkfifo((fifo_dir / run_marker_name).c_str(), 0600), 0);
  const test::scratch_dir big_dir;
  test::write_file(big_dir / run_marker_name, "2026-12-01T00:00:00Z");
  fs::resize_file(big_dir / run_marker_name, std::uintmax_t{1} << 30);
  for (const fs::path& dir : {fifo_dir.path(), big_dir.path()}) {
    try {
      (void)write_aggregate_report(dir);
      ADD_FAILURE() << "accepted the marker in " << dir;
    } catch (const error& refused) {
      const std::string message = refused.what();
      EXPECT_EQ(refused.code(), exit_code::failed);
      EXPECT_NE(message.find((dir / run_marker_name).string()), std::string::npos) << message;
      EXPECT_NE(message.find("Fix: run `aorta report --begin-run"), std::string::npos) << message;
    }
  }
}

// A cell's metric table: the last trial's names (the program's callgrind functions by Ir, loader
// frames folded), then the names only earlier trials had in name order, each once, without the
// folded functions' metrics.
TEST(ReportInput, SummaryNamesListTheLastTrialFirstThenEarlierOnesOnce) {
  detail::cell_report cell;
  detail::trial_entry last;
  last.record.metrics.values = {{"b_metric", 1.0},
                                {"callgrind_ir.main", std::int64_t{10}},
                                {"callgrind_self_ir.main", std::int64_t{5}},
                                {"callgrind_ir._dl_start", std::int64_t{3}}};
  cell.trials.push_back(last);
  std::map<std::string, metric_value> summarised;
  for (const char* name :
       {"a_old", "b_metric", "callgrind_ir._dl_start", "callgrind_self_ir._dl_start",
        "callgrind_ir.main", "callgrind_ir.other", "callgrind_self_ir.main"})
    summarised[name] = 1.0;
  cell.metrics_summary.add(summarised);
  detail::order_summary_rows(cell);
  std::vector<std::string> listed;
  for (const std::size_t row : cell.summary_rows)
    listed.push_back(cell.metrics_summary.at(row).first);
  EXPECT_EQ(listed, (std::vector<std::string>{"b_metric", "callgrind_ir.main",
                                              "callgrind_self_ir.main", "a_old",
                                              "callgrind_ir.other"}));
  EXPECT_EQ(cell.folded_functions, std::vector<std::string>{"_dl_start"});
}

}  // namespace
}  // namespace aorta
