// result.json's `ranks`: the per-rank table of a multi-rank trial as stored.
#pragma once

#include "aorta/trial_record.hpp"

#include <nlohmann/json.hpp>

#include <vector>

namespace aorta::detail {

[[nodiscard]] nlohmann::json rank_rows_to_json(const std::vector<rank_row>& rows);
// Throws aorta::error naming `ranks` for a value of the wrong type.
[[nodiscard]] std::vector<rank_row> rank_rows_from_json(const nlohmann::json& rows);

}  // namespace aorta::detail
