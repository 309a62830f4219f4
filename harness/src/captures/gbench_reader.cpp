#include "captures/gbench_reader.hpp"

#include "aorta/error.hpp"
#include "bounded_input.hpp"
#include "captures/capture_files.hpp"
#include "checked_sum.hpp"
#include "captures/gbench_run.hpp"
#include "captures/warmup_launches.hpp"
#include "json_integer.hpp"
#include "json_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

namespace aorta {
namespace {

using json = nlohmann::json;

// Every measured repetition of one benchmark, across the files read.
struct benchmark_series {
  std::vector<double> real_ns;
  std::vector<double> cpu_ns;
  std::vector<double> iterations;
  std::map<std::string, std::vector<double>> counters;
  std::map<std::string, std::string> labels;
  std::vector<std::string> files;  // the files its repetitions came from, for messages
};

struct gbench_totals {
  std::vector<std::string> order;  // benchmark names, first seen first
  std::map<std::string, benchmark_series> series;
  std::size_t aggregate_rows = 0;
};

// The median is the series' value: robust to the cold first repetition that the mean is not.
// A midpoint that overflows is a read error naming the files and the benchmark.
double median(const std::vector<double>& values, const benchmark_series& series,
              const std::string& name, std::string_view field) {
  return detail::checked_median(
      values, fmt::format("{}: benchmark '{}'", fmt::join(series.files, ", "), name), field);
}

// The file's bytes through the bounded input layer: regular files only, opened without blocking,
// at most max_json_file_bytes.
std::string read_gbench_file(const std::filesystem::path& file) {
  try {
    return detail::read_input_file(file, detail::max_json_file_bytes, "max_json_file_bytes");
  } catch (const detail::input_error& e) {
    throw capture_error(e.what());
  }
}

json parse_text(const std::string& text, const std::filesystem::path& file) {
  try {
    return detail::parse_json(std::string_view(text));
  } catch (const detail::json_input_error& e) {
    throw capture_error(fmt::format(
        "{} is not valid JSON{}: {}; if the benchmark was killed while writing it, re-run it",
        file.string(), e.byte() > 0 ? fmt::format(" (byte {})", e.byte()) : "", e.what()));
  }
}

// The document's "benchmarks" array, after checking that Google Benchmark wrote it.
const json& benchmarks_of(const json& root, const std::filesystem::path& file) {
  const auto context = root.is_object() ? root.find("context") : root.end();
  const auto benchmarks = root.is_object() ? root.find("benchmarks") : root.end();
  if (context == root.end() || !context->is_object() || benchmarks == root.end() ||
      !benchmarks->is_array()) {
    throw capture_error(fmt::format(
        "{} is not Google Benchmark JSON: it needs a \"context\" object and a \"benchmarks\" "
        "array at the top. Fix: point gbench at the file --benchmark_out wrote, or pick this "
        "file's tool with --collector",
        file.string()));
  }
  // Absent before Google Benchmark 1.8, 1 since: a later number means a layout we do not know.
  const auto version = context->find("json_schema_version");
  if (version != context->end() && detail::json_integer<int>(*version) != 1) {
    throw capture_error(fmt::format(
        "{}: context.json_schema_version is {}; aorta reads Google Benchmark's version 1 (and "
        "files without one). Fix: use an aorta that knows the newer format, or write the file "
        "with Google Benchmark 1.7/1.8/1.9",
        file.string(), version->dump()));
  }
  return *benchmarks;
}

void add_run(detail::gbench_run run, const std::filesystem::path& file, gbench_totals& totals,
             capture& out) {
  using kind = detail::gbench_run::kind;
  if (run.type == kind::aggregate) {
    ++totals.aggregate_rows;
    return;
  }
  if (run.type == kind::failed) {
    out.findings.push_back({.severity = "error",
                            .kind = "benchmark error",
                            .kernel = run.name,
                            .location = file.string(),
                            .detail = run.error_message,
                            .count = 1});
    return;
  }
  if (run.type == kind::skipped) {
    out.notes.push_back(fmt::format("{}: benchmark '{}' skipped itself: {}", file.string(),
                                    run.name, run.error_message));
    return;
  }
  auto [at, added] = totals.series.try_emplace(run.name);
  if (added) totals.order.push_back(run.name);
  benchmark_series& series = at->second;
  if (std::find(series.files.begin(), series.files.end(), file.string()) == series.files.end())
    series.files.push_back(file.string());
  series.real_ns.push_back(run.real_ns);
  series.cpu_ns.push_back(run.cpu_ns);
  series.iterations.push_back(run.iterations);
  for (auto& [key, value] : run.counters) series.counters[key].push_back(value);
  for (auto& [key, text] : run.labels) series.labels.insert_or_assign(key, std::move(text));
}

// Repetitions in file order are launches in time order: drop the warm-up ones (the warm-up rule,
// warmup_launches.hpp) from every per-repetition series before its median is taken.
benchmark_series without_warmup(const std::string& name, benchmark_series series, capture& out) {
  const std::size_t warmup = detail::warmup_launches(series.real_ns);
  if (warmup == 0) return series;
  out.notes.push_back(fmt::format(
      "gbench: benchmark '{}': the first {} of its {} repetitions are warm-up (slower than {}x "
      "the median of the second half) and left out of its medians",
      name, warmup, series.real_ns.size(), detail::warmup_steady_factor));
  const auto drop = [&](std::vector<double>& values) {
    if (values.size() == series.real_ns.size())
      values.erase(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(warmup));
  };
  for (auto& [key, values] : series.counters) drop(values);
  drop(series.cpu_ns);
  drop(series.iterations);
  drop(series.real_ns);
  return series;
}

void put_series(const std::string& name, const benchmark_series& all, capture& out) {
  const benchmark_series series = without_warmup(name, all, out);
  out.kernels.push_back({.name = name,
                         .launches = all.real_ns.size(),
                         .total_ns = median(series.real_ns, series, name, "real_time")});
  out.numeric_metrics.push_back(
      {name + ".cpu_time_ns", median(series.cpu_ns, series, name, "cpu_time")});
  out.numeric_metrics.push_back(
      {name + ".iterations", median(series.iterations, series, name, "iterations")});
  for (const auto& [key, values] : series.counters) {
    out.numeric_metrics.push_back({name + "." + key, median(values, series, name, key)});
    if (values.size() != series.real_ns.size()) {
      out.notes.push_back(fmt::format("benchmark '{}': counter '{}' is in {} of its {} runs", name,
                                      key, all.counters.at(key).size(), all.real_ns.size()));
    }
  }
  for (const auto& [key, text] : series.labels) {
    if (out.text_metrics.size() >= text_metric_max_count) break;
    out.text_metrics.push_back(
        {.path = {name}, .key = key, .text = text.substr(0, text_metric_max_bytes)});
  }
}

}  // namespace

capture read_gbench_capture(const std::filesystem::path& dir_or_file) {
  const auto inputs = detail::find_capture_inputs(
      dir_or_file, [](const std::string& name) { return name.ends_with(".json"); }, "gbench",
      "Google Benchmark JSON files (*.json)");
  capture out;
  out.collector = "gbench";
  out.artifact_dir = inputs.artifact_dir;
  out.notes = inputs.notes;
  if (inputs.files.empty()) return out;
  gbench_totals totals;
  for (const auto& file : inputs.files) {
    // Google Benchmark 1.7 leaves --benchmark_out empty, and exits 0, when --benchmark_filter
    // matches no benchmark: an empty capture with the likely cause, not a JSON syntax error.
    const std::string text = read_gbench_file(file);
    if (text.empty()) {
      out.notes.push_back(fmt::format(
          "gbench: {} is empty: Google Benchmark writes nothing (and exits 0) when "
          "--benchmark_filter matches no benchmark. Fix: check the filter against the names "
          "--benchmark_list_tests prints",
          file.string()));
      continue;
    }
    const json root = parse_text(text, file);
    const json& benchmarks = benchmarks_of(root, file);
    for (std::size_t index = 0; index < benchmarks.size(); ++index) {
      add_run(detail::read_gbench_run(benchmarks[index], file, index), file, totals, out);
    }
    out.files.push_back(file);
  }
  for (const auto& name : totals.order) put_series(name, totals.series.at(name), out);
  std::stable_sort(
      out.kernels.begin(), out.kernels.end(),
      [](const kernel_stat& a, const kernel_stat& b) { return a.total_ns > b.total_ns; });
  // No run at all (a --benchmark_filter that matched nothing) stays an empty capture, which
  // fails unless the recipe allows it, instead of reading as "0 errors".
  if (!out.kernels.empty() || !out.findings.empty()) out.reported_errors = out.findings.size();
  if (totals.aggregate_rows > 0) {
    out.notes.push_back(fmt::format(
        "gbench: skipped {} aggregate rows (_mean, _median, _stddev, _cv, ...); each benchmark's "
        "time is the median of its own repetition rows",
        totals.aggregate_rows));
  }
  return out;
}

}  // namespace aorta
