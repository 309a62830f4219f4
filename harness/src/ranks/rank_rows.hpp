// The per-rank table of a multi-rank trial: built from the ranks' captures, stored in result.json
// as `ranks`, rendered in perf.md and report.html.
#pragma once

#include "aorta/capture.hpp"
#include "aorta/trial_record.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace aorta::detail {

[[nodiscard]] std::vector<rank_row> rank_rows(const std::vector<rank_captures>& ranks);

[[nodiscard]] nlohmann::json rank_rows_to_json(const std::vector<rank_row>& rows);
// Throws aorta::error naming `ranks` for a value of the wrong type.
[[nodiscard]] std::vector<rank_row> rank_rows_from_json(const nlohmann::json& rows);

// "" for no rows; else a "Ranks of the last trial" Markdown table, or an HTML <table>.
[[nodiscard]] std::string render_rank_table_markdown(const std::vector<rank_row>& rows);
[[nodiscard]] std::string render_rank_table_html(const std::vector<rank_row>& rows);

}  // namespace aorta::detail
