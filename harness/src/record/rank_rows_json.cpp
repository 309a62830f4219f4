#include "record/rank_rows_json.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>

namespace aorta::detail {

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

}  // namespace aorta::detail
