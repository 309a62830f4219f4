// A small CUDA program with memory and synchronisation bugs planted behind flags, for
// compute-sanitizer. Clean by default: every kernel stays inside its buffers and the results are
// checked on the host.
//
//   oob [N] [--plant-oob] [--plant-race] [--plant-leak]
//
//   N             elements (default 4096, 1..16777216)
//   --plant-oob   fill_kernel writes one element past its buffer in the last block (memcheck:
//                 "Invalid __global__ write of size 4 bytes"); without a sanitizer the write
//                 lands in allocation slack and nothing notices.
//   --plant-race  shift_kernel reads its neighbour's shared-memory slot without __syncthreads()
//                 (racecheck: a shared-memory read-after-write hazard); its result is then not
//                 checked, since it depends on the schedule.
//   --plant-leak  one device buffer is never freed (memcheck --leak-check full).
//
// Exit codes: 0 PASS, 1 wrong result or CUDA error (a sanitizer that stops a faulty kernel makes
// the next CUDA call fail), 2 no CUDA device, 64 usage error.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int block = 256;
constexpr long max_elements = 16777216;

__global__ void fill_kernel(float* out, int n, int planted_overrun) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // The planted bug: the last thread of the grid writes `planted_overrun` elements past the end.
  const int last = gridDim.x * blockDim.x - 1;
  if (i < n) out[i] = 2.0f * static_cast<float>(i);
  if (planted_overrun != 0 && i == last) out[n - 1 + planted_overrun] = -1.0f;
}

__global__ void shift_kernel(const float* in, float* out, int n, int planted_race) {
  __shared__ float tile[block];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  if (planted_race == 0) __syncthreads();
  const unsigned next = (threadIdx.x + 1) % blockDim.x;
  if (i < n) out[i] = tile[next];
}

bool ok(cudaError_t error, const char* what) {
  if (error == cudaSuccess) return true;
  std::fprintf(stderr, "oob: CUDA error in %s: %s\n", what, cudaGetErrorString(error));
  return false;
}

int run(int n, bool plant_oob, bool plant_race, bool plant_leak) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "oob: no CUDA device; cannot run here\n");
    return 2;
  }
  float* filled = nullptr;
  float* shifted = nullptr;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  if (!ok(cudaMalloc(&filled, bytes), "cudaMalloc") ||
      !ok(cudaMalloc(&shifted, bytes), "cudaMalloc"))
    return 1;
  const int blocks = (n + block - 1) / block;
  fill_kernel<<<blocks, block>>>(filled, n, plant_oob ? 1 : 0);
  if (!ok(cudaGetLastError(), "fill_kernel launch")) return 1;
  shift_kernel<<<blocks, block>>>(filled, shifted, n, plant_race ? 1 : 0);
  if (!ok(cudaGetLastError(), "shift_kernel launch")) return 1;
  if (!ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize")) return 1;

  std::vector<float> host(static_cast<std::size_t>(n));
  if (!ok(cudaMemcpy(host.data(), shifted, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy")) return 1;
  int wrong = 0;
  for (int i = 0; i < n && !plant_race; ++i) {
    const int block_start = i / block * block;
    // Each thread reads its right neighbour's slot within the block; past n a slot holds 0.
    const int source = block_start + (i - block_start + 1) % block;
    const float expected = source < n ? 2.0f * static_cast<float>(source) : 0.0f;
    if (host[static_cast<std::size_t>(i)] != expected) ++wrong;
  }
  if (!ok(cudaFree(filled), "cudaFree")) return 1;
  if (!plant_leak && !ok(cudaFree(shifted), "cudaFree")) return 1;
  if (wrong != 0) {
    std::printf("FAIL: %d of %d elements wrong\n", wrong, n);
    return 1;
  }
  std::printf("PASS n=%d oob=%d race=%d leak=%d\n", n, plant_oob, plant_race, plant_leak);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  long n = 4096;
  bool plant_oob = false;
  bool plant_race = false;
  bool plant_leak = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--plant-oob") == 0) {
      plant_oob = true;
    } else if (std::strcmp(argv[i], "--plant-race") == 0) {
      plant_race = true;
    } else if (std::strcmp(argv[i], "--plant-leak") == 0) {
      plant_leak = true;
    } else {
      char* end = nullptr;
      n = std::strtol(argv[i], &end, 10);
      if (*end != '\0' || n < 1 || n > max_elements) {
        std::fprintf(stderr,
                     "usage: oob [N (1..%ld)] [--plant-oob] [--plant-race] [--plant-leak]\n",
                     max_elements);
        return 64;
      }
    }
  }
  return run(static_cast<int>(n), plant_oob, plant_race, plant_leak);
}
