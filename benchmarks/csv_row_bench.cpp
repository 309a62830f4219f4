// The CSV scanner's cost in the length of one row (issue 10, finding 15). Until the buffer grew
// geometrically, an unfinished row was re-scanned once per 1 MiB chunk: a 32 MiB row took 2-3 s.
// Linear means bytes_per_second stays flat from the 4 MiB row to the 32 MiB one (quadratic would
// fall eightfold). The rows are one quoted kernel name, written under $TMPDIR and removed at exit.
#include "captures/csv_scanner.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

fs::path write_long_row(std::size_t bytes) {
  const fs::path file =
      fs::temp_directory_path() / ("aorta_csv_row_bench_" + std::to_string(bytes) + ".csv");
  std::FILE* out = std::fopen(file.c_str(), "wb");
  if (out == nullptr) throw std::runtime_error("cannot write " + file.string());
  std::fputs("\"Name\",\"Calls\"\n\"", out);
  const std::string block(1 << 16, 'k');
  for (std::size_t written = 0; written < bytes; written += block.size()) {
    std::fwrite(block.data(), 1, block.size(), out);
  }
  std::fputs("\",1\n", out);
  std::fclose(out);
  return file;
}

void long_row(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0)) << 20;
  const fs::path file = write_long_row(bytes);
  std::vector<std::string_view> fields;
  for (auto _ : state) {
    aorta::detail::csv_scanner scanner(file);
    std::size_t rows = 0;
    while (scanner.next_row(fields)) ++rows;
    benchmark::DoNotOptimize(rows);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(bytes));
  fs::remove(file);
}

}  // namespace

BENCHMARK(long_row)->Arg(2)->Arg(12)->Arg(32)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
