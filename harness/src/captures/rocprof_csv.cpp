// rocprofv3's kernel_stats, kernel_trace and agent_info CSV files (formats.md §1.4; reference
// §3.5 for which rows count).
#include "aorta/error.hpp"
#include "captures/csv_scanner.hpp"
#include "captures/rocprof_sources.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>

namespace aorta::detail {

namespace {

bool is_blank(std::string_view field) {
  return field.find_first_not_of(" \t") == std::string_view::npos;
}

bool is_blank_row(const std::vector<std::string_view>& fields) {
  return fields.size() == 1 && is_blank(fields[0]);
}

// Reads the header row; nullopt (with a note) when the file has none.
std::optional<csv_header> read_header(csv_scanner& scanner, std::vector<std::string_view>& fields,
                                      std::vector<std::string>& notes) {
  while (scanner.next_row(fields)) {
    if (!is_blank_row(fields)) return csv_header(fields);
  }
  notes.push_back(fmt::format("{}: empty file, no data", scanner.path().string()));
  return std::nullopt;
}

// The positions of `names` in `header`, or nullopt with a note naming every missing column.
template <std::size_t N>
std::optional<std::array<std::size_t, N>>
find_columns(const csv_header& header, const std::array<std::string_view, N>& names,
             const std::filesystem::path& file, std::vector<std::string>& notes) {
  std::array<std::size_t, N> columns{};
  std::vector<std::string_view> missing;
  for (std::size_t i = 0; i < N; ++i) {
    columns[i] = header.find(names[i]);
    if (columns[i] == csv_header::npos) missing.push_back(names[i]);
  }
  if (missing.empty()) return columns;
  notes.push_back(fmt::format("{}: header lacks column(s) {}; no data read from it", file.string(),
                              fmt::join(missing, ", ")));
  return std::nullopt;
}

// What a reader skipped, as counts, turned into notes at the end of a file.
struct skip_counts {
  std::size_t rows = 0;
  std::vector<std::pair<std::string, std::size_t>> reasons;

  void count(std::string_view reason, std::size_t times = 1) {
    for (auto& [text, n] : reasons) {
      if (text == reason) {
        n += times;
        return;
      }
    }
    reasons.emplace_back(std::string(reason), times);
  }
  // What a later part of the same file skipped.
  void absorb(const skip_counts& later) {
    rows += later.rows;
    for (const auto& [text, n] : later.reasons) count(text, n);
  }
  void flush(const std::filesystem::path& file, std::vector<std::string>& notes) const {
    for (const auto& [text, n] : reasons) {
      notes.push_back(fmt::format("{}: {} of {} rows {}", file.string(), n, rows, text));
    }
  }
};

// Calls as a launch count: a finite, non-negative whole number ("3.0" is 3); nullopt otherwise.
std::optional<std::uint64_t> parse_calls(std::string_view field) {
  if (auto exact = parse_u64(field)) return exact;
  const std::optional<double> value = parse_double(field);
  if (!value || !std::isfinite(*value) || *value < 0.0 || std::floor(*value) != *value ||
      *value >= 18446744073709551616.0) {
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(*value);
}

// A launch whose duration is negative, NaN, infinite or not a number fails the read, as rocpd's
// does (docs/guards.md): dropped, the kernel vanished and `count(k) == 0` passed.
[[noreturn]] void refuse_duration(const std::filesystem::path& file, std::size_t row,
                                  std::string_view kernel, const std::string& why) {
  throw capture_error(fmt::format("{}: row {}: kernel '{}': {}; rocprofv3 writes no such "
                                  "duration, so the file is damaged or hostile. Fix: re-run the "
                                  "capture",
                                  file.string(), row, kernel, why));
}

}  // namespace

bool read_rocprof_kernel_stats(const std::filesystem::path& file, kernel_table& table,
                               std::vector<std::string>& notes) {
  csv_scanner scanner(file);
  std::vector<std::string_view> fields;
  const std::optional<csv_header> header = read_header(scanner, fields, notes);
  if (!header) return false;
  const auto columns = find_columns<2>(
      *header, std::array<std::string_view, 2>{"Name", "TotalDurationNs"}, file, notes);
  if (!columns) return false;
  const auto [name_col, total_col] = *columns;
  const std::size_t calls_col = header->find("Calls");
  if (calls_col == csv_header::npos) {
    notes.push_back(fmt::format(
        "{}: no Calls column; launch counts are unknown, kernel_count is left out", file.string()));
  }
  const std::size_t needed =
      std::max({name_col, total_col, calls_col == csv_header::npos ? 0 : calls_col}) + 1;
  skip_counts skipped;
  bool any = false;
  while (scanner.next_row(fields)) {
    if (is_blank_row(fields)) continue;
    ++skipped.rows;
    if (fields.size() < needed || (scanner.row_unterminated() && fields.size() < header->size())) {
      skipped.count("dropped: cut short (truncated file?)");
      continue;
    }
    const std::string_view name = fields[name_col];
    if (name.empty()) {
      skipped.count("dropped: empty Name");
      continue;
    }
    const std::optional<double> ns = parse_double(fields[total_col]);
    if (!ns || !std::isfinite(*ns) || *ns < 0.0) {
      refuse_duration(file, scanner.row_number(), name,
                      fmt::format("TotalDurationNs '{}' is not a finite non-negative number",
                                  fields[total_col]));
    }
    std::optional<std::uint64_t> calls;
    if (calls_col != csv_header::npos) {
      calls = parse_calls(fields[calls_col]);
      if (!calls) {
        skipped.count("kept with an unknown launch count: Calls missing, not finite, negative or "
                      "fractional (kernel_count is left out)");
      }
    }
    table.add(name, *ns, calls);
    any = true;
  }
  if (skipped.rows == 0) notes.push_back(fmt::format("{}: header only, no data", file.string()));
  skipped.flush(file, notes);
  return any;
}

namespace {

struct trace_columns {
  std::size_t name = 0;
  std::size_t start = 0;
  std::size_t end = 0;
  std::size_t kind = csv_header::npos;
  std::size_t needed = 0;       // fields a row must have
  std::size_t header_size = 0;  // fields of the header
  csv_columns wanted;
};

// What the rows of a kernel trace, or of one part of it, add up to.
struct trace_rows {
  kernel_table table;
  skip_counts skipped;
  bool any = false;
};

void read_trace_rows(csv_scanner& scanner, const trace_columns& columns, kernel_table& table,
                     skip_counts& skipped, bool& any) {
  std::vector<std::string_view> fields;
  while (scanner.next_row(fields, columns.wanted)) {
    if (scanner.field_count() == 1 && is_blank(fields[0])) continue;
    ++skipped.rows;
    if (scanner.field_count() < columns.needed ||
        (scanner.row_unterminated() && scanner.field_count() < columns.header_size)) {
      skipped.count("dropped: cut short (truncated file?)");
      continue;
    }
    if (columns.kind != csv_header::npos && !fields[columns.kind].empty() &&
        fields[columns.kind] != "KERNEL_DISPATCH") {
      skipped.count("skipped: Kind is not KERNEL_DISPATCH");
      continue;
    }
    const std::string_view name = fields[columns.name];
    if (name.empty()) {
      skipped.count("dropped: empty Kernel_Name");
      continue;
    }
    const std::optional<std::uint64_t> start = parse_u64(fields[columns.start]);
    const std::optional<std::uint64_t> end = parse_u64(fields[columns.end]);
    if (!start || !end) {
      refuse_duration(scanner.path(), scanner.row_number(), name,
                      fmt::format("Start_Timestamp '{}' or End_Timestamp '{}' is not a whole "
                                  "number of ns",
                                  fields[columns.start], fields[columns.end]));
    }
    if (*end < *start) {
      refuse_duration(scanner.path(), scanner.row_number(), name,
                      fmt::format("End_Timestamp {} is before Start_Timestamp {} (a negative "
                                  "duration)",
                                  *end, *start));
    }
    table.add(name, static_cast<double>(*end - *start), 1);
    any = true;
  }
}

}  // namespace

bool read_rocprof_kernel_trace(const std::filesystem::path& file, kernel_table& table,
                               std::vector<std::string>& notes) {
  return read_rocprof_kernel_trace(file, table, notes, csv_parts_options::for_this_machine());
}

bool read_rocprof_kernel_trace(const std::filesystem::path& file, kernel_table& table,
                               std::vector<std::string>& notes, const csv_parts_options& parts) {
  csv_scanner scanner(file);
  std::vector<std::string_view> fields;
  const std::optional<csv_header> header = read_header(scanner, fields, notes);
  if (!header) return false;
  const auto found = find_columns<3>(
      *header, std::array<std::string_view, 3>{"Kernel_Name", "Start_Timestamp", "End_Timestamp"},
      file, notes);
  if (!found) return false;
  trace_columns columns;
  columns.name = (*found)[0];
  columns.start = (*found)[1];
  columns.end = (*found)[2];
  columns.kind = header->find("Kind");
  columns.needed = std::max({columns.name, columns.start, columns.end,
                             columns.kind == csv_header::npos ? 0 : columns.kind}) +
                   1;
  columns.header_size = header->size();
  // The columns after the last one read are only counted, so a 22-column trace costs the scan
  // of its four.
  columns.wanted = csv_columns::of({columns.name, columns.start, columns.end, columns.kind});

  skip_counts skipped;
  bool any = false;
  std::vector<trace_rows> part_rows(parts.max_parts);
  const std::size_t read_in_parts = read_csv_in_parts(
      file, scanner.offset(), parts, [&](csv_scanner& part, std::size_t index) {
        trace_rows& into = part_rows[index];
        read_trace_rows(part, columns, into.table, into.skipped, into.any);
      });
  if (read_in_parts > 0) {
    for (std::size_t index = 0; index < read_in_parts; ++index) {
      table.absorb(part_rows[index].table);
      skipped.absorb(part_rows[index].skipped);
      any = any || part_rows[index].any;
    }
  } else {
    part_rows.clear();
    read_trace_rows(scanner, columns, table, skipped, any);
  }
  if (skipped.rows == 0) notes.push_back(fmt::format("{}: header only, no data", file.string()));
  skipped.flush(file, notes);
  return any;
}

std::vector<device_info> read_rocprof_agent_info(const std::filesystem::path& file,
                                                 std::vector<std::string>& notes) {
  csv_scanner scanner(file);
  std::vector<std::string_view> fields;
  std::vector<device_info> devices;
  const std::optional<csv_header> header = read_header(scanner, fields, notes);
  if (!header) return devices;
  const std::size_t type_col = header->find("Agent_Type");
  if (type_col == csv_header::npos) {
    notes.push_back(fmt::format("{}: no Agent_Type column; devices not read", file.string()));
    return devices;
  }
  // Our property name, then rocprofv3's column.
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 8> properties{{
      {"arch", "Name"},
      {"gfx_target_version", "Gfx_Target_Version"},
      {"product_name", "Product_Name"},
      {"model_name", "Model_Name"},
      {"node_id", "Node_Id"},
      {"logical_node_id", "Logical_Node_Id"},
      {"cu_count", "Cu_Count"},
      {"wave_front_size", "Wave_Front_Size"},
  }};
  while (scanner.next_row(fields)) {
    if (type_col >= fields.size() || fields[type_col] != "GPU") continue;
    device_info device;
    device.type = "HIP";
    device.id = std::to_string(devices.size());  // HIP numbers the visible GPUs in this order
    for (const auto& [key, column] : properties) {
      const std::size_t col = header->find(column);
      if (col < fields.size() && !fields[col].empty()) {
        device.properties.emplace(std::string(key), std::string(fields[col]));
      }
    }
    devices.push_back(std::move(device));
  }
  return devices;
}

}  // namespace aorta::detail
