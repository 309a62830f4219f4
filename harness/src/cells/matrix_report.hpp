// `<output>/matrix.json` and `<output>/matrix.md` of a sweep with cells (docs/output-files.md):
// per cell what it changed, how its trials went and its metrics summarised, then the confound
// table. matrix.json keeps the original aorta's cells[] keys, so its consumers read it unchanged.
#pragma once

#include "aorta/check.hpp"
#include "recipe/cell_plan.hpp"
#include "cells/confound.hpp"
#include "cells/confound_attribution.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

struct matrix_run {
  std::vector<cell_plan> cells;
  std::vector<cell_trials> trials;  // per cell, by round
  std::vector<std::string> base_command;  // the command after `--`
  std::uint64_t seed = 0;
  int rounds = 0;
  // The confound judgement; nullopt when the recipe has a single cell.
  std::optional<std::string> baseline_cell;
  double threshold = 1.15;
  double alpha = 0.05;
  bool fail_on_slower = false;
  ambiguous_policy ambiguous = ambiguous_policy::fail;
  std::vector<confound_row> rows;
  std::vector<cell_change> changes;  // per judged cell: totals and the summary sentence
  std::vector<check_result> checks;  // the cell-addressed checks (cells/matrix_checks.hpp)
  // Why the run stopped before its verdicts ("interrupted by SIGINT after 3 of 10 trial(s)"):
  // then the files hold the trials that ran, no checks and no confound verdicts.
  std::optional<std::string> incomplete;
};

[[nodiscard]] nlohmann::json matrix_json(const matrix_run& run);
[[nodiscard]] std::string matrix_markdown(const matrix_run& run);

// The confound table for the terminal: rows that are not SAME (all rows when `all`), in the
// order judge_cells gave (answer first); loader and libc rows folded into one line per cell.
[[nodiscard]] std::string confound_table(const std::vector<confound_row>& rows, bool all,
                                         double threshold, double alpha);

// Writes both files atomically. Throws setup_error naming the path.
void write_matrix_reports(const std::filesystem::path& output_dir, const matrix_run& run);

}  // namespace aorta::detail
