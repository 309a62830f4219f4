// The "same work, slower" payload of the attribution tests (issue 43): one Google Benchmark,
// BM_wait, whose 10 fixed iterations each run the same loop and then sleep AB_SLEEP_US
// microseconds (default 5000). Two cells that differ only in AB_SLEEP_US execute the same
// instructions (callgrind's Ir) and take different times (gbench's real_time): the stand-in for a
// throttled clock or a busy neighbour.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace {

long sleep_us() {
  const char* text = std::getenv("AB_SLEEP_US");
  const long value = text == nullptr ? 5000 : std::strtol(text, nullptr, 10);
  return value > 0 && value <= 1000000 ? value : 5000;
}

void BM_wait(benchmark::State& state) {
  const auto pause = std::chrono::microseconds(sleep_us());
  for (auto _ : state) {
    unsigned long sum = 0;
    for (unsigned long i = 0; i < 10000; ++i) sum += i ^ (i >> 3);
    benchmark::DoNotOptimize(sum);
    std::this_thread::sleep_for(pause);
  }
}
BENCHMARK(BM_wait)->Iterations(10)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
