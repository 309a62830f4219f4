// The differential flame graphs of a cells run's report.html (issue 43): for each cell the
// confound table compared with a reference cell, the last trial of each read as `aorta diff` reads
// two captures, drawn as one inline SVG (diff/diff_flame_graph.hpp). A pair that cannot be drawn
// (no capture in common, a read that fails) says why instead.
#pragma once

#include "report/report_model.hpp"

#include <filesystem>
#include <vector>

namespace aorta::detail {

// Nothing unless the results directory's matrix.json holds confound summaries (a cells run).
[[nodiscard]] std::vector<comparison_flame>
comparison_flames(const std::filesystem::path& results_dir, const report_model& model);

}  // namespace aorta::detail
