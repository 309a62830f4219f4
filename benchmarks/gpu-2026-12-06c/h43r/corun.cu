// The busy neighbour of issue 43's "same work, slower" A/B: another CUDA process that keeps the GPU
// busy with spin kernels (no memory traffic: each thread reads the SM clock until its budget is
// spent), so that the driver time-slices the GPU between its context and the payload's. A kernel
// of the payload longer than a time slice is then stretched in elapsed time while executing the
// same instructions.
//
//   corun SECONDS READY_FILE [SPIN_US]
//
// Writes READY_FILE once its first spin kernel has run (the payload starts after that), then
// launches spin kernels back to back until SECONDS have passed or SIGTERM arrives.
// Build: nvcc -O2 -std=c++17 -gencode arch=compute_90,code=[sm_90,compute_90] -o corun corun.cu
// Exit codes: 0 done, 1 CUDA error, 2 no GPU, 64 usage.
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>

namespace {
std::atomic<bool> stop_requested{false};
void on_term(int) { stop_requested = true; }
}  // namespace

__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: corun SECONDS READY_FILE [SPIN_US]\n");
    return 64;
  }
  const double seconds = std::atof(argv[1]);
  const long spin_us = argc > 3 ? std::atol(argv[3]) : 2000;
  if (!(seconds > 0.0 && seconds <= 600.0) || spin_us <= 0 || spin_us > 1000000) {
    std::fprintf(stderr, "corun: SECONDS must be in (0, 600], SPIN_US in 1..1000000\n");
    return 64;
  }
  std::signal(SIGTERM, on_term);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return 2;
  cudaDeviceProp props{};
  if (cudaGetDeviceProperties(&props, 0) != cudaSuccess) return 1;
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  if (clock_khz <= 0) clock_khz = 1980000;
  const long long cycles = static_cast<long long>(clock_khz) * spin_us / 1000;
  // Every SM busy: several blocks per SM, so no SM is left to the payload inside our time slice.
  const int blocks = props.multiProcessorCount * 4;
  spin<<<blocks, 256>>>(cycles);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  if (FILE* ready = std::fopen(argv[2], "w")) {
    std::fprintf(ready, "ready\n");
    std::fclose(ready);
  }
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  long launches = 1;
  while (!stop_requested && std::chrono::steady_clock::now() < until) {
    for (int i = 0; i < 4; ++i) spin<<<blocks, 256>>>(cycles);
    launches += 4;
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  }
  std::fprintf(stderr, "corun: %ld spin kernels of %ld us on %d blocks\n", launches, spin_us,
               blocks);
  return 0;
}
