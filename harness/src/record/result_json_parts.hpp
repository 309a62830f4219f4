// The pieces to_json assembles a result.json from, shared with the streaming writer
// (result_writer.hpp) so both print the same keys from one definition.
#pragma once

#include "aorta/trial_record.hpp"

#include <nlohmann/json.hpp>

namespace aorta::detail {

// The name of the top-level key holding the per-kernel table.
inline constexpr const char* kernels_key = "kernels";

// to_json(record) with `kernels` an empty array: small whatever the profile's size.
[[nodiscard]] nlohmann::json result_json_without_kernels(const trial_record& record);

// One element of `kernels` in to_json's DOM; the streaming writer prints the same text without
// building it (tests/unit/result_writer_test.cpp holds the two to the same bytes).
[[nodiscard]] nlohmann::json kernel_row_json(const kernel_row& row);

}  // namespace aorta::detail
