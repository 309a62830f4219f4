// A Google Benchmark program with predictable costs: sorting and copying vectors of a few sizes.
// `--plant-error` adds a benchmark that reports an error through state.SkipWithError, so the
// collector's handling of failed benchmarks can be tested on real output.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace {

// xorshift64: the input is the same on every run, so the timings compare across runs.
std::vector<std::uint64_t> scrambled(std::size_t count) {
  std::vector<std::uint64_t> values(count);
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  for (auto& value : values) {
    state ^= state << 13U;
    state ^= state >> 7U;
    state ^= state << 17U;
    value = state;
  }
  return values;
}

void BM_Sort(benchmark::State& state) {
  const auto input = scrambled(static_cast<std::size_t>(state.range(0)));
  // Self-check once, outside the timed loop: a wrong sort must fail, not look fast.
  auto checked = input;
  std::sort(checked.begin(), checked.end());
  if (!std::is_sorted(checked.begin(), checked.end())) {
    state.SkipWithError("std::sort returned an unsorted vector");
    return;
  }
  for (auto _ : state) {
    auto copy = input;
    std::sort(copy.begin(), copy.end());
    benchmark::DoNotOptimize(copy.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Sort)->Arg(1024)->Arg(16384);

void BM_Copy(benchmark::State& state) {
  const auto input = scrambled(static_cast<std::size_t>(state.range(0)));
  std::vector<std::uint64_t> output(input.size());
  for (auto _ : state) {
    std::copy(input.begin(), input.end(), output.begin());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * state.range(0) *
                          static_cast<std::int64_t>(sizeof(std::uint64_t)));
  state.counters["elements"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_Copy)->Arg(65536);

void BM_Failing(benchmark::State& state) {
  for (auto _ : state) {
    state.SkipWithError("planted failure: the input file is missing");
    break;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Our own flag is taken out before Google Benchmark sees the argv, which refuses unknown flags.
  std::vector<char*> kept;
  bool plant_error = false;
  for (int i = 0; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--plant-error") {
      plant_error = true;
    } else {
      kept.push_back(argv[i]);
    }
  }
  if (plant_error) benchmark::RegisterBenchmark("BM_Failing", BM_Failing);
  int kept_count = static_cast<int>(kept.size());
  benchmark::Initialize(&kept_count, kept.data());
  // 64: a usage error, never the 2 that the recipe reads as "cannot run here".
  if (benchmark::ReportUnrecognizedArguments(kept_count, kept.data())) return 64;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
