// One entry of a Google Benchmark JSON file's "benchmarks" array, checked and converted to
// nanoseconds. Shared by gbench_reader.cpp and its tests.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace aorta::detail {

struct gbench_run {
  enum class kind { measured, aggregate, failed, skipped };
  kind type = kind::measured;
  std::string name;
  // measured: per-iteration times in ns, and the iteration count.
  double real_ns = 0.0;
  double cpu_ns = 0.0;
  double iterations = 0.0;
  std::vector<std::pair<std::string, double>> counters;     // user counters, rates included
  std::vector<std::pair<std::string, std::string>> labels;  // string fields we do not know
  // failed: Google Benchmark's error_message; skipped: its skip_message.
  std::string error_message;
};

// Reads entry `index` of the array. Throws capture_error naming `file`, the benchmark and the key
// for a missing or mistyped field, an unknown time_unit or run_type, and a time or count that is
// negative, not finite or overflows when converted to ns.
[[nodiscard]] gbench_run read_gbench_run(const nlohmann::json& entry,
                                         const std::filesystem::path& file, std::size_t index);

}  // namespace aorta::detail
