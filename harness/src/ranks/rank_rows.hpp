// The per-rank table of a multi-rank trial, built from the ranks' captures. It is stored in
// result.json as `ranks` (record/rank_rows_json.hpp) and rendered in perf.md and report.html
// (report/report_rank_table.hpp).
#pragma once

#include "aorta/capture.hpp"
#include "aorta/trial_record.hpp"

#include <vector>

namespace aorta::detail {

[[nodiscard]] std::vector<rank_row> rank_rows(const std::vector<rank_captures>& ranks);

}  // namespace aorta::detail
