// rocprofv3's `-f json` output, `<prefix>_results.json`. The fields relied on are listed in
// tests/fixtures/rocprof/README.md.
#include "captures/rocprof_sources.hpp"

#include "aorta/error.hpp"
#include "json_text.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>

namespace aorta::detail {

namespace {

using json = nlohmann::json;

// A kernel symbol's display name: the formatted name (what the CSV writer uses), then the
// demangled, then the raw one.
std::string symbol_name(const json& symbol) {
  for (const char* key : {"formatted_kernel_name", "demangled_kernel_name", "kernel_name"}) {
    const auto it = symbol.find(key);
    if (it != symbol.end() && it->is_string() && !it->get_ref<const std::string&>().empty()) {
      return it->get<std::string>();
    }
  }
  return {};
}

std::optional<std::uint64_t> as_u64(const json& value) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  if (value.is_number_integer() && value.get<std::int64_t>() >= 0) {
    return static_cast<std::uint64_t>(value.get<std::int64_t>());
  }
  if (value.is_string()) return parse_u64(value.get_ref<const std::string&>());
  return std::nullopt;
}

bool timestamp(const json& record, const char* key, std::uint64_t& out) {
  const auto it = record.find(key);
  if (it == record.end()) return false;
  const std::optional<std::uint64_t> value = as_u64(*it);
  if (!value) return false;
  out = *value;
  return true;
}

// kernel_id -> name. rocprofv3 writes kernel_symbols as an array of objects that carry their
// kernel_id; an object keyed by the id is accepted too.
std::map<std::uint64_t, std::string> kernel_names(const json& tool) {
  std::map<std::uint64_t, std::string> names;
  const auto symbols = tool.find("kernel_symbols");
  if (symbols == tool.end()) return names;
  if (symbols->is_array()) {
    for (const json& symbol : *symbols) {
      if (!symbol.is_object() || !symbol.contains("kernel_id")) continue;
      if (const auto id = as_u64(symbol["kernel_id"])) names[*id] = symbol_name(symbol);
    }
  } else if (symbols->is_object()) {
    for (const auto& [key, symbol] : symbols->items()) {
      if (!symbol.is_object()) continue;
      std::optional<std::uint64_t> id =
          symbol.contains("kernel_id") ? as_u64(symbol["kernel_id"]) : parse_u64(key);
      if (id) names[*id] = symbol_name(symbol);
    }
  }
  return names;
}

}  // namespace

bool read_rocprof_results_json(const std::filesystem::path& file, kernel_table& table,
                               std::vector<std::string>& notes) {
  json root;
  try {
    root = read_json_file(file, max_rocprof_json_bytes);
  } catch (const json_input_error& e) {
    // Depth and range failures have no single byte; a cut-off file does.
    throw capture_error(fmt::format(
        "{} is not valid JSON{}: {}; if the profiler was killed while "
        "writing it, re-run it",
        file.string(), e.byte() > 0 ? fmt::format(" (byte {})", e.byte()) : "", e.what()));
  } catch (const input_error& e) {
    throw capture_error(e.what());
  }
  const auto tool_it = root.is_object() ? root.find("rocprofiler-sdk-tool") : root.end();
  if (!root.is_object() || tool_it == root.end()) {
    notes.push_back(fmt::format("{}: no \"rocprofiler-sdk-tool\" key; not rocprofv3 JSON, no data",
                                file.string()));
    return false;
  }
  // One element per profiled process.
  const json tools = tool_it->is_array() ? *tool_it : json::array({*tool_it});
  std::size_t dispatches = 0;
  std::size_t unnamed = 0;
  std::size_t bad_times = 0;
  bool any = false;
  for (const json& tool : tools) {
    if (!tool.is_object()) continue;
    const std::map<std::uint64_t, std::string> names = kernel_names(tool);
    const json* records = nullptr;
    if (const auto buffer = tool.find("buffer_records");
        buffer != tool.end() && buffer->is_object() && buffer->contains("kernel_dispatch")) {
      records = &(*buffer)["kernel_dispatch"];
    }
    if (records == nullptr || !records->is_array()) continue;
    for (const json& record : *records) {
      ++dispatches;
      if (!record.is_object()) {
        ++bad_times;
        continue;
      }
      const auto info = record.find("dispatch_info");
      std::optional<std::uint64_t> id;
      if (info != record.end() && info->is_object() && info->contains("kernel_id")) {
        id = as_u64((*info)["kernel_id"]);
      }
      const auto name = id ? names.find(*id) : names.end();
      if (name == names.end() || name->second.empty()) {
        ++unnamed;
        continue;
      }
      // Plain integers, not optionals: GCC 12 at -O2 misreads optionals here (maybe-uninitialized).
      std::uint64_t t0 = 0;
      std::uint64_t t1 = 0;
      // As in the CSV readers and rocpd: dropped, the kernel vanished and count(k) == 0 passed.
      if (!timestamp(record, "start_timestamp", t0) || !timestamp(record, "end_timestamp", t1) ||
          t1 < t0) {
        throw capture_error(fmt::format(
            "{}: kernel_dispatch record {}: kernel '{}': start_timestamp/end_timestamp missing, "
            "not a whole number of ns, or the end before the start (a negative duration); "
            "rocprofv3 writes no such dispatch, so the file is damaged or hostile. Fix: re-run "
            "the capture",
            file.string(), dispatches - 1, name->second));
      }
      table.add(name->second, static_cast<double>(t1 - t0), 1);
      any = true;
    }
  }
  if (dispatches == 0) {
    notes.push_back(
        fmt::format("{}: no buffer_records.kernel_dispatch records, no data", file.string()));
  }
  if (unnamed > 0) {
    notes.push_back(fmt::format("{}: {} of {} dispatches dropped: kernel_id not in kernel_symbols",
                                file.string(), unnamed, dispatches));
  }
  if (bad_times > 0) {
    notes.push_back(fmt::format("{}: {} of {} dispatches dropped: not an object", file.string(),
                                bad_times, dispatches));
  }
  return any;
}

}  // namespace aorta::detail
