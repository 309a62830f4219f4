// The ranks of a multi-rank cell over all its trials, for perf.md's straggler table and
// report.html's per-rank chart: each rank's value per trial (its kernels' total ms, or its top
// function's Ir for callgrind) against the median of its peers in the same trial, the same ratio
// the straggler check and gate item judge (rank_checks.hpp, baseline/straggler_gate.hpp).
#pragma once

#include "report/report_model.hpp"

#include <string>
#include <vector>

namespace aorta::detail {

// The ratio above which a rank is counted as slow in the table and drawn outside the band.
inline constexpr double report_straggler_threshold = 1.05;

struct rank_straggler_row {
  int rank = 0;
  std::string host;
  std::string card;
  double median_value = 0.0;  // over the trials that measured it
  double median_ratio = 0.0;  // its value / its peers' median, median over the trials
  double max_ratio = 0.0;
  int trials_over = 0;  // trials whose ratio exceeded report_straggler_threshold
  int trials = 0;       // trials with the rank and at least one peer
};

struct rank_stragglers {
  std::string quantity;                  // "total ms" or "Ir of the top function"
  std::vector<rank_straggler_row> rows;  // by rank; empty for a cell without two ranks
};

[[nodiscard]] rank_stragglers stragglers_of(const std::vector<trial_entry>& trials);

// "" without rows; else a Markdown table, or an HTML chart (one bar per rank, the band the
// peers' median x (1 +- 5%) drawn behind it) and table.
[[nodiscard]] std::string render_straggler_table_markdown(const rank_stragglers& ranks);
[[nodiscard]] std::string render_straggler_chart_html(const rank_stragglers& ranks);

}  // namespace aorta::detail
