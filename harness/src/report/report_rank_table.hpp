// The per-rank table of a multi-rank trial's last trial, as perf.md and report.html show it.
#pragma once

#include "aorta/trial_record.hpp"

#include <string>
#include <vector>

namespace aorta::detail {

// "" for no rows; else a "Ranks of the last trial" Markdown table, or an HTML <table>.
[[nodiscard]] std::string render_rank_table_markdown(const std::vector<rank_row>& rows);
[[nodiscard]] std::string render_rank_table_html(const std::vector<rank_row>& rows);

}  // namespace aorta::detail
