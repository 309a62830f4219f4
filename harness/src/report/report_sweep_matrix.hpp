// What a sweep with cells wrote into `<output>/matrix.json` that no trial's result.json holds: the
// cell-addressed checks, the confound verdicts, the seed and what each cell changed. `aorta report`
// reads matrix.json and never writes it (the sweep is its one writer); report.json, built from the
// result.json files, carries these over as the sweep judged them (docs/output-files.md) instead of
// recomputing them from a second copy of the recipe.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace aorta::detail {

// The keys write_report_json writes itself, at the top level and in each cell: a sweep's value
// for one of them is never kept, so read_sweep_matrix does not build it ("schema",
// "schema_version", "cells" and a cell's "name" are read for the file's shape and the matching).
inline constexpr std::array<std::string_view, 5> report_matrix_keys = {
    "generated_at", "run_started_at", "skipped_files", "stale_results", "trials"};
inline constexpr std::array<std::string_view, 10> report_cell_keys = {
    "error_count",  "failed_count",  "failure_rate", "last_trial_values", "metrics_summary",
    "passed_count", "skipped_count", "top_kernels",  "trial_results",     "trials"};

// `<results_dir>/matrix.json` when it exists, without the values of the keys above: nullopt when
// there is none. Throws error (exit code
// failed) naming the file and the fix when it exists but is not an aorta-matrix document this
// aorta reads, rather than report the run without the verdicts it may hold.
[[nodiscard]] std::optional<nlohmann::json>
read_sweep_matrix(const std::filesystem::path& results_dir);

// "report.json keeps the sweep's 2 cell check(s) (2 passed, 0 failed) and its confound verdicts
// against base", or "" when `sweep` has neither.
[[nodiscard]] std::string kept_sweep_line(const nlohmann::json& sweep);

}  // namespace aorta::detail
