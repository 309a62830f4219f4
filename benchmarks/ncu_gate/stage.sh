#!/usr/bin/env bash
# Copies what ncu_gate.sh needs into DIR (default /work/main/.gpu/ncu, ignored by git, which the
# device tool carries): a stripped aorta, the Debian libraries the GPU image lacks, the cuda-gemm
# payload built here with nvcc for the H200 (sm_90, CUDA runtime linked statically), the script.
# usage: benchmarks/ncu_gate/stage.sh BUILD_DIR [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
dir=${2:-/work/main/.gpu/ncu}
rm -rf "$dir"
mkdir -p "$dir/lib"
strip -o "$dir/aorta" "$build/harness/aorta"
cp /usr/lib/x86_64-linux-gnu/libfmt.so.9* /usr/lib/x86_64-linux-gnu/libyaml-cpp.so.0.7* \
  /usr/lib/x86_64-linux-gnu/libre2.so.9* /usr/lib/x86_64-linux-gnu/libsqlite3.so.0* "$dir/lib/"
nvcc -O3 -arch=sm_90 -o "$dir/cuda_gemm" "$root/examples/profiling/ncu/cuda-gemm/gemm.cu"
cp "$root/benchmarks/ncu_gate/ncu_gate.sh" "$dir/ncu_gate.sh"
du -sh "$dir"
