// What a sweep with cells wrote into `<output>/matrix.json` that no trial's result.json holds: the
// cell-addressed checks, the confound verdicts, the seed and what each cell changed. `aorta report`
// rewrites matrix.json from the result.json files, so it carries these over as the sweep judged
// them (docs/output-files.md) instead of recomputing them from a second copy of the recipe.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace aorta::detail {

// `<results_dir>/matrix.json` when it exists: nullopt when there is none. Throws error (exit code
// failed) naming the file and the fix when it exists but is not an aorta-matrix document this
// aorta reads, rather than overwrite the verdicts it may hold.
[[nodiscard]] std::optional<nlohmann::json>
read_sweep_matrix(const std::filesystem::path& results_dir);

// "matrix.json keeps the sweep's 2 cell check(s) (2 passed, 0 failed) and its confound verdicts
// against base", or "" when `sweep` has neither.
[[nodiscard]] std::string kept_sweep_line(const nlohmann::json& sweep);

}  // namespace aorta::detail
