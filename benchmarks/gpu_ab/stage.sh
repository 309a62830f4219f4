#!/usr/bin/env bash
# Copies what ab_bench.sh needs into DIR (default /work/main/.gpu/gpu_ab, ignored by git, which the
# device tool carries): a stripped aorta, the Debian libraries the GPU image lacks (Google
# Benchmark's among them), the CUDA payload built here with nvcc, and the scripts.
# usage: benchmarks/gpu_ab/stage.sh BUILD_DIR [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
dir=${2:-/work/main/.gpu/gpu_ab}
rm -rf "$dir"
mkdir -p "$dir/lib"
strip -o "$dir/aorta" "$build/harness/aorta"
cp /usr/lib/x86_64-linux-gnu/libfmt.so.9* /usr/lib/x86_64-linux-gnu/libyaml-cpp.so.0.7* \
  /usr/lib/x86_64-linux-gnu/libre2.so.9* /usr/lib/x86_64-linux-gnu/libsqlite3.so.0* \
  /usr/lib/x86_64-linux-gnu/libbenchmark.so.1* "$dir/lib/"
# sm_90 machine code for the H200; the CUDA runtime linked statically, cuBLAS from the GPU image.
nvcc -std=c++17 -O2 -arch=sm_90 -o "$dir/gemm_gbench" "$root/benchmarks/gpu_ab/gemm_gbench.cu" \
  -lbenchmark -lpthread -lcublas
cp "$root/benchmarks/gpu_ab/ab_bench.sh" "$dir/run.sh"
cp "$root/benchmarks/gpu_ab/run_pair.sh" "$dir/run_pair.sh"
du -sh "$dir"
