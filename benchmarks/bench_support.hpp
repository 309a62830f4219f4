// What the reader benchmarks share: generated input files in a temporary directory that is
// removed at exit, the process's peak RSS, and the whole main(): generate, measure, report.
#pragma once

#include "aorta/capture.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>

namespace aorta::bench {

// Generates each size's input once, on first use, with `write(path, size)`.
class generated_inputs {
public:
  using writer = std::function<void(const std::filesystem::path&, std::int64_t)>;

  // `pattern` names one input, e.g. "proton_{}mb.hatchet" (size substituted).
  generated_inputs(std::string stem, std::string pattern, writer write)
      : m_dir(std::filesystem::temp_directory_path() / fmt::format("{}_{}", stem, ::getpid())),
        m_pattern(std::move(pattern)), m_write(std::move(write)) {}
  generated_inputs(const generated_inputs&) = delete;
  generated_inputs& operator=(const generated_inputs&) = delete;
  ~generated_inputs() {
    std::error_code ec;
    std::filesystem::remove_all(m_dir, ec);
  }

  const std::filesystem::path& get(std::int64_t size) {
    auto it = m_paths.find(size);
    if (it != m_paths.end()) return it->second;
    std::filesystem::create_directories(m_dir);
    const std::filesystem::path path = m_dir / fmt::format(fmt::runtime(m_pattern), size);
    m_write(path, size);
    return m_paths.emplace(size, path).first->second;
  }

private:
  std::filesystem::path m_dir;
  std::string m_pattern;
  writer m_write;
  std::map<std::int64_t, std::filesystem::path> m_paths;
};

inline double peak_rss_mib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

// One reader measured at several input sizes.
struct reader_benchmark {
  std::string name;             // e.g. "read_hatchet_capture"
  generated_inputs* inputs;     // one input per size
  std::vector<std::int64_t> sizes;
  double min_time_s;
  std::function<capture(const std::filesystem::path&)> read;
  // The file whose size counts as the bytes read: the input itself unless given (a directory
  // input names the file inside it).
  std::function<std::filesystem::path(const std::filesystem::path&)> measured_file = {};
};

// Reads the input of state.range(0) repeatedly; reports bytes/s, the file size, the kernels found
// and the peak RSS after reading.
inline void measure_reads(benchmark::State& state, const reader_benchmark& spec) {
  const std::filesystem::path& input = spec.inputs->get(state.range(0));
  const std::filesystem::path file = spec.measured_file ? spec.measured_file(input) : input;
  const auto bytes = static_cast<std::int64_t>(std::filesystem::file_size(file));
  std::size_t kernels = 0;
  for (auto _ : state) {
    const capture c = spec.read(input);
    kernels = c.kernels.size();
    benchmark::DoNotOptimize(c.kernels.data());
  }
  state.SetBytesProcessed(state.iterations() * bytes);
  state.counters["file_mib"] = static_cast<double>(bytes) / (1 << 20);
  state.counters["kernels"] = static_cast<double>(kernels);
  state.counters["peak_rss_mib"] = peak_rss_mib();
}

// A reader benchmark's main(). Every input exists before anything is measured, so the
// generator's own memory is part of the baseline (peak_rss_mib_before_reading) rather than of one
// size's figure; ru_maxrss is a high-water mark, so an equal figure after the larger size shows
// the reader's memory does not grow with the input.
inline int run_reader_benchmarks(int argc, char** argv, const reader_benchmark& spec) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (const std::int64_t size : spec.sizes) static_cast<void>(spec.inputs->get(size));
  benchmark::AddCustomContext("peak_rss_mib_before_reading", fmt::format("{:.1f}", peak_rss_mib()));
  for (const std::int64_t size : spec.sizes)
    benchmark::RegisterBenchmark(spec.name.c_str(),
                                 [&spec](benchmark::State& state) { measure_reads(state, spec); })
        ->Arg(size)
        ->Unit(benchmark::kMillisecond)
        ->MinTime(spec.min_time_s);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace aorta::bench
