#!/usr/bin/env bash
# Copies what ab_bench.sh needs into DIR (default /work/main/.gpu/gpu_ab, ignored by git, which the
# device tool carries): a stripped aorta, the Debian libraries the GPU image lacks (Google
# Benchmark's among them), the CUDA payload built here with nvcc, and the scripts.
# usage: benchmarks/gpu_ab/stage.sh BUILD_DIR [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
dir=${2:-/work/main/.gpu/gpu_ab}
source "$root/benchmarks/stage_aorta.sh"
stage_aorta "$build" "$dir" 'libsqlite3.so.0*' 'libbenchmark.so.1*'
# sm_90 machine code for the H200; the CUDA runtime linked statically, cuBLAS from the GPU image.
nvcc -std=c++17 -O2 -arch=sm_90 -o "$dir/gemm_gbench" "$root/benchmarks/gpu_ab/gemm_gbench.cu" \
  -lbenchmark -lpthread -lcublas
cp "$root/benchmarks/gpu_ab/ab_bench.sh" "$dir/run.sh"
cp "$root/benchmarks/gpu_ab/run_pair.sh" "$dir/run_pair.sh"
du -sh "$dir"
