// One rank of an mpirun launch timing its own CPU work with Google Benchmark, for the CPU
// straggler figures (README.md): every rank runs the same loop, the rank named by --heavy-rank
// runs --extra-percent more iterations. The time each iteration reports (manual time) is the
// thread's CPU time: the host these figures ran on had 2 cores shared by many processes, where
// wall time measures the scheduler more than the rank's work.
//
//   rank_bench [--heavy-rank R] [--extra-percent P] [gbench flags]
#include <benchmark/benchmark.h>

#include <ctime>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

int heavy_rank = -1;
double extra_percent = 10.0;
constexpr long base_steps = 2'000'000;

int own_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID", "RANK"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return 0;
}

void BM_RankWork(benchmark::State& state) {
  const long steps = own_rank() == heavy_rank
                         ? static_cast<long>(base_steps * (1.0 + extra_percent / 100.0))
                         : base_steps;
  for (auto _ : state) {
    timespec start{}, stop{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    unsigned long sum = 0;
    for (long i = 0; i < steps; ++i) {
      sum += static_cast<unsigned long>(i) * static_cast<unsigned long>(i);
      benchmark::DoNotOptimize(sum);
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &stop);
    state.SetIterationTime(static_cast<double>(stop.tv_sec - start.tv_sec) +
                           static_cast<double>(stop.tv_nsec - start.tv_nsec) / 1e9);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (has_value && std::strcmp(argv[i], "--heavy-rank") == 0) {
      heavy_rank = std::atoi(argv[++i]);
    } else if (has_value && std::strcmp(argv[i], "--extra-percent") == 0) {
      extra_percent = std::atof(argv[++i]);
    } else {
      rest.push_back(argv[i]);
    }
  }
  int rest_count = static_cast<int>(rest.size());
  benchmark::RegisterBenchmark("BM_RankWork", BM_RankWork)->UseManualTime()->Iterations(20);
  benchmark::Initialize(&rest_count, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
