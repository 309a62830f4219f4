// An nvbench benchmark of a tiled single-precision GEMM (C = A * B, N x N), run as a project's own
// benchmark would be: NVBENCH_BENCH with an N axis, bandwidth and element counts reported to
// nvbench. AORTA_NVBENCH_EXTRA_PERCENT=P makes the kernel walk P% more of the K dimension (whole
// tiles, rounded up): the same kernel, that much slower, for measuring what a gate detects.
#include <nvbench/nvbench.cuh>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

constexpr int tile = 16;

__global__ void sgemm_tiled(const float* a, const float* b, float* c, int n, int k_tiles_run) {
  __shared__ float a_tile[tile][tile];
  __shared__ float b_tile[tile][tile];
  const int row = blockIdx.y * tile + threadIdx.y;
  const int col = blockIdx.x * tile + threadIdx.x;
  const int k_tiles = n / tile;
  float sum = 0.0f;
  for (int step = 0; step < k_tiles_run; ++step) {
    // Past the last tile the walk starts again from the first: more of the same work.
    const int t = step % k_tiles;
    a_tile[threadIdx.y][threadIdx.x] = a[row * n + t * tile + threadIdx.x];
    b_tile[threadIdx.y][threadIdx.x] = b[(t * tile + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < tile; ++k) sum += a_tile[threadIdx.y][k] * b_tile[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

__global__ void fill(float* data, std::int64_t count, float scale) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < count) data[i] = scale * static_cast<float>(i % 97);
}

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
  }
}

// The percentage of extra K tiles from the environment; a malformed value throws, which nvbench
// records as the state's "Unexpected error" (and aorta fails the trial naming it).
long extra_percent() {
  const char* text = std::getenv("AORTA_NVBENCH_EXTRA_PERCENT");
  if (text == nullptr || *text == '\0') return 0;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < 0 || value > 1000) {
    throw std::invalid_argument(std::string("AORTA_NVBENCH_EXTRA_PERCENT='") + text +
                                "': expected a whole percentage from 0 to 1000");
  }
  return value;
}

class device_buffer {
public:
  explicit device_buffer(std::int64_t count) {
    check(cudaMalloc(&m_data, static_cast<std::size_t>(count) * sizeof(float)), "cudaMalloc");
  }
  ~device_buffer() { cudaFree(m_data); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  [[nodiscard]] float* get() const { return m_data; }

private:
  float* m_data = nullptr;
};

void gemm(nvbench::state& state) {
  const auto n = static_cast<int>(state.get_int64("N"));
  const std::int64_t elements = static_cast<std::int64_t>(n) * n;
  const int k_tiles = n / tile;
  const int k_tiles_run = k_tiles + static_cast<int>((k_tiles * extra_percent() + 99) / 100);
  device_buffer a(elements), b(elements), c(elements);
  const int fill_blocks = static_cast<int>((elements + 255) / 256);
  fill<<<fill_blocks, 256>>>(a.get(), elements, 0.5f);
  fill<<<fill_blocks, 256>>>(b.get(), elements, 0.25f);
  check(cudaDeviceSynchronize(), "filling the inputs");

  state.add_element_count(elements, "Elements");
  state.add_global_memory_reads<float>(2 * elements, "Inputs");
  state.add_global_memory_writes<float>(elements, "Output");
  const dim3 block(tile, tile);
  const dim3 grid(n / tile, n / tile);
  state.exec([&](nvbench::launch& launch) {
    sgemm_tiled<<<grid, block, 0, launch.get_stream()>>>(a.get(), b.get(), c.get(), n,
                                                         k_tiles_run);
  });
}

}  // namespace

NVBENCH_BENCH(gemm).add_int64_axis("N", {1024, 2048});
