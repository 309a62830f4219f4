#!/usr/bin/env bash
# Copies what ncu_gate.sh needs into DIR (default /work/main/.gpu/ncu, ignored by git, which the
# device tool carries): a stripped aorta, the Debian libraries the GPU image lacks, the cuda-gemm
# payload built here with nvcc for the H200 (sm_90, CUDA runtime linked statically), the script.
# usage: benchmarks/ncu_gate/stage.sh BUILD_DIR [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
dir=${2:-/work/main/.gpu/ncu}
source "$root/benchmarks/stage_aorta.sh"
stage_aorta "$build" "$dir" 'libsqlite3.so.0*'
nvcc -O3 -arch=sm_90 -o "$dir/cuda_gemm" "$root/examples/profiling/ncu/cuda-gemm/gemm.cu"
cp "$root/benchmarks/ncu_gate/ncu_gate.sh" "$dir/ncu_gate.sh"
du -sh "$dir"
