// The GPU payload of the bisect figure: a shared-memory tiled SGEMM timed with CUDA events, its
// result written as Google Benchmark JSON (aorta's gbench collector appends
// --benchmark_out=FILE --benchmark_out_format=json), so no benchmark library is needed.
#include "tuning.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr int tile = 16;

__global__ void sgemm_tiled(const float* a, const float* b, float* c, int n, int k_steps) {
  __shared__ float as[tile][tile];
  __shared__ float bs[tile][tile];
  const int row = blockIdx.y * tile + threadIdx.y;
  const int col = blockIdx.x * tile + threadIdx.x;
  float sum = 0.0f;
  for (int step = 0; step < k_steps; ++step) {
    const int k0 = (step * tile) % n;  // steps past n wrap: extra work on the same data
    as[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
    bs[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < tile; ++k) sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

int main(int argc, char** argv) {
  const char* out = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--benchmark_out=", 16) == 0) out = argv[i] + 16;
  }
  const int n = matrix_size;
  const int k_steps = n / tile + extra_k_steps;
  const std::size_t bytes = sizeof(float) * n * n;
  std::vector<float> host(static_cast<std::size_t>(n) * n, 1.0f);
  float *a = nullptr, *b = nullptr, *c = nullptr;
  if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess ||
      cudaMalloc(&c, bytes) != cudaSuccess) {
    std::fprintf(stderr, "cudaMalloc failed\n");
    return 77;
  }
  cudaMemcpy(a, host.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(b, host.data(), bytes, cudaMemcpyHostToDevice);
  const dim3 block(tile, tile);
  const dim3 grid(n / tile, n / tile);
  for (int i = 0; i < warmup_launches; ++i) sgemm_tiled<<<grid, block>>>(a, b, c, n, k_steps);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (int i = 0; i < timed_launches; ++i) sgemm_tiled<<<grid, block>>>(a, b, c, n, k_steps);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0.0f;
  cudaEventElapsedTime(&ms, start, stop);
  if (cudaGetLastError() != cudaSuccess) {
    std::fprintf(stderr, "kernel failed: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  const double ns_per_launch = 1e6 * ms / timed_launches;
  std::printf("sgemm_tiled n=%d k_steps=%d: %.1f us per launch\n", n, k_steps, ns_per_launch / 1e3);
  if (out != nullptr) {
    FILE* file = std::fopen(out, "w");
    if (file == nullptr) return 1;
    std::fprintf(file,
                 "{\"context\": {\"num_cpus\": 1, \"mhz_per_cpu\": 1, \"json_schema_version\": 1},\n"
                 " \"benchmarks\": [{\"name\": \"BM_sgemm/%d\", \"run_name\": \"BM_sgemm/%d\", "
                 "\"run_type\": \"iteration\", \"repetitions\": 1, \"repetition_index\": 0, "
                 "\"threads\": 1, \"iterations\": %d, \"real_time\": %.3f, \"cpu_time\": %.3f, "
                 "\"time_unit\": \"ns\"}]}\n",
                 n, n, timed_launches, ns_per_launch, ns_per_launch);
    std::fclose(file);
  }
  return 0;
}
