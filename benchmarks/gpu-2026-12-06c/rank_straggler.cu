// One rank of a torchrun/mpirun launch timing its own CUDA kernel with Google Benchmark (manual
// time), for the straggler figures of docs/distributed.md.
//
//   rank_straggler [--heavy-rank R] [--extra-percent P] [--serialize LOCKFILE] [gbench flags]
//
// Every rank runs the same dependent FMA loop; the rank named by --heavy-rank runs P% more loop
// iterations, so its kernel takes P% longer on the same card. With --serialize the ranks take the
// card in turn (flock on LOCKFILE) while they measure: several ranks sharing one card would
// otherwise time-slice and each would time the others' work too, which is not what a rank on its own
// card sees.
//
// The time of an iteration is the kernel's own span on the GPU's clock (%globaltimer: the first
// block's start to the last block's end), not a CUDA event pair: between recording a start event
// and launching the kernel the host thread can be descheduled, and on a host busy with other runs'
// process starts (h44r.sh runs 20 at once) a few-millisecond gap would land in a 0.5 ms iteration.
// The event time is kept as the fallback when the span reads 0 (said on stderr).
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int heavy_rank = -1;
double extra_percent = 10.0;
const char* serialize_lock = nullptr;
constexpr long base_steps = 200000;

__device__ unsigned long long global_ns() {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

// bounds[0]: the earliest block start, bounds[1]: the latest block end (ns on the GPU's clock).
__global__ void fma_chain(float* out, long steps, unsigned long long* bounds) {
  const unsigned long long started = global_ns();
  float x = threadIdx.x * 1e-3f, y = 1.0001f;
  for (long i = 0; i < steps; ++i) x = fmaf(x, y, 1e-7f);
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicMin(&bounds[0], started);
    atomicMax(&bounds[1], global_ns());
  }
}

__global__ void reset_bounds(unsigned long long* bounds) {
  bounds[0] = ~0ULL;
  bounds[1] = 0ULL;
}

int own_rank() {
  for (const char* name : {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return 0;
}

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "rank_straggler: %s: %s\n", what, cudaGetErrorString(status));
    std::exit(2);
  }
}

void BM_RankWork(benchmark::State& state) {
  const int rank = own_rank();
  const long steps = rank == heavy_rank
                         ? static_cast<long>(base_steps * (1.0 + extra_percent / 100.0))
                         : base_steps;
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SM count");
  const int blocks = sms, threads = 256;
  float* out = nullptr;
  check(cudaMalloc(&out, sizeof(float) * blocks * threads), "cudaMalloc");
  unsigned long long* bounds = nullptr;
  check(cudaMalloc(&bounds, 2 * sizeof(unsigned long long)), "cudaMalloc");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  int lock = -1;
  if (serialize_lock) {
    lock = open(serialize_lock, O_RDWR | O_CREAT, 0644);
    if (lock < 0 || flock(lock, LOCK_EX) != 0) {
      std::perror("rank_straggler: lock");
      std::exit(2);
    }
  }
  reset_bounds<<<1, 1>>>(bounds);
  fma_chain<<<blocks, threads>>>(out, steps, bounds);  // warm-up: module load, clocks
  check(cudaDeviceSynchronize(), "warm-up");
  for (auto _ : state) {
    reset_bounds<<<1, 1>>>(bounds);
    check(cudaEventRecord(start), "record");
    fma_chain<<<blocks, threads>>>(out, steps, bounds);
    check(cudaEventRecord(stop), "record");
    check(cudaEventSynchronize(stop), "synchronize");
    unsigned long long span[2] = {0, 0};
    check(cudaMemcpy(span, bounds, sizeof span, cudaMemcpyDeviceToHost), "copy the span");
    double seconds = span[1] > span[0] ? (span[1] - span[0]) / 1e9 : 0.0;
    if (seconds <= 0.0) {
      float ms = 0.0f;
      check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
      seconds = ms / 1e3;
      std::fprintf(stderr, "rank_straggler: rank %d: the kernel's span read 0; the event time %.4f ms "
                   "instead\n", rank, ms);
    }
    state.SetIterationTime(seconds);
  }
  if (lock >= 0) close(lock);  // releases the flock
  // No `rank` counter: rank 0's would be 0 in every repetition, and Google Benchmark writes the
  // coefficient of variation of a zero counter as a bare NaN, which is not JSON (the first H200
  // run: every rank 0 capture refused, every trial failed).
  state.counters["steps"] = static_cast<double>(steps);
  cudaFree(out);
  cudaFree(bounds);
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
    } else if (has_value && std::strcmp(argv[i], "--serialize") == 0) {
      serialize_lock = argv[++i];
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
