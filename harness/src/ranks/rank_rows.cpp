#include "ranks/rank_rows.hpp"

#include "aorta/error.hpp"
#include "metrics/number_format.hpp"

#include <fmt/format.h>

namespace aorta::detail {
namespace {

rank_row summarize(const rank_captures& rank, const capture& got) {
  rank_row row;
  row.rank = rank.rank;
  row.host = rank.host;
  row.collector = got.collector;
  row.empty = got.empty();
  row.launches = 0;
  for (const auto& kernel : got.kernels) {
    row.time_ms += kernel.total_ns / 1e6;
    row.launches = row.launches && kernel.launches
                       ? std::optional(*row.launches + *kernel.launches)
                       : std::nullopt;
  }
  if (!got.kernels.empty()) row.top = got.kernels.front().name;
  if (!got.functions.empty()) {
    row.ir = got.functions.front().inclusive_ir;
    if (row.top.empty()) row.top = got.functions.front().name;
  }
  return row;
}

std::string launches_text(const rank_row& row) {
  return row.launches ? std::to_string(*row.launches) : "unknown";
}

}  // namespace

std::vector<rank_row> rank_rows(const std::vector<rank_captures>& ranks) {
  std::vector<rank_row> rows;
  for (const auto& rank : ranks) {
    for (const auto& got : rank.captures) rows.push_back(summarize(rank, got));
  }
  return rows;
}

nlohmann::json rank_rows_to_json(const std::vector<rank_row>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& row : rows) {
    out.push_back({{"rank", row.rank},
                   {"host", row.host},
                   {"collector", row.collector},
                   {"launches", row.launches ? nlohmann::json(*row.launches) : nullptr},
                   {"time_ms", row.time_ms},
                   {"ir", row.ir},
                   {"top", row.top},
                   {"empty", row.empty}});
  }
  return out;
}

std::vector<rank_row> rank_rows_from_json(const nlohmann::json& rows) {
  if (!rows.is_array()) {
    throw error(exit_code::failed, fmt::format("result.json: 'ranks' must be a list, got {}", rows.type_name()));
  }
  std::vector<rank_row> out;
  for (const auto& entry : rows) {
    try {
      rank_row row;
      row.rank = entry.at("rank").get<int>();
      row.host = entry.value("host", "");
      row.collector = entry.value("collector", "");
      if (const auto launches = entry.find("launches");
          launches != entry.end() && !launches->is_null()) {
        row.launches = launches->get<std::uint64_t>();
      }
      row.time_ms = entry.value("time_ms", 0.0);
      row.ir = entry.value("ir", std::uint64_t{0});
      row.top = entry.value("top", "");
      row.empty = entry.value("empty", true);
      out.push_back(std::move(row));
    } catch (const nlohmann::json::exception& e) {
      throw error(exit_code::failed, fmt::format("result.json: an entry of 'ranks' is malformed: {}", e.what()));
    }
  }
  return out;
}

std::string render_rank_table_markdown(const std::vector<rank_row>& rows) {
  if (rows.empty()) return {};
  std::string out = "Ranks of the last trial:\n\n| rank | host | collector | launches | total ms | "
                    "top | empty |\n|---:|---|---|---:|---:|---|---|\n";
  for (const auto& row : rows) {
    out += fmt::format("| {} | {} | {} | {} | {} | `{}` | {} |\n", row.rank, row.host,
                       row.collector, launches_text(row), format_number(row.time_ms), row.top,
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
                       launches_text(row), format_number(row.time_ms), xml_escape(row.top),
                       row.empty ? " class=\"fail\"" : "", row.empty ? "yes" : "no");
  }
  return out + "</table>\n";
}

}  // namespace aorta::detail
