// Reports: CTest measurements of one trial, and the aggregate over a results tree (perf.md,
// report.json and a self-contained report.html).
#pragma once

#include "aorta/metrics.hpp"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace aorta {

// One line per numeric metric, sorted by name:
//   <CTestMeasurement type="numeric/double" name="NAME">VALUE</CTestMeasurement>
// CTest records these from a test's output, so CDash plots them per test.
[[nodiscard]] std::string ctest_measurements(const metric_set& metrics);

struct report_summary {
  std::size_t trials = 0;
  std::size_t cells = 0;
  std::vector<std::filesystem::path> files;  // perf.md, report.json, report.html
  // Files that were skipped (malformed result.json) and why.
  std::vector<std::string> notes;
  // One line per cell: "<cell>: 1 pass, 0 fail, 0 skip, 0 error", plus the last trial's reason
  // when it did not pass (the skip reasons CTest itself does not show).
  std::vector<std::string> cell_lines;
  // result.json files older than the run marker: "path (verdict, started_at; run started T)".
  std::vector<std::string> stale_lines;
  // What report.json carries over from a cells sweep's matrix.json (its checks over cells, its
  // confound verdicts), "" when nothing.
  std::string kept_from_sweep;
  // With --history: the trends drawn and what the change-point detector reused of the state an
  // earlier pass saved in the store (docs/history.md, "Incremental detection"), "" without.
  std::string trends_line;

  // "report: 7 trials in 5 cells -> perf.md, report.json, report.html"
  [[nodiscard]] std::string to_string() const;
};

// Finds every result.json below `results_dir` (recursively, symlinks not followed) and groups the
// trials into cells: a result.json in `<cell>/trial_<n>/` belongs to cell `<cell>` (relative to
// results_dir, "." for results_dir itself); one elsewhere is a cell of its own directory. Writes
// results_dir/perf.md, report.json and report.html (atomically). A malformed result.json is
// skipped with a note in the summary and the reports. Throws usage_error when results_dir is not
// a directory, setup_error when a report cannot be written.
//
// Per cell: numeric metrics summarised {mean, min, max, n} over the trials that have them;
// verdict counts; failure_rate = (fail + error) / trials that were not skipped (0 when none ran);
// the last trial's (highest index) top kernels and non-numeric metrics.
//
// When results_dir holds the run marker that begin_report_run() wrote, trials that started before
// it (left by an earlier ctest invocation) are stale: listed with their date, not aggregated.
// A results_dir that does not exist yet is created: the report then says "0 trials".
// The matrix.json that a sweep with cells left in results_dir is read, never written: report.json
// carries over what no result.json holds (its checks over cells, confound verdicts, seed, what
// each cell changed); one that cannot be read is refused (error, exit code failed) before
// anything is written.
// With `history_store` (an SQLite path or postgresql:// URL), report.html also draws the trends
// of the report's tests in that store (docs/history.md, "Trends in report.html"); the store is
// read, and only the change-point detector's saved state is written.
report_summary write_aggregate_report(const std::filesystem::path& results_dir,
                                      const std::string& history_store = {});

// The file begin_report_run() writes in the results directory.
inline constexpr const char* run_marker_name = ".aorta-run-started";

// Marks the start of a ctest invocation (the report fixture's setup test): creates results_dir
// and writes the current UTC time into its run marker. Returns that time.
std::string begin_report_run(const std::filesystem::path& results_dir);

}  // namespace aorta
