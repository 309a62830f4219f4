// Finding tests in what a user points at: a sweep output (DIR/trial_<n>/result.json), a CTest
// results root (ROOT/<test>/trial_<n>/result.json), one result.json, a baseline file or a
// directory of baseline files.
#pragma once

#include "baseline/measured_series.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace aorta::detail {

// Trials by test name (the directory holding trial_<n>/). Throws aorta::error (exit 1) naming the
// path when it holds no result.json at all.
[[nodiscard]] std::map<std::string, std::vector<trial_record>>
read_result_trees(const std::filesystem::path& path);

// Baselines (a file or a directory of <test>.json) or measured results, by test name.
[[nodiscard]] std::map<std::string, measured_test>
load_measured(const std::filesystem::path& path);

}  // namespace aorta::detail
