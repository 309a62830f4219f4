// The hip-gemm payload, built with nvcc: one source for both vendors, through
// examples/profiling/common/gpu_portability.hpp. nvcc compiles `.cu` files, hence this file.
//   nvcc -O3 -arch=sm_90 -o /tmp/cuda_gemm examples/profiling/ncu/cuda-gemm/gemm.cu
#include "../../rocprof/hip-gemm/gemm.hip"
