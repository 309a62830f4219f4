// A baseline file: <dir>/<test>.json, one per test so an update is a reviewable diff. Sorted keys,
// two-space indent, `schema` and `schema_version` from schemas::baseline (aorta/schema.hpp). Per-trial samples are kept (the
// gate's statistics need them), each with its summary (median, q1, q3, min, n) for a reader.
#pragma once

#include "baseline/measured_series.hpp"

#include <filesystem>

namespace aorta::detail {

// The most trials a baseline may hold: the most a run makes (`trials:`, --trials).
inline constexpr long long max_baseline_trials = 1'000'000;

[[nodiscard]] nlohmann::json baseline_to_json(const measured_test& test);

// Throws aorta::error (exit 1) naming `file`, the key and the fix for a corrupt file, another
// schema, another test (when `expected_test` is not empty), no trials, or samples that are negative,
// non-finite or disagree with their summary.
[[nodiscard]] measured_test baseline_from_json(const nlohmann::json& json,
                                               const std::filesystem::path& file,
                                               const std::string& expected_test);

[[nodiscard]] std::filesystem::path baseline_path(const std::filesystem::path& dir,
                                                  const std::string& test);

// nullopt when the file does not exist; otherwise as baseline_from_json.
[[nodiscard]] std::optional<measured_test> load_baseline(const std::filesystem::path& file,
                                                         const std::string& expected_test);

void write_baseline(const std::filesystem::path& file, const measured_test& test);

}  // namespace aorta::detail
