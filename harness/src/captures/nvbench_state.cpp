#include "captures/nvbench_state.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <string_view>

namespace aorta::detail {
namespace {

using json = nlohmann::json;

// The summaries aorta names itself; the times nvbench writes in seconds become ns. The cold GPU
// mean is the row's time, so it is not among them.
struct known_summary {
  std::string_view tag;
  std::string_view metric;  // empty: not kept
  double scale;
};
constexpr std::array<known_summary, 11> known_summaries{{
    {"nv/cold/time/cpu/mean", "cpu_time_ns", 1e9},
    {"nv/cold/time/gpu/stdev/relative", "gpu_noise", 1.0},
    {"nv/cold/time/cpu/stdev/relative", "cpu_noise", 1.0},
    {"nv/cold/sample_size", "samples", 1.0},
    {"nv/batch/time/gpu/mean", "batch_gpu_time_ns", 1e9},
    {"nv/batch/sample_size", "batch_samples", 1.0},
    {"nv/cold/bw/global/bytes_per_second", "bytes_per_second", 1.0},
    {"nv/cold/bw/global/utilization", "bw_utilization", 1.0},
    {"nv/cold/bw/item_rate", "items_per_second", 1.0},
    // How long nvbench spent measuring: a property of its stopping rule, not of the code.
    {"nv/cold/walltime", "", 1.0},
    {"nv/batch/walltime", "", 1.0},
}};
constexpr std::string_view cold_gpu_mean = "nv/cold/time/gpu/mean";

struct state_context {
  const nvbench_state_place& place;
  std::string label;  // how messages name the state before its name is known
};

[[noreturn]] void fail_nvbench_state(const state_context& at, const std::string& message) {
  throw capture_error(fmt::format("{}: {}: {}", at.place.file.string(), at.label, message));
}

const std::string& required_string(const json& object, std::string_view key,
                                   const state_context& at, std::string_view where) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_string()) {
    fail_nvbench_state(
        at, fmt::format("{}\"{}\" is missing or not a string; nvbench writes one, so this file "
                        "is damaged or not nvbench's",
                        where, key));
  }
  return found->get_ref<const std::string&>();
}

std::string series_name(const json& state, const state_context& at) {
  std::string name = at.place.benchmark;
  if (at.place.name_device) {
    const auto device = nvbench_state_device(state);
    name += device ? fmt::format("/Device:{}", *device) : std::string("/Device:?");
  }
  const auto values = state.find("axis_values");
  if (values == state.end() || values->is_null()) return name;
  if (!values->is_array()) fail_nvbench_state(at, "\"axis_values\" is neither an array nor null");
  for (const auto& value : *values) {
    if (!value.is_object()) fail_nvbench_state(at, "an entry of \"axis_values\" is not an object");
    name += "/" + required_string(value, "name", at, "axis_values[]: ") + ":" +
            required_string(value, "value", at, "axis_values[]: ");
  }
  return name;
}

// A summary's "value" entry as a number of the type it declares (nvbench writes numbers as
// strings so that int64 survives JSON readers that hold doubles).
double parse_number(const std::string& type, const std::string& text, const std::string& tag,
                    const state_context& at) {
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (type == "int64") {
    long long value = 0;
    const auto [stop, error] = std::from_chars(begin, end, value);
    if (!text.empty() && error == std::errc{} && stop == end) return static_cast<double>(value);
  } else {
    double value = 0.0;
    const auto [stop, error] = std::from_chars(begin, end, value);
    if (!text.empty() && error == std::errc{} && stop == end && std::isfinite(value)) return value;
  }
  fail_nvbench_state(
      at, fmt::format("summary '{}': \"value\" is '{}', not a finite {}", tag, text, type));
}

// The sample file's declared sample count, read as the int64 it is: a detour through double
// rounds 2^63 - 1 up to 2^63, which no int64 holds (found by the nvbench_jsonbin fuzz target).
std::int64_t parse_sample_count(const std::string& text, const state_context& at) {
  std::int64_t count = 0;
  const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), count);
  if (text.empty() || error != std::errc{} || stop != text.data() + text.size()) {
    fail_nvbench_state(at, fmt::format("summary '{}': \"size\" is '{}', not a whole number of "
                                       "samples (int64)",
                                       nvbench_sample_times_tag, text));
  }
  return count;
}

// The summary naming the sample-times file. nvbench leaves out "filename" and "size" when it
// could not write the file; the state then has no samples to judge by, which is an error too.
void read_sample_file_summary(const json& data, nvbench_state& out, const state_context& at) {
  nvbench_sample_file file;
  bool named = false;
  bool sized = false;
  for (const auto& entry : data) {
    if (!entry.is_object()) continue;
    const auto name = entry.find("name");
    const auto value = entry.find("value");
    if (name == entry.end() || value == entry.end() || !value->is_string()) continue;
    if (*name == "filename") {
      file.filename = value->get<std::string>();
      named = true;
    } else if (*name == "size") {
      file.size = parse_sample_count(value->get_ref<const std::string&>(), at);
      sized = true;
    }
  }
  if (!named || !sized) {
    fail_nvbench_state(
        at, fmt::format("summary '{}' has no \"filename\" and \"size\": nvbench could not write "
                        "the sample file. Fix: re-run the benchmark with --jsonbin where it can "
                        "write next to the JSON file",
                        nvbench_sample_times_tag));
  }
  out.sample_file = std::move(file);
}

void read_summary(const json& summary, nvbench_state& out, const state_context& at) {
  if (!summary.is_object()) fail_nvbench_state(at, "an entry of \"summaries\" is not an object");
  const std::string& tag = required_string(summary, "tag", at, "summaries[]: ");
  const auto data = summary.find("data");
  if (data == summary.end() || !data->is_array()) {
    fail_nvbench_state(at, fmt::format("summary '{}': \"data\" is missing or not an array", tag));
  }
  if (tag == nvbench_sample_times_tag) {
    read_sample_file_summary(*data, out, at);
    return;
  }
  for (const auto& entry : *data) {
    if (!entry.is_object())
      fail_nvbench_state(at, fmt::format("summary '{}': a data entry is not an object", tag));
    if (required_string(entry, "name", at, "summaries[].data[]: ") != "value") continue;
    const std::string& type = required_string(entry, "type", at, "summaries[].data[]: ");
    const std::string& text = required_string(entry, "value", at, "summaries[].data[]: ");
    if (type == "string") {
      out.labels.emplace_back(tag, text);
      return;
    }
    if (type != "int64" && type != "float64") {
      fail_nvbench_state(
          at, fmt::format("summary '{}': data type '{}'; known: int64, float64, string (a newer "
                          "nvbench? report it with the file)",
                          tag, type));
    }
    const double value = parse_number(type, text, tag, at);
    if (tag == cold_gpu_mean) {
      if (value < 0.0)
        fail_nvbench_state(at, fmt::format("summary '{}' is negative ({})", tag, text));
      out.gpu_ns = value * 1e9;
      return;
    }
    for (const auto& known : known_summaries) {
      if (known.tag != tag) continue;
      if (value < 0.0)
        fail_nvbench_state(at, fmt::format("summary '{}' is negative ({})", tag, text));
      if (!known.metric.empty()) out.metrics.emplace_back(known.metric, value * known.scale);
      return;
    }
    out.metrics.emplace_back(tag, value);
    return;
  }
}

}  // namespace

std::optional<long long> nvbench_state_device(const json& state) {
  const auto device = state.is_object() ? state.find("device") : state.end();
  if (device == state.end() || !device->is_number_integer()) return std::nullopt;
  return device->get<long long>();
}

nvbench_state read_nvbench_state(const json& state, const nvbench_state_place& place) {
  state_context at{place, fmt::format("benchmark '{}': states[{}]", place.benchmark,
                                      place.state_index)};
  if (!state.is_object())
    fail_nvbench_state(at, fmt::format("is {}, not an object", state.type_name()));
  nvbench_state out;
  out.name = series_name(state, at);
  at.label = fmt::format("benchmark state '{}'", out.name);
  const auto skipped = state.find("is_skipped");
  if (skipped == state.end() || !skipped->is_boolean()) {
    fail_nvbench_state(
        at, "\"is_skipped\" is missing or not true/false; nvbench writes it for every state");
  }
  if (skipped->get<bool>()) {
    const auto reason = state.find("skip_reason");
    out.reason = reason != state.end() && reason->is_string() ? reason->get<std::string>()
                                                              : "(no skip_reason)";
    out.type = out.reason.starts_with(nvbench_error_prefix) ? nvbench_state::kind::failed
                                                            : nvbench_state::kind::skipped;
    return out;
  }
  const auto summaries = state.find("summaries");
  if (summaries == state.end() || summaries->is_null()) return out;
  if (!summaries->is_array()) fail_nvbench_state(at, "\"summaries\" is neither an array nor null");
  for (const auto& summary : *summaries) read_summary(summary, out, at);
  if (out.gpu_ns && !std::isfinite(*out.gpu_ns)) {
    fail_nvbench_state(at,
                       fmt::format("summary '{}' overflows when converted to ns", cold_gpu_mean));
  }
  for (const auto& [key, value] : out.metrics) {
    if (!std::isfinite(value))
      fail_nvbench_state(at, fmt::format("'{}' overflows when converted", key));
  }
  return out;
}

}  // namespace aorta::detail
