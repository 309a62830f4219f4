// A bf16 cuBLAS GEMM as a Google Benchmark program, for the H200 figures of cells (A/A, +5%,
// +10% on one card, interleaved) and of the baseline gate. A trial of it takes about a second
// where the Proton payload of benchmarks/cells takes six (Python, torch and Proton start-up), so
// twenty runs of an experiment fit in a device lease.
//
// Before any benchmark runs, 60 fp32 GEMMs of 4096^3 heat the card and fill its caches with other
// data: the "heavier GPU work before it in the same trial" whose state the short GEMM inherits.
// BM_Gemm/<n> then times 20 + CELLS_EXTRA_LAUNCHES back-to-back launches of one bf16 n^3 GEMM per
// iteration with CUDA events (UseManualTime): an extra launch adds 5% of the same kernel's work,
// which a bigger matrix would not (cuBLAS picks another kernel at other shapes).
//
// Exit codes: 0 ran, 2 no usable CUDA device or cuBLAS (the environment, not the code), 64 usage.
#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr int base_launches = 20;
constexpr int heavy_gemms = 60;
constexpr int heavy_size = 4096;

cublasHandle_t handle = nullptr;

// Set once in main(); a malformed value is a usage error there, not a silent default.
int extra_launches = 0;

bool parse_extra_launches(const char* text, int& value) {
  if (text == nullptr || *text == '\0') {
    value = 0;
    return true;
  }
  char* end = nullptr;
  const long parsed = std::strtol(text, &end, 10);
  if (*end != '\0' || parsed < 0 || parsed > 100) return false;
  value = static_cast<int>(parsed);
  return true;
}

__global__ void fill_bf16(__nv_bfloat16* data, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count;
       i += size_t{gridDim.x} * blockDim.x) {
    const unsigned hashed = (static_cast<unsigned>(i) ^ seed) * 2654435761u;
    data[i] = __float2bfloat16(static_cast<float>(hashed % 2048) / 1024.0f - 1.0f);
  }
}

__global__ void fill_f32(float* data, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count;
       i += size_t{gridDim.x} * blockDim.x) {
    const unsigned hashed = (static_cast<unsigned>(i) ^ seed) * 2654435761u;
    data[i] = static_cast<float>(hashed % 2048) / 1024.0f - 1.0f;
  }
}

bool ok(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return true;
  std::fprintf(stderr, "gemm_gbench: %s: %s\n", what, cudaGetErrorString(status));
  return false;
}

bool ok(cublasStatus_t status, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return true;
  std::fprintf(stderr, "gemm_gbench: %s: cuBLAS status %d\n", what, static_cast<int>(status));
  return false;
}

bool heavy_work_first() {
  const size_t count = size_t{heavy_size} * heavy_size;
  float* buffers[3] = {};
  bool good = true;
  for (auto& buffer : buffers) {
    good = good && ok(cudaMalloc(&buffer, count * sizeof(float)), "cudaMalloc (fp32)");
  }
  if (good) {
    fill_f32<<<1024, 256>>>(buffers[0], count, 1u);
    fill_f32<<<1024, 256>>>(buffers[1], count, 2u);
    const float alpha = 1.0f;
    const float beta = 0.0f;
    for (int i = 0; good && i < heavy_gemms; ++i) {
      good = ok(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, heavy_size, heavy_size, heavy_size,
                            &alpha, buffers[0], heavy_size, buffers[1], heavy_size, &beta,
                            buffers[2], heavy_size),
                "cublasSgemm (heavy work)");
    }
    good = good && ok(cudaDeviceSynchronize(), "heavy work");
  }
  for (auto* buffer : buffers) cudaFree(buffer);
  return good;
}

bool launch_gemm(int n, const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c) {
  const float alpha = 1.0f;
  const float beta = 0.0f;
  return ok(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, CUDA_R_16BF, n, b,
                         CUDA_R_16BF, n, &beta, c, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F,
                         CUBLAS_GEMM_DEFAULT),
            "cublasGemmEx (bf16)");
}

void BM_Gemm(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const size_t count = size_t(n) * size_t(n);
  __nv_bfloat16* matrices[3] = {};
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  bool good = ok(cudaEventCreate(&start), "cudaEventCreate") &&
              ok(cudaEventCreate(&stop), "cudaEventCreate");
  for (auto& matrix : matrices) {
    good = good && ok(cudaMalloc(&matrix, count * sizeof(__nv_bfloat16)), "cudaMalloc (bf16)");
  }
  if (good) {
    fill_bf16<<<1024, 256>>>(matrices[0], count, 3u);
    fill_bf16<<<1024, 256>>>(matrices[1], count, 4u);
    // cuBLAS picks its kernel on the first call of a shape: outside the timed loop.
    good = launch_gemm(n, matrices[0], matrices[1], matrices[2]) &&
           ok(cudaDeviceSynchronize(), "warm-up GEMM");
  }
  const int launches = base_launches + extra_launches;
  for (auto _ : state) {
    if (!good) break;
    good = ok(cudaEventRecord(start), "cudaEventRecord");
    for (int i = 0; good && i < launches; ++i) {
      good = launch_gemm(n, matrices[0], matrices[1], matrices[2]);
    }
    float elapsed_ms = 0.0f;
    good = good && ok(cudaEventRecord(stop), "cudaEventRecord") &&
           ok(cudaEventSynchronize(stop), "cudaEventSynchronize") &&
           ok(cudaEventElapsedTime(&elapsed_ms, start, stop), "cudaEventElapsedTime");
    state.SetIterationTime(elapsed_ms / 1000.0);
  }
  if (!good) state.SkipWithError("a CUDA or cuBLAS call failed (see stderr)");
  state.counters["launches"] = launches;
  for (auto* matrix : matrices) cudaFree(matrix);
  if (start != nullptr) cudaEventDestroy(start);
  if (stop != nullptr) cudaEventDestroy(stop);
}

BENCHMARK(BM_Gemm)->Arg(2048)->Arg(8192)->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 64;
  if (!parse_extra_launches(std::getenv("CELLS_EXTRA_LAUNCHES"), extra_launches)) {
    std::fprintf(stderr, "gemm_gbench: CELLS_EXTRA_LAUNCHES must be an integer from 0 to 100\n");
    return 64;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "gemm_gbench: no CUDA device\n");
    return 2;
  }
  if (!ok(cublasCreate(&handle), "cublasCreate")) return 2;
  if (!heavy_work_first()) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  cublasDestroy(handle);
  return 0;
}
