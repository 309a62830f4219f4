// Tiled single-precision GEMM (C = A * B, n x n) with one kernel, `sgemm_tiled`, checked against
// double-precision host dot products. Builds with hipcc (AMD) and, through the portability header,
// with nvcc (NVIDIA; see ../../ncu/cuda-gemm).
//
//   gemm [N [ITERS]]     N, ITERS also from AORTA_GEMM_N / AORTA_GEMM_ITERS; defaults 512 / 20.
//
// The kernel is launched 3 (warm-up) + ITERS times; a profiler sees all of them.
// Exit codes: 0 PASS, 1 wrong result or GPU API error, 2 no GPU device.
#include "../../common/gpu_portability.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int tile = 16;
constexpr int warmup_launches = 3;
constexpr int max_extent = 16384;  // bounds both N and ITERS; anything else falls back
constexpr int sampled_elements = 64;
constexpr double tolerance = 1e-3;

struct gpu_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(gpu::error_t error, const char* file, int line) {
  if (error != gpu::success) {
    throw gpu_failure(std::string(gpu::api_name) + " error at " + file + ":" +
                      std::to_string(line) + ": " + gpu::error_string(error));
  }
}
#define GEMM_CHECK(expr) check((expr), __FILE__, __LINE__)

// Value from argv, else the environment, else the default; out-of-range or non-numeric text
// falls back with a note, so a typo never turns into a giant or empty run.
int setting(const char* arg, const char* env_name, int fallback, const char* label) {
  const char* text = arg != nullptr ? arg : std::getenv(env_name);
  if (text == nullptr || *text == '\0') {
    return fallback;
  }
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value <= 0 || value > max_extent) {
    std::fprintf(stderr, "gemm: ignoring %s='%s' (want 1..%d); using %d\n", label, text, max_extent,
                 fallback);
    return fallback;
  }
  return static_cast<int>(value);
}

// xorshift32: a deterministic fill that needs no <random> distribution guarantees.
struct xorshift32 {
  std::uint32_t state;
  std::uint32_t next() {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  }
  float uniform_minus_one_to_one() {  // [-1, 1)
    return static_cast<float>(next() >> 8) * (2.0f / 16777216.0f) - 1.0f;
  }
};

class device_buffer {
public:
  explicit device_buffer(std::size_t count) : m_bytes(count * sizeof(float)) {
    void* ptr = nullptr;
    GEMM_CHECK(gpu::malloc_bytes(&ptr, m_bytes));
    m_data = static_cast<float*>(ptr);
  }
  ~device_buffer() { (void)gpu::free_bytes(m_data); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  [[nodiscard]] float* get() const { return m_data; }
  [[nodiscard]] std::size_t bytes() const { return m_bytes; }

private:
  float* m_data = nullptr;
  std::size_t m_bytes;
};

class event_pair {
public:
  event_pair() {
    GEMM_CHECK(gpu::event_create(&m_start));
    GEMM_CHECK(gpu::event_create(&m_stop));
  }
  ~event_pair() {
    (void)gpu::event_destroy(m_start);
    (void)gpu::event_destroy(m_stop);
  }
  event_pair(const event_pair&) = delete;
  event_pair& operator=(const event_pair&) = delete;
  void start() { GEMM_CHECK(gpu::event_record(m_start)); }
  float stop_ms() {
    GEMM_CHECK(gpu::event_record(m_stop));
    GEMM_CHECK(gpu::event_synchronize(m_stop));
    float ms = 0.0f;
    GEMM_CHECK(gpu::event_elapsed_ms(&ms, m_start, m_stop));
    return ms;
  }

private:
  gpu::event_t m_start{};
  gpu::event_t m_stop{};
};

}  // namespace

__global__ void sgemm_tiled(const float* a, const float* b, float* c, int n) {
  __shared__ float a_tile[tile][tile];
  __shared__ float b_tile[tile][tile];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * tile + ty;
  const int col = blockIdx.x * tile + tx;
  float acc = 0.0f;
  for (int base = 0; base < n; base += tile) {
    a_tile[ty][tx] = (row < n && base + tx < n) ? a[row * n + base + tx] : 0.0f;
    b_tile[ty][tx] = (base + ty < n && col < n) ? b[(base + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < tile; ++k) {
      acc += a_tile[ty][k] * b_tile[k][tx];
    }
    __syncthreads();
  }
  if (row < n && col < n) {
    c[row * n + col] = acc;
  }
}

namespace {

void launch(const device_buffer& a, const device_buffer& b, device_buffer& c, int n) {
  const dim3 block(tile, tile);
  const dim3 grid((n + tile - 1) / tile, (n + tile - 1) / tile);
  sgemm_tiled<<<grid, block>>>(a.get(), b.get(), c.get(), n);
  GEMM_CHECK(gpu::last_error());
}

int run(int n, int iters) {
  const int device = 0;
  GEMM_CHECK(gpu::set_device(device));
  gpu::device_properties props{};
  GEMM_CHECK(gpu::get_device_properties(&props, device));
  std::printf("gemm: device=%s arch=%s\n", props.name, gpu::arch_name(props).c_str());
  std::printf("gemm: n=%d iters=%d tile=%d\n", n, iters, tile);

  const std::size_t count = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> host_a(count);
  std::vector<float> host_b(count);
  xorshift32 fill{0x2545F491u};
  std::generate(host_a.begin(), host_a.end(), [&] { return fill.uniform_minus_one_to_one(); });
  std::generate(host_b.begin(), host_b.end(), [&] { return fill.uniform_minus_one_to_one(); });

  device_buffer a(count);
  device_buffer b(count);
  device_buffer c(count);
  GEMM_CHECK(gpu::copy(a.get(), host_a.data(), a.bytes(), gpu::host_to_device));
  GEMM_CHECK(gpu::copy(b.get(), host_b.data(), b.bytes(), gpu::host_to_device));

  for (int i = 0; i < warmup_launches; ++i) {
    launch(a, b, c, n);
  }
  GEMM_CHECK(gpu::device_synchronize());

  event_pair timer;
  timer.start();
  for (int i = 0; i < iters; ++i) {
    launch(a, b, c, n);
  }
  const double mean_ms = static_cast<double>(timer.stop_ms()) / iters;
  const double flops = 2.0 * static_cast<double>(n) * n * n;
  std::printf("gemm: mean_kernel_ms=%.4f\n", mean_ms);
  std::printf("gemm: gflops=%.1f\n", mean_ms > 0.0 ? flops / (mean_ms * 1e6) : 0.0);

  std::vector<float> host_c(count);
  GEMM_CHECK(gpu::copy(host_c.data(), c.get(), c.bytes(), gpu::device_to_host));

  xorshift32 pick{0x9E3779B9u};
  double max_rel_err = 0.0;
  int worst_row = 0;
  int worst_col = 0;
  bool saw_nan = false;
  for (int s = 0; s < sampled_elements; ++s) {
    const int row = static_cast<int>(pick.next() % static_cast<std::uint32_t>(n));
    const int col = static_cast<int>(pick.next() % static_cast<std::uint32_t>(n));
    double reference = 0.0;
    for (int k = 0; k < n; ++k) {
      reference += static_cast<double>(host_a[static_cast<std::size_t>(row) * n + k]) *
                   static_cast<double>(host_b[static_cast<std::size_t>(k) * n + col]);
    }
    const double got = host_c[static_cast<std::size_t>(row) * n + col];
    const double rel_err = std::fabs(got - reference) / std::max(std::fabs(reference), 1.0);
    if (std::isnan(rel_err)) {
      saw_nan = true;
    }
    if (std::isnan(rel_err) || rel_err > max_rel_err) {
      max_rel_err = rel_err;
      worst_row = row;
      worst_col = col;
    }
  }
  if (saw_nan) {
    max_rel_err = std::nan("");
  }
  std::printf("gemm: max_rel_err=%.3e\n", max_rel_err);
  if (saw_nan || !(max_rel_err < tolerance)) {
    std::printf("gemm: FAIL correctness (max_rel_err %.3e at row %d col %d, limit %.0e)\n",
                max_rel_err, worst_row, worst_col, tolerance);
    return 1;
  }
  std::printf("gemm: PASS\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = setting(argc > 1 ? argv[1] : nullptr, "AORTA_GEMM_N", 512, "N");
  const int iters = setting(argc > 2 ? argv[2] : nullptr, "AORTA_GEMM_ITERS", 20, "ITERS");
  int devices = 0;
  const gpu::error_t error = gpu::get_device_count(&devices);
  if (error != gpu::success || devices == 0) {
    std::printf("gemm: no GPU device visible (%s); nothing to run\n",
                error != gpu::success ? gpu::error_string(error) : "device count is 0");
    return 2;
  }
  try {
    return run(n, iters);
  } catch (const gpu_failure& failure) {
    std::printf("gemm: %s\n", failure.what());
    return 1;
  }
}
