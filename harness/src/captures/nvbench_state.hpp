// One entry of an nvbench JSON file's benchmarks[].states[] array, checked and converted: its
// series name, its cold GPU time in ns and its other summaries as named numbers. Shared by
// nvbench_reader.cpp and its tests.
#pragma once

#include "captures/nvbench_samples.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace aorta::detail {

// nvbench marks a state that threw with this skip_reason prefix (its runner catches the
// exception and skips the state): a failure, not a choice the benchmark made.
inline constexpr std::string_view nvbench_error_prefix = "Unexpected error";

struct nvbench_state {
  enum class kind { measured, skipped, failed };
  kind type = kind::measured;
  // "<benchmark>[/Device:<id>]/<axis>:<value>...", e.g. "gemm/M:2048": nvbench writes "M=2048",
  // but a check's metric name cannot hold '=' (docs/checks-and-metrics.md), and the state's
  // metrics are "<name>.<key>".
  std::string name;
  // skipped or failed: nvbench's skip_reason.
  std::string reason;
  // measured: nv/cold/time/gpu/mean in ns; nullopt when the state has no cold GPU time.
  std::optional<double> gpu_ns;
  // "cpu_time_ns", "gpu_noise", "bytes_per_second", ... and other numeric summaries by tag.
  std::vector<std::pair<std::string, double>> metrics;
  // String-typed summaries, by tag.
  std::vector<std::pair<std::string, std::string>> labels;
  // Where `--jsonbin` put the per-sample cold GPU times (nvbench_samples.hpp), if it did.
  std::optional<nvbench_sample_file> sample_file;
};

// What names a state besides its own axis values.
struct nvbench_state_place {
  const std::filesystem::path& file;
  const std::string& benchmark;
  std::size_t state_index;
  bool name_device;  // the benchmark ran on more than one device: the name carries it
};

// Reads one state. Throws capture_error naming the file, benchmark, state and key for a missing
// or mistyped field (a sample-times summary without "filename" or "size" among them), a value
// that is not a number where its type says it is, a time or count that is negative, not finite
// or overflows in ns.
[[nodiscard]] nvbench_state read_nvbench_state(const nlohmann::json& state,
                                               const nvbench_state_place& place);

// The device a state ran on (its "device" number), or nullopt when it has none.
[[nodiscard]] std::optional<long long> nvbench_state_device(const nlohmann::json& state);

}  // namespace aorta::detail
