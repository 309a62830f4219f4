// The aggregate report's model, shared by the perf.md, report.json and HTML writers.
#pragma once

#include "aorta/trial_record.hpp"
#include "report/metric_summaries.hpp"
#include "report/report_trends.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

// What the writers read of a trial's result.json. The rest of a trial_record (its command, argv,
// environment, versions, notes) was two thirds of a 30,000-cell report's memory, and walking it
// again to free it at the end a fifth of that report's last-level cache misses.
struct report_trial {
  metric_set metrics;
  std::vector<check_result> checks;
  std::vector<rank_row> ranks;
  std::string reason;
  std::string started_at;
  double wall_seconds = 0.0;
  aorta::verdict verdict = aorta::verdict::error;
  bool verdict_from_gate = false;
};

// Moves the fields the report reads out of `record`.
[[nodiscard]] report_trial kept_for_report(trial_record&& record);

struct trial_entry {
  std::string result_path;  // relative to the results directory, generic separators
  int index = 0;
  report_trial record;
};

// A trial's kernel rows grouped by collector: collectors in first-seen order, each one's rows in
// their order, as spans of one array (pointers into the metrics), not a vector per collector.
class kernel_groups {
public:
  struct group {
    std::string_view collector;
    std::size_t first = 0;
    std::size_t count = 0;
  };

  kernel_groups() = default;
  explicit kernel_groups(const metric_set& metrics);

  [[nodiscard]] const std::vector<group>& groups() const { return m_groups; }
  [[nodiscard]] std::span<const kernel_row* const> rows(const group& of) const {
    return std::span<const kernel_row* const>(m_rows).subspan(of.first, of.count);
  }

private:
  std::vector<group> m_groups;
  std::vector<const kernel_row*> m_rows;
};

struct cell_report {
  std::string name;
  std::vector<trial_entry> trials;  // by index; the last one is "the last trial"
  metric_summaries metrics_summary;
  std::size_t passed = 0;
  std::size_t failed = 0;
  std::size_t skipped = 0;
  std::size_t errored = 0;
  double failure_rate = 0.0;
  // The last trial's verdict is the regression gate's over all the trials (it passed its own
  // checks): the counts above count it as passed, the test's verdict is the gate's.
  bool verdict_from_gate = false;
  // The rows of the cell's metric table, as indices into metrics_summary in the order listed,
  // and the loader/libc functions folded out of it: made once (order_summary_rows), as perf.md
  // and the HTML page list the same rows.
  std::vector<std::size_t> summary_rows;
  std::vector<std::string> folded_functions;
  // The last trial's text and list values (entries of its metrics, in name order) and its key
  // metric: found once (digest_cell), as perf.md, report.json and the HTML page each show them.
  std::vector<const std::pair<const std::string, metric_value>*> last_text_values;
  std::pair<std::string, std::string> last_key_metric;
  // The last trial's kernel rows by collector (the HTML page's charts) and up to
  // top_kernel_limit of each collector's, hottest first (perf.md and report.json): grouped once.
  kernel_groups last_kernel_groups;
  std::vector<const kernel_row*> last_top_kernels;

  cell_report() = default;
  cell_report(cell_report&&) noexcept = default;
  cell_report& operator=(cell_report&&) noexcept = default;
  // last_text_values and the kernel rows point into the last trial: a copy would point into the
  // original's.
  cell_report(const cell_report&) = delete;
  cell_report& operator=(const cell_report&) = delete;
  ~cell_report() = default;

  [[nodiscard]] const report_trial& last() const { return trials.back().record; }
};

// A result.json older than the current ctest invocation (see write_aggregate_report).
struct stale_result {
  std::string result_path;
  std::string started_at;
  verdict outcome = verdict::pass;
};

// One differential flame graph of a cells run (report_flame_graphs.hpp).
struct comparison_flame {
  std::string cell;
  std::string reference;
  std::string collector;  // the reader both last trials were read with
  std::string svg;        // empty when `why_not` says why
  std::string why_not;
};

struct report_model {
  std::string generated_at;
  std::string run_started_at;              // "" when no run marker exists: every result counts
  std::vector<stale_result> stale;         // left out of cells and counts
  std::vector<cell_report> cells;          // by name
  std::vector<std::string> skipped_files;  // "path: why"
  std::size_t trial_count = 0;
  // The matrix.json a sweep with cells left in the results directory (report_sweep_matrix.hpp).
  std::optional<nlohmann::json> sweep_matrix;
  // `aorta report --history STORE`: the trends of the report's tests (report_trends.hpp).
  std::optional<trend_data> trends;
  std::vector<comparison_flame> flames;  // a cells run's, reference against cell
};

// "3 pass, 0 fail, 0 skip, 0 error" and, when the gate decided the test, "; the regression gate
// over all 3 trials: fail", so the counts say what CTest says about the test.
[[nodiscard]] std::string trial_counts_text(const cell_report& cell);

// Up to top_kernel_limit rows per collector, hottest first (the first of equals first),
// collectors in first-seen order.
[[nodiscard]] std::vector<const kernel_row*> top_kernel_rows(const kernel_groups& grouped);

void write_perf_markdown(std::ostream& out, const report_model& model);

// Sets cell.summary_rows and cell.folded_functions: the last trial's metrics first
// (ordered_metric_names, whose folded loader/libc functions land in folded_functions), then those
// only earlier trials had, in name order, unless their function was folded. Found in the summary
// as they come, not listed as names and matched through sets: two sets of 200,000 names per
// cell, made for perf.md and again for the HTML page, were a quarter of the cache misses of a
// report of that size.
void order_summary_rows(cell_report& cell);

// The number a reader looks at first for a cell's last trial, as {label, value}: in a failed
// trial the first failed check with a number (the gate records its rows culprit first), else the
// first numeric check's actual value, else GPU time, else callgrind's total Ir, else wall time.
[[nodiscard]] std::pair<std::string, std::string> key_metric(const report_trial& last);

// A gate row still AMBIGUOUS at the end of the run, as sweep/gate_run.cpp records it among the
// last trial's checks (message "gate AMBIGUOUS: ..."): the report lists these whatever the
// gate's ambiguous policy made of the test, so a pass under `ambiguous pass` is not silent.
[[nodiscard]] bool is_ambiguous_gate_check(const check_result& check);
// "N gate row(s) AMBIGUOUS: a, b" over the last trial's checks; empty when there are none.
[[nodiscard]] std::string ambiguous_gate_summary(const report_trial& last);

// Fills what the writers read of a summarised cell: its table's rows (order_summary_rows), the
// last trial's text values, key metric and kernel groups. The cell has at least one trial.
void digest_cell(cell_report& cell);
// report.json: the cells' summaries and the sweep's kept keys (report_sweep_matrix.hpp), in the
// bytes document_text prints.
void write_report_json(std::ostream& out, const report_model& model);
void write_html_report(std::ostream& out, const report_model& model);

}  // namespace aorta::detail
