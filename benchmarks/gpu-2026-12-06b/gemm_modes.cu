// Per-launch CUDA-event times of one cuBLAS bf16 GEMM (M x N x K, row-major A[M,K] @ B[K,N]), one
// process per trial, written as Google Benchmark JSON (one repetition per launch, manual time), so
// aorta's gbench collector reads it and a process costs a fraction of a second, not the 2-3 s of
// `import torch`. Issue 39, "multi-modal timing": the same GEMM measured from Python had
// per-process medians in two modes (~28-33 us and ~38-50 us on an H100) and a slow first 3-5
// launches; this payload keeps every launch, the slow first ones included, so the reader's warm-up
// rule is what drops them.
//
//   gemm_modes [--k K] [--m M] [--n N] [--launches L] [--idle-ms MS] [--jsonl]
//              [--benchmark_out=PATH] [--benchmark_out_format=json] [--benchmark_repetitions=R]
// --benchmark_repetitions, when given, sets the launches (aorta's gbench `repetitions`).
// GEMM_K in the environment sets K (the recipe's cells); --k after it wins.
// --jsonl prints one line {"k":K,"us":[...]} on stdout instead of (or beside) the JSON file.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <chrono>
#include <vector>

namespace {

void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "gemm_modes: %s: %s\n", what, cudaGetErrorString(status));
    std::exit(2);  // environment: no usable GPU
  }
}

void check_cublas(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "gemm_modes: %s: cuBLAS status %d\n", what, static_cast<int>(status));
    std::exit(2);
  }
}

__global__ void fill(__nv_bfloat16* data, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    data[i] = __float2bfloat16(static_cast<float>(h & 0xffff) / 65536.0f - 0.5f);
  }
}

struct options {
  int m = 2048, n = 2048, k = 2240, launches = 50;
  int idle_ms = -1;  // >= 0: one untimed GEMM, then this long idle, before the timed launches
  bool jsonl = false;
  std::string out;
};

bool take_int(const char* arg, const char* name, int& value) {
  const size_t len = std::strlen(name);
  if (std::strncmp(arg, name, len) != 0 || arg[len] != '=') return false;
  value = std::atoi(arg + len + 1);
  return true;
}

options parse(int argc, char** argv) {
  options o;
  // The cells of a recipe differ by environment (mitigations' env), so K can come from there.
  if (const char* k = std::getenv("GEMM_K")) o.k = std::atoi(k);
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const bool has_next = i + 1 < argc;
    if (!std::strcmp(a, "--k") && has_next) o.k = std::atoi(argv[++i]);
    else if (!std::strcmp(a, "--m") && has_next) o.m = std::atoi(argv[++i]);
    else if (!std::strcmp(a, "--n") && has_next) o.n = std::atoi(argv[++i]);
    else if (!std::strcmp(a, "--launches") && has_next) o.launches = std::atoi(argv[++i]);
    else if (!std::strcmp(a, "--idle-ms") && has_next) o.idle_ms = std::atoi(argv[++i]);
    else if (!std::strcmp(a, "--jsonl")) o.jsonl = true;
    else if (!std::strncmp(a, "--benchmark_out=", 16)) o.out = a + 16;
    else if (!std::strncmp(a, "--benchmark_out_format=", 23)) continue;
    else if (take_int(a, "--benchmark_repetitions", o.launches)) continue;
    else {
      std::fprintf(stderr, "gemm_modes: unknown argument '%s'\n", a);
      std::exit(64);
    }
  }
  if (o.m <= 0 || o.n <= 0 || o.k <= 0 || o.launches <= 0 || o.launches > 100000) {
    std::fprintf(stderr, "gemm_modes: sizes and launches must be positive\n");
    std::exit(64);
  }
  return o;
}

void write_gbench(const options& o, const std::vector<float>& us) {
  FILE* f = std::fopen(o.out.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "gemm_modes: cannot write %s\n", o.out.c_str());
    std::exit(1);
  }
  std::fprintf(f,
               "{\n\"context\": {\"executable\": \"gemm_modes\", \"num_cpus\": 1, "
               "\"mhz_per_cpu\": 0, \"library_build_type\": \"release\", "
               "\"json_schema_version\": 1, \"gemm\": \"%dx%dx%d bf16\"},\n\"benchmarks\": [\n",
               o.m, o.n, o.k);
  for (size_t i = 0; i < us.size(); ++i) {
    std::fprintf(f,
                 "{\"name\": \"BM_gemm_bf16/manual_time\", \"family_index\": 0, "
                 "\"per_family_instance_index\": 0, \"run_name\": \"BM_gemm_bf16/manual_time\", "
                 "\"run_type\": \"iteration\", \"repetitions\": %zu, \"repetition_index\": %zu, "
                 "\"threads\": 1, \"iterations\": 1, \"real_time\": %.4f, \"cpu_time\": %.4f, "
                 "\"time_unit\": \"us\"}%s\n",
                 us.size(), i, us[i], us[i], i + 1 < us.size() ? "," : "");
  }
  std::fprintf(f, "]\n}\n");
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  const size_t a_count = static_cast<size_t>(o.m) * o.k;
  const size_t b_count = static_cast<size_t>(o.k) * o.n;
  const size_t c_count = static_cast<size_t>(o.m) * o.n;
  __nv_bfloat16 *a = nullptr, *b = nullptr, *c = nullptr;
  check_cuda(cudaMalloc(&a, a_count * sizeof(*a)), "cudaMalloc A");
  check_cuda(cudaMalloc(&b, b_count * sizeof(*b)), "cudaMalloc B");
  check_cuda(cudaMalloc(&c, c_count * sizeof(*c)), "cudaMalloc C");
  fill<<<256, 256>>>(a, a_count, 1u);
  fill<<<256, 256>>>(b, b_count, 2u);
  check_cuda(cudaGetLastError(), "fill");
  cublasHandle_t handle;
  check_cublas(cublasCreate(&handle), "cublasCreate");
  const float alpha = 1.0f, beta = 0.0f;
  std::vector<cudaEvent_t> starts(o.launches), ends(o.launches);
  for (int i = 0; i < o.launches; ++i) {
    check_cuda(cudaEventCreate(&starts[i]), "cudaEventCreate");
    check_cuda(cudaEventCreate(&ends[i]), "cudaEventCreate");
  }
  // --idle-ms: cuBLAS loaded by one untimed GEMM, then the GPU left idle (its clocks fall) as a
  // Python payload leaves it while it imports, before the timed launches.
  if (o.idle_ms >= 0) {
    check_cublas(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, o.n, o.m, o.k, &alpha, b,
                              CUDA_R_16BF, o.n, a, CUDA_R_16BF, o.k, &beta, c, CUDA_R_16BF, o.n,
                              CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx");
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    std::this_thread::sleep_for(std::chrono::milliseconds(o.idle_ms));
  }
  // Launched back to back like torch's `a @ b` in a loop; row-major C = A B is column-major
  // C^T = B^T A^T, so B comes first.
  for (int i = 0; i < o.launches; ++i) {
    check_cuda(cudaEventRecord(starts[i]), "cudaEventRecord");
    check_cublas(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, o.n, o.m, o.k, &alpha, b,
                              CUDA_R_16BF, o.n, a, CUDA_R_16BF, o.k, &beta, c, CUDA_R_16BF, o.n,
                              CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx");
    check_cuda(cudaEventRecord(ends[i]), "cudaEventRecord");
  }
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<float> us(o.launches);
  for (int i = 0; i < o.launches; ++i) {
    float ms = 0.0f;
    check_cuda(cudaEventElapsedTime(&ms, starts[i], ends[i]), "cudaEventElapsedTime");
    us[i] = ms * 1000.0f;
  }
  if (!o.out.empty()) write_gbench(o, us);
  if (o.jsonl || o.out.empty()) {
    std::printf("{\"k\":%d,\"us\":[", o.k);
    for (int i = 0; i < o.launches; ++i) std::printf("%s%.3f", i ? "," : "", us[i]);
    std::printf("]}\n");
  }
  cublasDestroy(handle);
  return 0;
}
