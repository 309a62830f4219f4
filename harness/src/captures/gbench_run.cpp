#include "captures/gbench_run.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <string_view>

namespace aorta::detail {
namespace {

using json = nlohmann::json;

// Keys Google Benchmark writes for every run (1.7 and 1.8); any other number is a user counter.
constexpr std::array<std::string_view, 18> known_keys{"name",
                                                      "family_index",
                                                      "per_family_instance_index",
                                                      "run_name",
                                                      "run_type",
                                                      "repetitions",
                                                      "repetition_index",
                                                      "threads",
                                                      "iterations",
                                                      "real_time",
                                                      "cpu_time",
                                                      "time_unit",
                                                      "error_occurred",
                                                      "error_message",
                                                      "aggregate_name",
                                                      "aggregate_unit",
                                                      "skipped",
                                                      "skip_message"};

bool is_known_key(std::string_view key) {
  for (const auto known : known_keys) {
    if (key == known) return true;
  }
  return false;
}

[[noreturn]] void fail_gbench_run(const std::filesystem::path& file, const std::string& benchmark,
                                  const std::string& message) {
  throw capture_error(fmt::format("{}: benchmark '{}': {}", file.string(), benchmark, message));
}

double ns_per_unit(const json& entry, const std::filesystem::path& file,
                   const std::string& benchmark) {
  const auto unit = entry.find("time_unit");
  if (unit == entry.end() || !unit->is_string()) {
    fail_gbench_run(file, benchmark,
                    "\"time_unit\" is missing or not a string; Google Benchmark writes one "
                    "of ns, us, ms, s for every run, so this file is damaged or not its");
  }
  const auto& text = unit->get_ref<const std::string&>();
  if (text == "ns") return 1.0;
  if (text == "us") return 1e3;
  if (text == "ms") return 1e6;
  if (text == "s") return 1e9;
  fail_gbench_run(
      file, benchmark,
      fmt::format("\"time_unit\" is '{}'; known: ns, us, ms, s (a newer Google Benchmark? "
                  "report it with the file)",
                  text));
}

// A required number that must be finite and non-negative, times `scale`, still finite.
double non_negative(const json& entry, std::string_view key, double scale,
                    const std::filesystem::path& file, const std::string& benchmark) {
  const auto found = entry.find(key);
  if (found == entry.end() || !found->is_number()) {
    fail_gbench_run(file, benchmark, fmt::format("\"{}\" is missing or not a number", key));
  }
  const double raw = found->get<double>();
  const double scaled = raw * scale;
  if (!std::isfinite(raw) || raw < 0.0 || !std::isfinite(scaled)) {
    fail_gbench_run(file, benchmark,
                    fmt::format("\"{}\" is {}, which is negative, not finite or overflows in ns; a "
                                "benchmark's time and iteration count are finite and non-negative",
                                key, found->dump()));
  }
  return scaled;
}

std::string run_name(const json& entry, const std::filesystem::path& file, std::size_t index) {
  const auto name = entry.find("name");
  if (name == entry.end() || !name->is_string() || name->get_ref<const std::string&>().empty()) {
    throw capture_error(fmt::format("{}: benchmarks[{}] has no \"name\" string; every Google "
                                    "Benchmark run has one, so this file is damaged or not its",
                                    file.string(), index));
  }
  return name->get<std::string>();
}

void read_extra_fields(const json& entry, gbench_run& run, const std::filesystem::path& file) {
  for (const auto& [key, value] : entry.items()) {
    if (is_known_key(key)) continue;
    if (value.is_number()) {
      const double number = value.get<double>();
      if (!std::isfinite(number)) {
        fail_gbench_run(
            file, run.name,
            fmt::format("counter \"{}\" is {}, not a finite number", key, value.dump()));
      }
      run.counters.emplace_back(key, number);
    } else if (value.is_string()) {
      run.labels.emplace_back(key, value.get<std::string>());
    }
  }
}

}  // namespace

gbench_run read_gbench_run(const json& entry, const std::filesystem::path& file,
                           std::size_t index) {
  if (!entry.is_object()) {
    throw capture_error(fmt::format("{}: benchmarks[{}] is {}, not an object", file.string(), index,
                                    entry.type_name()));
  }
  gbench_run run;
  run.name = run_name(entry, file, index);
  const auto type = entry.find("run_type");
  if (type != entry.end()) {
    if (!type->is_string()) fail_gbench_run(file, run.name, "\"run_type\" is not a string");
    const auto& text = type->get_ref<const std::string&>();
    if (text == "aggregate") {
      run.type = gbench_run::kind::aggregate;
      return run;
    }
    if (text != "iteration") {
      fail_gbench_run(file, run.name,
                      fmt::format("\"run_type\" is '{}'; known: iteration, aggregate (a "
                                  "newer Google Benchmark? report it with the file)",
                                  text));
    }
  }
  const auto error = entry.find("error_occurred");
  if (error != entry.end()) {
    if (!error->is_boolean())
      fail_gbench_run(file, run.name, "\"error_occurred\" is not true or false");
    if (error->get<bool>()) {
      run.type = gbench_run::kind::failed;
      const auto message = entry.find("error_message");
      run.error_message = message != entry.end() && message->is_string()
                              ? message->get<std::string>()
                              : "(no error_message)";
      return run;
    }
  }
  // Google Benchmark 1.8's state.SkipWithMessage: the benchmark chose not to run here.
  const auto skipped = entry.find("skipped");
  if (skipped != entry.end() && skipped->is_boolean() && skipped->get<bool>()) {
    run.type = gbench_run::kind::skipped;
    const auto message = entry.find("skip_message");
    if (message != entry.end() && message->is_string())
      run.error_message = message->get<std::string>();
    return run;
  }
  const double scale = ns_per_unit(entry, file, run.name);
  run.real_ns = non_negative(entry, "real_time", scale, file, run.name);
  run.cpu_ns = non_negative(entry, "cpu_time", scale, file, run.name);
  run.iterations = non_negative(entry, "iterations", 1.0, file, run.name);
  read_extra_fields(entry, run, file);
  return run;
}

}  // namespace aorta::detail
