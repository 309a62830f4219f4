#include "captures/nvbench_reader.hpp"

#include "aorta/error.hpp"
#include "captures/capture_files.hpp"
#include "checked_sum.hpp"
#include "captures/nvbench_samples.hpp"
#include "captures/nvbench_state.hpp"
#include "captures/warmup_launches.hpp"
#include "json_integer.hpp"
#include "json_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

namespace aorta {
namespace {

using json = nlohmann::json;

// Every measurement of one state, across the files read.
struct state_series {
  std::vector<double> gpu_ns;
  std::vector<std::string> metric_order;
  std::map<std::string, std::vector<double>> metrics;
  std::map<std::string, std::string> labels;
  std::vector<std::string> files;  // the files its measurements came from, for messages
};

struct nvbench_totals {
  std::vector<std::string> order;  // state names, first seen first
  std::map<std::string, state_series> series;
  std::size_t untimed_states = 0;
  bool sample_times_required = false;
};

// Each file's mean is already an average over nvbench's samples; the median over files keeps one
// file measured under a disturbance from moving the value.
// A midpoint that overflows is a read error naming the files and the state.
double nvbench_median(const std::vector<double>& values, const state_series& series,
                      const std::string& name, std::string_view field) {
  return detail::checked_median(
      values, fmt::format("{}: state '{}'", fmt::join(series.files, ", "), name), field);
}

json parse_file(const std::filesystem::path& file) {
  try {
    return detail::read_json_file(file);
  } catch (const detail::json_input_error& e) {
    throw capture_error(fmt::format(
        "{} is not valid JSON{}: {}; if the benchmark was killed while writing it, re-run it",
        file.string(), e.byte() > 0 ? fmt::format(" (byte {})", e.byte()) : "", e.what()));
  } catch (const detail::input_error& e) {
    throw capture_error(e.what());
  }
}

// The file's "benchmarks" array, after checking that nvbench wrote it in a layout we know.
const json& nvbench_benchmarks_of(const json& root, const std::filesystem::path& file,
                                  std::vector<std::string>& notes) {
  const auto meta = root.is_object() ? root.find("meta") : root.end();
  const auto benchmarks = root.is_object() ? root.find("benchmarks") : root.end();
  if (meta == root.end() || !meta->is_object() || benchmarks == root.end() ||
      !benchmarks->is_array()) {
    throw capture_error(fmt::format(
        "{} is not nvbench JSON: it needs a \"meta\" object and a \"benchmarks\" array at the "
        "top. Fix: point nvbench at the file --json wrote, or pick this file's tool with "
        "--collector",
        file.string()));
  }
  const json* version = nullptr;
  if (const auto v = meta->find("version"); v != meta->end() && v->is_object()) {
    if (const auto j = v->find("json"); j != v->end() && j->is_object()) version = &*j;
  }
  const auto major = version ? version->find("major") : json::const_iterator{};
  if (version == nullptr || major == version->end() ||
      detail::json_integer<long long>(*major) != 1) {
    throw capture_error(fmt::format(
        "{}: meta.version.json.major is {}; aorta reads nvbench's JSON format 1.x (written by "
        "nvbench 0.1 and cuda-bench 0.3). Fix: write the file with such an nvbench, or use an "
        "aorta that knows the newer format",
        file.string(),
        version == nullptr || major == version->end() ? std::string("missing") : major->dump()));
  }
  const json& versions = meta->at("version");
  if (const auto nvbench = versions.find("nvbench");
      nvbench != versions.end() && nvbench->is_object()) {
    if (const auto text = nvbench->find("string"); text != nvbench->end() && text->is_string()) {
      notes.push_back(fmt::format("{}: written by nvbench {}", file.string(),
                                  text->get_ref<const std::string&>()));
    }
  }
  return *benchmarks;
}

// With `--jsonbin` the state's time is the mean of its samples after the warm-up rule, the same
// rule Google Benchmark repetitions get: nvbench's own mean counts the slow first samples.
double steady_sample_mean(const detail::nvbench_state& state, const std::filesystem::path& file,
                          capture& out) {
  const std::vector<double> samples =
      detail::read_nvbench_samples(file, state.name, *state.sample_file);
  const std::size_t warmup = detail::warmup_launches(samples);
  if (warmup > 0) {
    out.notes.push_back(fmt::format(
        "{}: state '{}': the first {} of its {} samples are warm-up (slower than {}x the median "
        "of the second half) and are left out of its time",
        file.string(), state.name, warmup, samples.size(), detail::warmup_steady_factor));
  }
  double sum = 0.0;  // at most 2^24 finite float32 values in ns: no overflow
  for (std::size_t at = warmup; at < samples.size(); ++at) sum += samples[at];
  return sum / static_cast<double>(samples.size() - warmup);
}

void add_state(detail::nvbench_state state, const std::filesystem::path& file,
               nvbench_totals& totals, capture& out) {
  using kind = detail::nvbench_state::kind;
  if (state.type == kind::failed) {
    out.findings.push_back({.severity = "error",
                            .kind = "benchmark error",
                            .kernel = state.name,
                            .location = file.string(),
                            .detail = state.reason,
                            .count = 1});
    return;
  }
  if (state.type == kind::skipped) {
    out.notes.push_back(
        fmt::format("{}: nvbench skipped '{}': {}", file.string(), state.name, state.reason));
    return;
  }
  if (state.sample_file) {
    state.gpu_ns = steady_sample_mean(state, file, out);
  } else if (totals.sample_times_required && state.gpu_ns) {
    throw capture_error(fmt::format(
        "{}: benchmark state '{}': no per-sample times (no summary '{}'), but the recipe asks for "
        "them (collect.nvbench.sample_times: true), and nvbench's own mean counts the warm-up "
        "samples. Fix: make sure the benchmark receives the --jsonbin aorta appends (a wrapper "
        "that drops its arguments leaves nvbench writing only the mean), or leave sample_times "
        "out to gate on nvbench's mean",
        file.string(), state.name, detail::nvbench_sample_times_tag));
  }
  if (!state.gpu_ns) {
    ++totals.untimed_states;
    return;
  }
  auto [at, added] = totals.series.try_emplace(state.name);
  if (added) totals.order.push_back(state.name);
  state_series& series = at->second;
  if (std::find(series.files.begin(), series.files.end(), file.string()) == series.files.end())
    series.files.push_back(file.string());
  series.gpu_ns.push_back(*state.gpu_ns);
  for (auto& [key, value] : state.metrics) {
    auto& values = series.metrics[key];
    if (values.empty()) series.metric_order.push_back(key);
    values.push_back(value);
  }
  for (auto& [key, text] : state.labels) series.labels.insert_or_assign(key, std::move(text));
}

void read_benchmark(const json& benchmark, std::size_t index, const std::filesystem::path& file,
                    nvbench_totals& totals, capture& out) {
  const auto name = benchmark.is_object() ? benchmark.find("name") : benchmark.end();
  if (name == benchmark.end() || !name->is_string() ||
      name->get_ref<const std::string&>().empty()) {
    throw capture_error(fmt::format("{}: benchmarks[{}] has no \"name\" string; nvbench writes "
                                    "one, so this file is damaged or not nvbench's",
                                    file.string(), index));
  }
  const std::string& benchmark_name = name->get_ref<const std::string&>();
  const auto states = benchmark.find("states");
  if (states == benchmark.end() || !states->is_array()) {
    throw capture_error(fmt::format("{}: benchmark '{}': \"states\" is missing or not an array",
                                    file.string(), benchmark_name));
  }
  std::set<long long> devices;
  for (const auto& state : *states) {
    if (const auto device = detail::nvbench_state_device(state)) devices.insert(*device);
  }
  for (std::size_t at = 0; at < states->size(); ++at) {
    const detail::nvbench_state_place place{.file = file,
                                            .benchmark = benchmark_name,
                                            .state_index = at,
                                            .name_device = devices.size() > 1};
    add_state(detail::read_nvbench_state((*states)[at], place), file, totals, out);
  }
}

void put_nvbench_series(const std::string& name, const state_series& series, capture& out) {
  out.kernels.push_back(
      {.name = name,
       .launches = series.gpu_ns.size(),
       .total_ns = nvbench_median(series.gpu_ns, series, name, "nv/cold/time/gpu/mean")});
  for (const auto& key : series.metric_order) {
    const auto& values = series.metrics.at(key);
    out.numeric_metrics.push_back({name + "." + key, nvbench_median(values, series, name, key)});
    if (values.size() != series.gpu_ns.size()) {
      out.notes.push_back(fmt::format("state '{}': '{}' is in {} of its {} measurements", name,
                                      key, values.size(), series.gpu_ns.size()));
    }
  }
  for (const auto& [key, text] : series.labels) {
    if (out.text_metrics.size() >= text_metric_max_count) break;
    out.text_metrics.push_back(
        {.path = {name}, .key = key, .text = text.substr(0, text_metric_max_bytes)});
  }
}

}  // namespace

capture read_nvbench_capture(const std::filesystem::path& dir_or_file, bool sample_times_required) {
  const auto inputs = detail::find_capture_inputs(
      dir_or_file, [](const std::string& name) { return name.ends_with(".json"); }, "nvbench",
      "nvbench JSON files (*.json)");
  capture out;
  out.collector = "nvbench";
  out.artifact_dir = inputs.artifact_dir;
  out.notes = inputs.notes;
  if (inputs.files.empty()) return out;
  nvbench_totals totals;
  totals.sample_times_required = sample_times_required;
  for (const auto& file : inputs.files) {
    const json root = parse_file(file);
    const json& benchmarks = nvbench_benchmarks_of(root, file, out.notes);
    for (std::size_t index = 0; index < benchmarks.size(); ++index) {
      read_benchmark(benchmarks[index], index, file, totals, out);
    }
    out.files.push_back(file);
  }
  for (const auto& name : totals.order) put_nvbench_series(name, totals.series.at(name), out);
  std::stable_sort(
      out.kernels.begin(), out.kernels.end(),
      [](const kernel_stat& a, const kernel_stat& b) { return a.total_ns > b.total_ns; });
  // No state at all (a --benchmark that matched nothing) stays an empty capture, which fails
  // unless the recipe allows it, instead of reading as "0 errors".
  if (!out.kernels.empty() || !out.findings.empty()) out.reported_errors = out.findings.size();
  if (totals.untimed_states > 0) {
    out.notes.push_back(fmt::format(
        "nvbench: {} measured state(s) have no cold GPU time (nv/cold/time/gpu/mean; --profile "
        "or a CPU-only benchmark?) and are not rows",
        totals.untimed_states));
  }
  return out;
}

}  // namespace aorta
