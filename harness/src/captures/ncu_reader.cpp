#include "captures/ncu_reader.hpp"

#include "aorta/error.hpp"
#include "captures/capture_files.hpp"
#include "captures/csv_kernel_table.hpp"
#include "captures/csv_scanner.hpp"
#include "captures/ncu_counters.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <system_error>

namespace aorta {

namespace {

namespace fs = std::filesystem;
using detail::csv_header;

constexpr std::string_view time_metric = "gpu__time_duration.sum";

// ns per unit for the duration units ncu prints (base units with --print-units base, the short
// forms otherwise); nullopt for anything that is not a time.
std::optional<double> ncu_ns_per_unit(std::string_view unit) {
  if (unit == "ns" || unit == "nsecond" || unit == "nanosecond") return 1.0;
  if (unit == "us" || unit == "usecond" || unit == "microsecond") return 1e3;
  if (unit == "ms" || unit == "msecond" || unit == "millisecond") return 1e6;
  if (unit == "s" || unit == "second") return 1e9;
  return std::nullopt;
}

bool is_header_line(std::string_view line) {
  return line.starts_with("\"ID\",") || line.starts_with("ID,");
}

// ncu's own ==ERROR== lines before the CSV (counters it may not read, a replay that failed): such
// a run measured nothing it was asked for, so the trial fails quoting them rather than passing on
// whatever rows were written. A metric the GPU lacks is no such line (ncu 2025.3.1 prints n/a
// and exits 0): ncu_counter_table::finish catches that.
constexpr std::size_t max_quoted_errors = 5;

[[noreturn]] void refuse_ncu_errors(const fs::path& file, const std::vector<std::string>& errors) {
  throw capture_error(fmt::format(
      "{}: ncu reported an error:\n  {}\nFix: act on ncu's message (ERR_NVGPUCTRPERM: allow "
      "this user the GPU's performance counters, NVreg_RestrictProfilingToAdminUsers=0)",
      file.string(), fmt::join(errors, "\n  ")));
}

struct file_result {
  std::size_t rows = 0;
  std::size_t launches = 0;
  std::size_t duplicate_ids = 0;
  std::size_t bad_values = 0;
  std::set<std::string> bad_units;
};

// A launch whose time is negative, NaN, infinite or not a number (n/a) fails the read, as rocpd's
// does (docs/guards.md): dropped with a note, the kernel vanished and `count(k) == 0` passed.
void add_launch(detail::kernel_table& table, file_result& result, std::string_view kernel,
                std::string_view value, std::string_view unit, const detail::csv_scanner& at) {
  const std::optional<double> scale = ncu_ns_per_unit(unit);
  if (!scale) {
    result.bad_units.emplace(unit);
    return;
  }
  if (kernel.empty()) {
    ++result.bad_values;
    return;
  }
  const std::optional<double> v = detail::parse_ncu_number(value);
  if (!v || !std::isfinite(*v) || *v < 0.0 || !std::isfinite(*v * *scale)) {
    throw capture_error(fmt::format("{}: row {}: kernel '{}': {} '{}' is not a finite "
                                    "non-negative time; ncu writes no such value for a launch "
                                    "it timed, so the file is damaged or hostile. Fix: re-run "
                                    "the capture",
                                    at.path().string(), at.row_number(), kernel, time_metric,
                                    value));
  }
  table.add(kernel, *v * *scale, 1);
  ++result.launches;
}

// --page details: one row per (launch, section, metric).
void read_details(detail::csv_scanner& scanner, const csv_header& header,
                  detail::kernel_table& table, detail::ncu_counter_table& counters,
                  file_result& result) {
  const std::size_t id_col = header.find("ID");
  const std::size_t kernel_col = header.find("Kernel Name");
  const std::size_t metric_col = header.find("Metric Name");
  const std::size_t unit_col = header.find("Metric Unit");
  const std::size_t value_col = header.find("Metric Value");
  const std::size_t needed = std::max({id_col, kernel_col, metric_col, value_col,
                                       unit_col == csv_header::npos ? 0 : unit_col}) +
                             1;
  std::set<std::string, std::less<>> seen_ids;
  std::set<std::pair<std::string, std::string>, std::less<>> seen_counters;
  std::vector<std::string_view> fields;
  while (scanner.next_row(fields)) {
    if (fields.size() < needed) continue;
    ++result.rows;
    const std::string_view unit =
        unit_col == csv_header::npos ? std::string_view() : fields[unit_col];
    if (fields[metric_col] != time_metric) {
      if (!seen_counters.emplace(fields[id_col], fields[metric_col]).second) {
        ++result.duplicate_ids;
        continue;
      }
      counters.add(fields[kernel_col], fields[metric_col], unit, fields[value_col],
                   scanner.path(), scanner.row_number());
      continue;
    }
    if (!seen_ids.emplace(fields[id_col]).second) {
      ++result.duplicate_ids;
      continue;
    }
    add_launch(table, result, fields[kernel_col], fields[value_col],
               unit_col == csv_header::npos ? std::string_view("ns") : fields[unit_col], scanner);
  }
}

// --page raw: one row per launch, one column per metric, units in the second row. Kernel times
// only: the page also holds ncu's launch attributes (launch__*, device__attribute_*) as columns
// spelt like metrics, with text and n/a among them, so counters come from the details page.
void read_raw(detail::csv_scanner& scanner, const csv_header& header, detail::kernel_table& table,
              file_result& result) {
  const std::size_t id_col = header.find("ID");
  const std::size_t kernel_col = header.find("Kernel Name");
  const std::size_t time_col = header.find(time_metric);
  const std::size_t needed = std::max({id_col, kernel_col, time_col}) + 1;
  std::vector<std::string_view> fields;
  std::string unit;
  bool units_read = false;
  std::set<std::string, std::less<>> seen_ids;
  while (scanner.next_row(fields)) {
    if (fields.size() < needed) continue;
    if (!units_read && fields[id_col].empty()) {
      unit = fields[time_col];
      units_read = true;
      continue;
    }
    ++result.rows;
    if (!seen_ids.emplace(fields[id_col]).second) {
      ++result.duplicate_ids;
      continue;
    }
    add_launch(table, result, fields[kernel_col], fields[time_col], unit, scanner);
  }
}

void read_ncu_file(const fs::path& file, detail::kernel_table& table,
                   detail::ncu_counter_table& counters, capture& out) {
  detail::csv_scanner scanner(file);
  std::vector<std::string_view> fields;
  std::vector<std::string> errors;
  const bool has_header = scanner.skip_lines_until([&](std::string_view line) {
    // The payload's own exit status is judged by the trial, with its output.
    const bool payload_status = line.starts_with("==ERROR== The application returned");
    if (line.starts_with("==ERROR==") && !payload_status && errors.size() < max_quoted_errors) {
      errors.emplace_back(line.substr(0, 300));
    }
    return is_header_line(line);
  });
  if (!errors.empty()) refuse_ncu_errors(file, errors);
  if (!has_header || !scanner.next_row(fields)) {
    out.notes.push_back(
        fmt::format("{}: no ncu CSV header (a line starting with \"ID\"); was ncu run with --csv?",
                    file.string()));
    return;
  }
  const csv_header header(fields);
  file_result result;
  if (header.find("ID") == csv_header::npos || header.find("Kernel Name") == csv_header::npos) {
    out.notes.push_back(fmt::format("{}: header lacks \"ID\" or \"Kernel Name\"", file.string()));
    return;
  }
  if (header.find("Metric Name") != csv_header::npos &&
      header.find("Metric Value") != csv_header::npos) {
    read_details(scanner, header, table, counters, result);
  } else if (header.find(time_metric) != csv_header::npos) {
    read_raw(scanner, header, table, result);
  } else if (header.find("Metric Name") == csv_header::npos) {
    out.notes.push_back(fmt::format(
        "{}: neither a details page (Metric Name/Metric Value columns) nor a raw page with a {} "
        "column; collect it with --metrics {}",
        file.string(), time_metric, time_metric));
    return;
  }
  if (result.launches > 0) out.files.push_back(file);
  if (result.rows == 0) {
    out.notes.push_back(fmt::format("{}: header only, no data", file.string()));
  } else if (result.launches == 0 && result.bad_values == 0 && result.bad_units.empty()) {
    out.notes.push_back(
        fmt::format("{}: {} rows but no {} metric; collect it (--metrics {}) to get kernel times",
                    file.string(), result.rows, time_metric, time_metric));
  }
  if (result.duplicate_ids > 0) {
    out.notes.push_back(fmt::format("{}: {} repeated {} rows for an ID already seen were ignored",
                                    file.string(), result.duplicate_ids, time_metric));
  }
  if (result.bad_values > 0) {
    out.notes.push_back(fmt::format("{}: {} {} values dropped: no kernel name", file.string(),
                                    result.bad_values, time_metric));
  }
  for (const std::string& unit : result.bad_units) {
    out.notes.push_back(fmt::format("{}: {} in unit '{}' is not a time unit; re-run ncu with "
                                    "--print-units base",
                                    file.string(), time_metric, unit));
  }
}

}  // namespace

capture read_ncu_capture(const fs::path& dir_or_file) {
  capture out;
  out.collector = "ncu";
  auto inputs = detail::find_capture_inputs(
      dir_or_file, [](const std::string& name) { return name.ends_with(".csv"); }, "ncu", "*.csv");
  out.artifact_dir = inputs.artifact_dir;
  out.notes = std::move(inputs.notes);
  const std::vector<fs::path> files = std::move(inputs.files);
  detail::kernel_table table;
  detail::ncu_counter_table counters;
  for (const fs::path& file : files) read_ncu_file(file, table, counters, out);
  out.kernels = table.sorted(out.artifact_dir.string());
  counters.finish(out);
  return out;
}

}  // namespace aorta
