#include "aorta/report.hpp"

#include "aorta/error.hpp"
#include "aorta/schema.hpp"
#include "atomic_file.hpp"
#include "json_text.hpp"
#include "metrics/ctest_measurement.hpp"
#include "metrics/number_format.hpp"
#include "record/result_reader.hpp"
#include "report/metric_measurements.hpp"
#include "report/report_gate_verdicts.hpp"
#include "report/report_flame_graphs.hpp"
#include "report/report_model.hpp"
#include "report/report_sweep_matrix.hpp"
#include "report/report_trends.hpp"
#include "utc_timestamp.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>
#include <unordered_map>

namespace aorta {
namespace fs = std::filesystem;

namespace {

// n of "trial_<n>", or nullopt for any other name.
std::optional<int> trial_number(const std::string& directory_name) {
  constexpr std::string_view prefix = "trial_";
  if (!directory_name.starts_with(prefix) || directory_name.size() == prefix.size()) return {};
  int number = 0;
  const char* first = directory_name.data() + prefix.size();
  const char* last = directory_name.data() + directory_name.size();
  const auto [end, error] = std::from_chars(first, last, number);
  if (error != std::errc{} || end != last) return {};
  return number;
}

std::string relative_text(const fs::path& path, const fs::path& base) {
  const fs::path relative = path.lexically_relative(base);
  return relative.empty() ? std::string(".") : relative.generic_string();
}

trial_record read_trial(const fs::path& path) {
  trial_record record;
  try {
    // Read as read_json_file reads, without a DOM of the metrics and kernel rows.
    const std::string text =
        detail::read_input_file(path, detail::max_json_file_bytes, "max_json_file_bytes");
    record = detail::trial_record_from_text(text);
  } catch (const detail::json_input_error& failure) {
    throw error(exit_code::failed, fmt::format("not valid JSON: {}", failure.what()));
  } catch (const detail::input_error& failure) {
    throw error(exit_code::failed, failure.what());
  }
  // A verdict means what its schema says it means: one this aorta does not know is not counted.
  if (record.schema_version < 1 || record.schema_version > schemas::result.version) {
    throw error(exit_code::failed,
                fmt::format("schema_version {} is not one this aorta reads (1 to {}), so its "
                            "verdict is not counted; upgrade aorta to report it",
                            record.schema_version, schemas::result.version));
  }
  return record;
}

void summarise(detail::cell_report& cell) {
  std::sort(cell.trials.begin(), cell.trials.end(), [](const auto& a, const auto& b) {
    return a.index != b.index ? a.index < b.index : a.result_path < b.result_path;
  });
  // Running statistics, not a list of samples per metric (for 200,000 metrics the lists were
  // 31 MB beside the summary).
  for (const auto& trial : cell.trials) {
    switch (trial.record.verdict_from_gate ? verdict::pass : trial.record.verdict) {
    case verdict::pass: ++cell.passed; break;
    case verdict::fail: ++cell.failed; break;
    case verdict::skip: ++cell.skipped; break;
    case verdict::error: ++cell.errored; break;
    }
    cell.metrics_summary.add(trial.record.metrics.values);
  }
  cell.metrics_summary.finish();
  if (!cell.trials.empty()) detail::digest_cell(cell);
  cell.verdict_from_gate = !cell.trials.empty() && cell.last().verdict_from_gate;
  const std::size_t ran = cell.trials.size() - cell.skipped;
  cell.failure_rate =
      ran == 0 ? 0.0 : static_cast<double>(cell.failed + cell.errored) / static_cast<double>(ran);
}

// "2026-11-30T00:58:12Z", the shape utc_timestamp() writes: the only marker whose comparison with
// a result's started_at means "older than this run".
bool is_utc_timestamp(const std::string& text) {
  constexpr std::string_view shape = "dddd-dd-ddTdd:dd:ddZ";
  if (text.size() != shape.size()) return false;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const bool digit = text[i] >= '0' && text[i] <= '9';
    if (shape[i] == 'd' ? !digit : text[i] != shape[i]) return false;
  }
  return true;
}

// A marker that is not a timestamp, or lies in the future, would mark every result stale and hide
// the whole run: refused, naming the file and the fix.
std::string read_run_marker(const fs::path& results_dir, const std::string& now) {
  const fs::path file = results_dir / run_marker_name;
  std::error_code ignored;
  if (!fs::exists(fs::symlink_status(file, ignored))) return {};
  std::string started;
  try {
    // A timestamp line is 21 bytes; a FIFO planted here would otherwise hang the report.
    started = detail::read_input_file(file, 4096, "a run marker's size");
  } catch (const detail::input_error& failure) {
    throw error(exit_code::failed,
                fmt::format("report: {}. Fix: run `aorta report --begin-run {}` again, or delete "
                            "the file",
                            failure.what(), results_dir.string()));
  }
  started = started.substr(0, started.find('\n'));
  if (!is_utc_timestamp(started) || started > now) {
    throw error(exit_code::failed,
                fmt::format("report: {} holds '{}', not the start of a run (a UTC time such as "
                            "{}, not later than now, as `aorta report --begin-run` writes); it "
                            "would leave every result out as stale. Fix: run `aorta report "
                            "--begin-run {}` again, or delete the file",
                            file.string(), started.substr(0, 80), now, results_dir.string()));
  }
  return started;
}

// `paths` in fs::path's order, compared as one string each: path::compare splits both paths into
// components per comparison, which for 30,000 results was a tenth of the report. The walk's paths
// share their start and join their names with single separators, so mapping the separator below
// every byte a name can hold orders them as component-by-component comparison does ("a/b" before
// "a-b"); no name holds that byte, so mapping it back after the sort is exact.
void sort_as_paths(std::vector<std::string>& paths) {
  constexpr char separator = fs::path::preferred_separator;
  for (auto& path : paths) std::replace(path.begin(), path.end(), separator, '\0');
  std::sort(paths.begin(), paths.end());
  for (auto& path : paths) std::replace(path.begin(), path.end(), '\0', separator);
}

// Every regular result.json under `results_dir`, sorted; a walk that stopped early is noted. As
// strings: an fs::path keeps a list of its components, 250 bytes a path beside the text.
std::vector<std::string> result_files(const fs::path& results_dir, detail::report_model& model) {
  std::error_code walk_error;
  fs::recursive_directory_iterator walker(
      results_dir, fs::directory_options::skip_permission_denied, walk_error);
  if (walk_error) {
    throw setup_error(
        fmt::format("cannot read {}: {}", results_dir.string(), walk_error.message()));
  }
  std::vector<std::string> found;
  for (; walker != fs::recursive_directory_iterator(); walker.increment(walk_error)) {
    if (walk_error) break;
    if (walker->path().filename() == "result.json" && walker->is_regular_file()) {
      found.push_back(walker->path().native());
    }
  }
  if (walk_error) {
    model.skipped_files.push_back(fmt::format("{}: the directory walk stopped early: {}",
                                              results_dir.string(), walk_error.message()));
  }
  sort_as_paths(found);
  return found;
}

detail::report_model collect(const fs::path& results_dir) {
  detail::report_model model;
  model.generated_at = detail::utc_timestamp();
  model.run_started_at = read_run_marker(results_dir, model.generated_at);
  model.sweep_matrix = detail::read_sweep_matrix(results_dir);
  // The cells in a vector, found by a hash of their names and sorted once at the end, not a
  // std::map: a node and a path of string comparisons per result made 30,000 cells super-linear.
  std::vector<detail::cell_report> cells;
  std::unordered_map<std::string, std::size_t> cell_of;
  // The list lives only for the loop: 30,000 paths are 2 MB the report no longer needs.
  std::vector<std::string> files = result_files(results_dir, model);
  // At most a cell per file: growing the vector moved every cell and briefly held it twice
  // (11 MB for 30,000 cells); capacity never touched is not memory used.
  cells.reserve(files.size());
  cell_of.reserve(files.size());
  detail::report_gate_verdicts gate_verdicts;
  for (const auto& path_text : files) {
    const fs::path path(path_text);
    const std::string shown = relative_text(path, results_dir);
    const fs::path trial_dir = path.parent_path();
    const auto number = trial_number(trial_dir.filename().string());
    const fs::path cell_dir = number ? trial_dir.parent_path() : trial_dir;
    trial_record record;
    try {
      record = read_trial(path);
      gate_verdicts.lay_over_trial(cell_dir, record);
    } catch (const error& failure) {
      model.skipped_files.push_back(fmt::format("{}: {}", shown, failure.what()));
      continue;
    }
    // Same-format UTC timestamps compare as text.
    if (!model.run_started_at.empty() && record.started_at < model.run_started_at) {
      model.stale.push_back({shown, record.started_at, record.verdict});
      continue;
    }
    detail::trial_entry entry;
    entry.result_path = shown;
    entry.index = number ? *number : record.trial_index;
    entry.record = detail::kept_for_report(std::move(record));
    const std::string cell_name = relative_text(cell_dir, results_dir);
    const auto [where, fresh] = cell_of.try_emplace(cell_name, cells.size());
    if (fresh) cells.emplace_back().name = cell_name;
    cells[where->second].trials.push_back(std::move(entry));
    ++model.trial_count;
  }
  cell_of = {};  // its names are not needed past here
  files = {};
  // By name, in std::string's order: the order of the cells in perf.md, report.json and the HTML.
  std::sort(cells.begin(), cells.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  for (auto& cell : cells) summarise(cell);
  model.cells = std::move(cells);
  return model;
}

}  // namespace

namespace detail {

std::vector<reporting::measurement> metric_measurements(const metric_set& metrics) {
  std::vector<reporting::measurement> out;
  for (const auto& [name, value] : metrics.values) {
    std::string number;
    if (const auto* integer = std::get_if<std::int64_t>(&value)) {
      number = std::to_string(*integer);
    } else if (const auto* real = std::get_if<double>(&value)) {
      if (!std::isfinite(*real)) continue;
      number = detail::exact_number(*real);
    } else {
      continue;
    }
    out.push_back({name, std::move(number)});
  }
  return out;
}

}  // namespace detail

std::string ctest_measurements(const metric_set& metrics) {
  std::string out;
  for (const auto& each : detail::metric_measurements(metrics))
    out += detail::ctest_measurement(each.name, each.value);
  return out;
}

std::string report_summary::to_string() const {
  std::vector<std::string> names;
  for (const auto& file : files) names.push_back(file.filename().string());
  std::string text =
      fmt::format("report: {} trial{} in {} cell{} -> {}", trials, trials == 1 ? "" : "s", cells,
                  cells == 1 ? "" : "s", fmt::join(names, ", "));
  if (!notes.empty()) text += fmt::format(" ({} result.json skipped)", notes.size());
  std::size_t length = text.size();
  for (const auto& line : cell_lines) length += 3 + line.size();
  text.reserve(length);
  for (const auto& line : cell_lines) {
    text += "\n  ";
    text += line;
  }
  if (!kept_from_sweep.empty()) text += "\n  " + kept_from_sweep;
  if (!trends_line.empty()) text += "\n  " + trends_line;
  if (!stale_lines.empty()) {
    text += fmt::format("\n  {} stale result(s) from earlier runs, left out:", stale_lines.size());
    for (const auto& line : stale_lines) text += "\n    " + line;
  }
  return text;
}

std::string begin_report_run(const fs::path& results_dir) {
  std::error_code failure;
  fs::create_directories(results_dir, failure);
  if (failure || !fs::is_directory(results_dir)) {
    throw setup_error(fmt::format("report --begin-run: cannot create {}: {}", results_dir.string(),
                                  failure.message()));
  }
  const std::string started = detail::utc_timestamp();
  detail::write_file_atomically(results_dir / run_marker_name, started + "\n");
  return started;
}

namespace detail {

report_trial kept_for_report(trial_record&& record) {
  report_trial kept;
  kept.metrics = std::move(record.metrics);
  kept.checks = std::move(record.checks);
  kept.ranks = std::move(record.ranks);
  kept.reason = std::move(record.reason);
  kept.started_at = std::move(record.started_at);
  kept.wall_seconds = record.wall_seconds;
  kept.verdict = record.verdict;
  kept.verdict_from_gate = record.verdict_from_gate;
  return kept;
}

std::string trial_counts_text(const cell_report& cell) {
  std::string text = fmt::format("{} pass, {} fail, {} skip, {} error", cell.passed, cell.failed,
                                 cell.skipped, cell.errored);
  if (cell.verdict_from_gate) {
    text += fmt::format("; the regression gate over all {} trial{}: {}", cell.trials.size(),
                        cell.trials.size() == 1 ? "" : "s", to_string(cell.last().verdict));
  }
  return text;
}

}  // namespace detail

report_summary write_aggregate_report(const fs::path& results_dir,
                                      const std::string& history_store) {
  std::error_code ignored;
  if (fs::exists(results_dir, ignored) && !fs::is_directory(results_dir, ignored)) {
    throw usage_error(fmt::format("report: {} is not a directory; pass the --output directory of "
                                  "a sweep run",
                                  results_dir.string()));
  }
  // No test wrote anything (all filtered out, or none registered): an empty report, not a
  // second failure on top of whatever went wrong. Only the results directory itself is made: a
  // missing parent is a mistyped path, and a tree of empty directories would hide it.
  fs::path named = results_dir.lexically_normal();
  if (!named.has_filename()) named = named.parent_path();  // "out/" names out
  const fs::path parent = named.has_parent_path() ? named.parent_path() : fs::path(".");
  if (!fs::exists(results_dir, ignored) && !fs::is_directory(parent, ignored)) {
    throw usage_error(fmt::format(
        "report: {} does not exist, nor does its parent {}; pass the --output directory of a "
        "sweep run (or the OUTPUT_DIR root of the CMake tests, by default <build>/aorta-results)",
        results_dir.string(), parent.string()));
  }
  std::error_code failure;
  fs::create_directory(results_dir, failure);
  if (failure) {
    throw setup_error(
        fmt::format("report: cannot create {}: {}", results_dir.string(), failure.message()));
  }
  detail::report_model model = collect(results_dir);
  model.flames = detail::comparison_flames(results_dir, model);
  if (!history_store.empty()) {
    std::vector<std::string> tests;
    for (const auto& cell : model.cells) tests.push_back(cell.name);
    model.trends = detail::collect_trends(history_store, tests);
  }
  report_summary summary;
  summary.trials = model.trial_count;
  summary.cells = model.cells.size();
  summary.notes = model.skipped_files;
  if (model.sweep_matrix) summary.kept_from_sweep = detail::kept_sweep_line(*model.sweep_matrix);
  if (model.trends) summary.trends_line = model.trends->summary_line();
  for (const auto& old : model.stale) {
    summary.stale_lines.push_back(fmt::format("{} ({}, {}; run started {})", old.result_path,
                                              to_string(old.outcome), old.started_at,
                                              model.run_started_at));
  }
  for (const auto& cell : model.cells) {
    std::string line = fmt::format("{}: {}", cell.name, detail::trial_counts_text(cell));
    const detail::report_trial& last = cell.last();
    if (last.verdict != verdict::pass && !last.reason.empty()) {
      // The first line of the reason: enough to say why in a summary.
      line += fmt::format(" -- {}: {}", to_string(last.verdict),
                          last.reason.substr(0, last.reason.find('\n')));
    }
    summary.cell_lines.push_back(std::move(line));
  }
  // One file at a time, each streamed into place as it is rendered: the three texts held whole
  // were most of the report's memory.
  const std::pair<const char*, std::function<void(std::ostream&)>> outputs[] = {
      {"perf.md", [&model](std::ostream& out) { detail::write_perf_markdown(out, model); }},
      {"report.json", [&model](std::ostream& out) { detail::write_report_json(out, model); }},
      {"report.html", [&model](std::ostream& out) { detail::write_html_report(out, model); }},
  };
  for (const auto& [name, write] : outputs) {
    const fs::path path = results_dir / name;
    detail::write_file_atomically(path, write);
    summary.files.push_back(path);
  }
  return summary;
}

}  // namespace aorta
