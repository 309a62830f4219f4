#include "aorta/trial_record.hpp"

#include "aorta/error.hpp"
#include "atomic_file.hpp"
#include "json_integer.hpp"
#include "json_text.hpp"
#include "record/rank_rows_json.hpp"
#include "record/result_json_parts.hpp"
#include "record/result_writer.hpp"

#include <fmt/format.h>

#include <cmath>
#include <exception>
#include <limits>
#include <optional>
#include <type_traits>

namespace aorta {
namespace {

using json = nlohmann::json;

[[noreturn]] void wrong_type(std::string_view key, std::string_view expected, const json& found) {
  throw error(exit_code::failed,
              fmt::format("result.json: key '{}' should be {} but is {} ({})", key, expected,
                          found.type_name(), detail::dump_json(found).substr(0, 80)));
}

// Missing or null keeps the default; a value of the wrong type is an error naming the key.
template <typename T>
void read(const json& object, const char* key, T& out) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return;
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    const std::optional<T> whole = detail::json_integer<T>(*found);
    if (!whole) {
      wrong_type(key,
                 fmt::format("a whole number from {} to {}", std::numeric_limits<T>::min(),
                             std::numeric_limits<T>::max()),
                 *found);
    }
    out = *whole;
  } else {
    try {
      out = found->get<T>();
    } catch (const json::exception&) {
      wrong_type(key, "a different type", *found);
    }
  }
}

template <typename T>
void read_optional(const json& object, const char* key, std::optional<T>& out) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) {
    out.reset();
    return;
  }
  T value{};
  read(object, key, value);
  out = value;
}

json metric_to_json(const metric_value& value) {
  struct converter {
    json operator()(std::int64_t v) const { return v; }
    // JSON has no Infinity/NaN; compute_metrics never produces them, a hand-built set might.
    json operator()(double v) const { return std::isfinite(v) ? json(v) : json(nullptr); }
    json operator()(const std::string& v) const { return v; }
    json operator()(const std::vector<std::string>& v) const { return v; }
  };
  return std::visit(converter{}, value);
}

std::optional<metric_value> metric_from_json(const std::string& name, const json& value) {
  if (value.is_null()) return std::nullopt;
  if (value.is_number_unsigned()) {
    const auto unsigned_value = value.get<std::uint64_t>();
    constexpr auto limit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (unsigned_value > limit) return static_cast<double>(unsigned_value);
    return static_cast<std::int64_t>(unsigned_value);
  }
  if (value.is_number_integer()) return value.get<std::int64_t>();
  if (value.is_number_float()) return value.get<double>();
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) {
    std::vector<std::string> items;
    for (const auto& item : value) {
      if (!item.is_string()) wrong_type("metrics." + name, "a list of strings", value);
      items.push_back(item.get<std::string>());
    }
    return items;
  }
  wrong_type("metrics." + name, "a number, a string or a list of strings", value);
}

json check_to_json(const check_result& check) {
  return {{"expression", check.expression},
          {"passed", check.passed},
          {"expected", check.expected},
          {"actual", check.actual},
          {"message", check.message}};
}

check_result check_from_json(const json& object) {
  if (!object.is_object()) wrong_type("checks[]", "an object", object);
  check_result check;
  read(object, "expression", check.expression);
  read(object, "passed", check.passed);
  read(object, "expected", check.expected);
  read(object, "actual", check.actual);
  read(object, "message", check.message);
  return check;
}

kernel_row kernel_from_json(const json& object) {
  if (!object.is_object()) wrong_type("kernels[]", "an object", object);
  kernel_row row;
  std::string name;
  read(object, "name", name);
  row.name = name;
  read_optional(object, "launches", row.launches);
  // null is what the writer makes of a time the profiler could not give; it stays unknown (NaN,
  // as in memory) instead of becoming a 0 ms sample.
  row.total_ms = std::numeric_limits<double>::quiet_NaN();
  read(object, "total_ms", row.total_ms);
  read(object, "collector", row.collector);
  return row;
}

// The metrics: those the reader converted while parsing (the DOM holds an empty placeholder), or
// the DOM's. A failure is the one reading the DOM would meet first, in its (sorted) key order.
void read_metrics(const json& object, detail::streamed_rows* rows, metric_set& metrics) {
  if (rows != nullptr && rows->metrics_streamed) {
    if (!rows->metric_failures.empty()) {
      std::rethrow_exception(rows->metric_failures.begin()->second);
    }
    metrics.values = std::move(rows->metrics);
    return;
  }
  const auto found = object.find("metrics");
  if (found == object.end() || found->is_null()) return;
  if (!found->is_object()) wrong_type("metrics", "an object", *found);
  for (const auto& [name, value] : found->items()) {
    if (auto converted = metric_from_json(name, value)) metrics.values[name] = *converted;
  }
}

void read_kernels(const json& object, detail::streamed_rows* rows, metric_set& metrics) {
  if (rows != nullptr && rows->kernels_streamed) {
    if (rows->kernel_failure) std::rethrow_exception(rows->kernel_failure);
    metrics.kernels = std::move(rows->kernels);
    return;
  }
  const auto found = object.find("kernels");
  if (found == object.end() || found->is_null()) return;
  if (!found->is_array()) wrong_type("kernels", "a list", *found);
  metrics.kernels.reserve(found->size());
  for (const auto& row : *found) metrics.kernels.push_back(kernel_from_json(row));
}

}  // namespace

std::string_view to_string(verdict value) noexcept {
  switch (value) {
  case verdict::pass: return "pass";
  case verdict::fail: return "fail";
  case verdict::skip: return "skip";
  case verdict::error: return "error";
  }
  return "error";
}

std::optional<verdict> parse_verdict(std::string_view text) noexcept {
  for (const verdict candidate : {verdict::pass, verdict::fail, verdict::skip, verdict::error}) {
    if (to_string(candidate) == text) return candidate;
  }
  return std::nullopt;
}

namespace detail {

json kernel_row_json(const kernel_row& row) {
  return {{"name", row.name.str()},
          {"launches", row.launches ? json(*row.launches) : json(nullptr)},
          {"total_ms", std::isfinite(row.total_ms) ? json(row.total_ms) : json(nullptr)},
          {"collector", row.collector}};
}

json result_json_without_kernels(const trial_record& record) {
  json metrics = json::object();
  for (const auto& [name, value] : record.metrics.values) metrics[name] = metric_to_json(value);
  json checks = json::array();
  for (const auto& check : record.checks) checks.push_back(check_to_json(check));

  json out = {
      {"schema", std::string(schemas::result.name)},
      {"schema_version", record.schema_version},
      {"aorta_version", record.aorta_version},
      {"recipe_path", record.recipe_path},
      {"ticket", record.ticket},
      {"trial_index", record.trial_index},
      {"command", record.command},
      {"argv", record.argv},
      {"env_set", record.env_set},
      {"env_unset", record.env_unset},
      {"working_directory", record.working_directory},
      {"exit_status", record.exit_status ? json(*record.exit_status) : json(nullptr)},
      {"signal", record.signal ? json(*record.signal) : json(nullptr)},
      {"timed_out", record.timed_out},
      {"interrupted_by", record.interrupted_by ? json(*record.interrupted_by) : json(nullptr)},
      {"hung_after_capture", record.hung_after_capture},
      {"escaped_processes", record.escaped_processes},
      {"wall_seconds", record.wall_seconds},
      {"collectors", record.collectors},
      {"metrics", std::move(metrics)},
      {kernels_key, json::array()},
      {"metric_notes", record.metrics.notes},
      {"checks", std::move(checks)},
      {"verdict", to_string(record.verdict)},
      {"reason", record.reason},
      {"versions", record.versions},
      {"started_at", record.started_at},
      {"notes", record.notes},
  };
  if (!record.ranks.empty()) out["ranks"] = detail::rank_rows_to_json(record.ranks);
  if (record.ranks_serialized) out["ranks_serialized"] = true;
  if (record.verdict_from_gate) out["verdict_from_gate"] = true;
  if (record.cell) {
    out["cell"] = {{"name", record.cell->name},
                   {"round", record.cell->round},
                   {"position", record.cell->position},
                   {"mitigations", record.cell->mitigations},
                   {"diagnostic", record.cell->diagnostic}};
  }
  return out;
}

}  // namespace detail

json to_json(const trial_record& record) {
  json out = detail::result_json_without_kernels(record);
  auto& kernels = out[detail::kernels_key];
  for (const auto& row : record.metrics.kernels) kernels.push_back(detail::kernel_row_json(row));
  return out;
}

trial_record trial_record_from_json(const json& object) {
  return detail::trial_record_from_parts(object, nullptr);
}

namespace detail {

std::optional<metric_value> metric_value_from_json(const std::string& name, const json& value) {
  return metric_from_json(name, value);
}

kernel_row kernel_row_from_json(const json& object) {
  return kernel_from_json(object);
}

json check_result_json(const check_result& check) {
  return check_to_json(check);
}

check_result check_result_from_json(const json& object) {
  return check_from_json(object);
}

trial_record trial_record_from_parts(const json& object, streamed_rows* rows) {
  if (!object.is_object()) wrong_type("(top level)", "an object", object);
  trial_record record;
  if (const auto schema = object.find("schema"); schema != object.end() && !schema->is_null()) {
    if (!schema->is_string() || schema->get<std::string>() != schemas::result.name) {
      wrong_type("schema", fmt::format("\"{}\" (a trial record)", schemas::result.name), *schema);
    }
  }
  read(object, "schema_version", record.schema_version);
  read(object, "aorta_version", record.aorta_version);
  read(object, "recipe_path", record.recipe_path);
  read(object, "ticket", record.ticket);
  read(object, "trial_index", record.trial_index);
  read(object, "command", record.command);
  read(object, "argv", record.argv);
  read(object, "env_set", record.env_set);
  read(object, "env_unset", record.env_unset);
  read(object, "working_directory", record.working_directory);
  read_optional(object, "exit_status", record.exit_status);
  read_optional(object, "signal", record.signal);
  read(object, "timed_out", record.timed_out);
  read_optional(object, "interrupted_by", record.interrupted_by);
  read(object, "hung_after_capture", record.hung_after_capture);
  read(object, "escaped_processes", record.escaped_processes);
  read(object, "wall_seconds", record.wall_seconds);
  read(object, "collectors", record.collectors);
  read(object, "metric_notes", record.metrics.notes);
  read(object, "reason", record.reason);
  read(object, "versions", record.versions);
  read(object, "started_at", record.started_at);
  read(object, "notes", record.notes);
  read(object, "verdict_from_gate", record.verdict_from_gate);
  read(object, "ranks_serialized", record.ranks_serialized);

  read_metrics(object, rows, record.metrics);
  read_kernels(object, rows, record.metrics);
  if (const auto checks = object.find("checks"); checks != object.end() && !checks->is_null()) {
    if (!checks->is_array()) wrong_type("checks", "a list", *checks);
    for (const auto& check : *checks) record.checks.push_back(check_from_json(check));
  }
  if (const auto text = object.find("verdict"); text != object.end() && !text->is_null()) {
    if (!text->is_string()) wrong_type("verdict", "a string", *text);
    const auto parsed = parse_verdict(text->get<std::string>());
    if (!parsed) wrong_type("verdict", "one of pass, fail, skip, error", *text);
    record.verdict = *parsed;
  }

  if (const auto ranks = object.find("ranks"); ranks != object.end() && !ranks->is_null()) {
    record.ranks = detail::rank_rows_from_json(*ranks);
  }
  if (const auto cell = object.find("cell"); cell != object.end() && !cell->is_null()) {
    if (!cell->is_object()) wrong_type("cell", "an object", *cell);
    cell_coordinates coordinates;
    read(*cell, "name", coordinates.name);
    read(*cell, "round", coordinates.round);
    read(*cell, "position", coordinates.position);
    read(*cell, "mitigations", coordinates.mitigations);
    read(*cell, "diagnostic", coordinates.diagnostic);
    record.cell = std::move(coordinates);
  }
  if (record.schema_version > trial_record_schema_version) {
    record.notes.push_back(fmt::format(
        "result.json has schema_version {}, newer than the {} this aorta reads; keys it does not "
        "know were ignored (upgrade aorta to read them)",
        record.schema_version, trial_record_schema_version));
  }
  return record;
}

}  // namespace detail

void write_result_json(const std::filesystem::path& path, const trial_record& record) {
  detail::write_file_atomically(
      path, [&](std::ostream& out) { detail::write_result_document(out, record); });
}

}  // namespace aorta
