#include "record/rank_rows_json.hpp"

#include "aorta/error.hpp"
#include "json_integer.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <string>
#include <optional>

namespace aorta::detail {

namespace {

// Thrown as nlohmann's own type_error, so it reads like the entry's other malformed values.
template <typename T>
T json_whole_number(const nlohmann::json& value, const char* key) {
  const std::optional<T> whole = json_integer<T>(value);
  if (!whole) {
    throw nlohmann::json::type_error::create(
        302, fmt::format("'{}' must be a whole number from {} to {}, got {}", key,
                         std::numeric_limits<T>::min(), std::numeric_limits<T>::max(),
                         value.dump().substr(0, 80)),
        &value);
  }
  return *whole;
}

// A rank's own series (the per-rank gate): finite non-negative numbers only, as a baseline holds.
double series_number(const nlohmann::json& value, const std::string& key) {
  if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0) {
    throw nlohmann::json::type_error::create(
        302, fmt::format("'{}' must be a finite non-negative number, got {}", key,
                         value.dump().substr(0, 80)),
        &value);
  }
  return value.get<double>();
}

void require_object(const nlohmann::json& value, const char* key) {
  if (!value.is_object()) {
    throw nlohmann::json::type_error::create(
        302, fmt::format("'{}' must be an object, got {}", key, value.type_name()), &value);
  }
}

void read_rank_series(const nlohmann::json& entry, rank_row& row) {
  if (const auto metrics = entry.find("metrics"); metrics != entry.end()) {
    require_object(*metrics, "metrics");
    for (const auto& [name, value] : metrics->items()) {
      row.metrics[name] = series_number(value, "metrics." + name);
    }
  }
  if (const auto kernels = entry.find("kernels"); kernels != entry.end()) {
    require_object(*kernels, "kernels");
    for (const auto& [name, value] : kernels->items()) {
      require_object(value, "kernels.<name>");
      std::optional<std::uint64_t> launches;
      if (const auto count = value.find("launches"); count != value.end() && !count->is_null()) {
        launches = json_whole_number<std::uint64_t>(*count, "launches");
      }
      row.kernels[name] = {launches, series_number(value.at("time_ms"), name + ".time_ms")};
    }
  }
}

}  // namespace

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
    if (!row.card.empty()) {
      out.back()["card"] = row.card;
      out.back()["card_source"] = row.card_source;
    }
    if (!row.metrics.empty()) out.back()["metrics"] = row.metrics;
    if (!row.kernels.empty()) {
      auto& kernels = out.back()["kernels"] = nlohmann::json::object();
      for (const auto& [name, sample] : row.kernels) {
        kernels[name] = {{"launches", sample.first ? nlohmann::json(*sample.first) : nullptr},
                         {"time_ms", sample.second}};
      }
    }
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
      row.rank = json_whole_number<int>(entry.at("rank"), "rank");
      row.host = entry.value("host", "");
      row.collector = entry.value("collector", "");
      if (const auto launches = entry.find("launches");
          launches != entry.end() && !launches->is_null()) {
        row.launches = json_whole_number<std::uint64_t>(*launches, "launches");
      }
      row.time_ms = entry.value("time_ms", 0.0);
      if (const auto ir = entry.find("ir"); ir != entry.end() && !ir->is_null())
        row.ir = json_whole_number<std::uint64_t>(*ir, "ir");
      row.top = entry.value("top", "");
      row.empty = entry.value("empty", true);
      row.card = entry.value("card", "");
      row.card_source = entry.value("card_source", "");
      read_rank_series(entry, row);
      out.push_back(std::move(row));
    } catch (const nlohmann::json::exception& e) {
      throw error(exit_code::failed, fmt::format("result.json: an entry of 'ranks' is malformed: {}", e.what()));
    }
  }
  return out;
}

}  // namespace aorta::detail
