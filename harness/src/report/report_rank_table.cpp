#include "report/report_rank_table.hpp"

#include "metrics/number_format.hpp"

#include <fmt/format.h>

namespace aorta::detail {
namespace {

std::string rank_launches_text(const rank_row& row) {
  return row.launches ? std::to_string(*row.launches) : "unknown";
}

}  // namespace

std::string render_rank_table_markdown(const std::vector<rank_row>& rows) {
  if (rows.empty()) return {};
  std::string out = "Ranks of the last trial:\n\n| rank | host | collector | launches | total ms | "
                    "top | empty |\n|---:|---|---|---:|---:|---|---|\n";
  for (const auto& row : rows) {
    out += fmt::format("| {} | {} | {} | {} | {} | `{}` | {} |\n", row.rank, row.host,
                       row.collector, rank_launches_text(row), format_number(row.time_ms), row.top,
                       row.empty ? "**yes**" : "no");
  }
  return out + "\n";
}

std::string render_rank_table_html(const std::vector<rank_row>& rows) {
  if (rows.empty()) return {};
  std::string out = "<h3>Ranks, last trial</h3>\n<table>\n<tr><th>rank</th><th>host</th>"
                    "<th>collector</th><th>launches</th><th>total ms</th><th>top</th>"
                    "<th>empty</th></tr>\n";
  for (const auto& row : rows) {
    out += fmt::format("<tr><td class=\"n\">{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td>"
                       "<td class=\"n\">{}</td><td><code>{}</code></td><td{}>{}</td></tr>\n",
                       row.rank, xml_escape(row.host), xml_escape(row.collector),
                       rank_launches_text(row), format_number(row.time_ms), xml_escape(row.top),
                       row.empty ? " class=\"fail\"" : "", row.empty ? "yes" : "no");
  }
  return out + "</table>\n";
}

}  // namespace aorta::detail
