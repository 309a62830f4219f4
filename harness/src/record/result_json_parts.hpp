// The pieces to_json assembles a result.json from, shared with the streaming writer
// (result_writer.hpp) so both print the same keys from one definition.
#pragma once

#include "aorta/trial_record.hpp"

#include <nlohmann/json.hpp>

#include <exception>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

// The name of the top-level key holding the per-kernel table.
inline constexpr const char* kernels_key = "kernels";

// to_json(record) with `kernels` an empty array: small whatever the profile's size.
[[nodiscard]] nlohmann::json result_json_without_kernels(const trial_record& record);

// One element of `kernels` in to_json's DOM; the streaming writer prints the same text without
// building it (tests/unit/result_writer_test.cpp holds the two to the same bytes).
[[nodiscard]] nlohmann::json kernel_row_json(const kernel_row& row);

// What the result.json reader (result_reader.hpp) converted as it parsed: the top-level `metrics`
// and `kernels`, member by member, so that neither exists as a DOM (for 10^5 kernel rows most of
// a report's memory); the DOM it hands on holds an empty placeholder in their place. A later
// duplicate of either key that is not an object (array) is left to the DOM and clears the flag.
struct streamed_rows {
  bool metrics_streamed = false;
  std::map<std::string, metric_value> metrics;
  // Per metric name, so a duplicate key that reads cleanly drops the earlier one's failure; the
  // first by name is the one a read of the DOM would throw.
  std::map<std::string, std::exception_ptr> metric_failures;
  bool kernels_streamed = false;
  std::vector<kernel_row> kernels;
  std::exception_ptr kernel_failure;  // the first row's that could not be read
};

// trial_record_from_json's conversions of one metric value and one kernel row (same errors).
[[nodiscard]] std::optional<metric_value> metric_value_from_json(const std::string& name,
                                                                 const nlohmann::json& value);
[[nodiscard]] kernel_row kernel_row_from_json(const nlohmann::json& object);

// One element of `checks`, both ways (same keys and errors as a result.json's).
[[nodiscard]] nlohmann::json check_result_json(const check_result& check);
[[nodiscard]] check_result check_result_from_json(const nlohmann::json& object);

// trial_record_from_json, taking `metrics` and `kernels` from `rows` where the reader streamed
// them (rows may be null: all from the DOM).
[[nodiscard]] trial_record trial_record_from_parts(const nlohmann::json& object,
                                                   streamed_rows* rows);

}  // namespace aorta::detail
