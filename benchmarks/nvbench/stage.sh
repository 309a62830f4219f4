#!/usr/bin/env bash
# Copies what nvbench_gate_bench.sh needs into DIR (default .gpu/nvbench of the checkout): a
# stripped aorta and the Debian libraries Ubuntu lacks, the nvbench example built with nvcc against
# the cuda-bench wheel's cu13 libnvbench (and that library beside it), the gate recipe, and the
# script itself as run.sh.
# usage: benchmarks/nvbench/stage.sh BUILD_DIR WHEEL_DIR [DIR]
#   WHEEL_DIR: the unpacked cuda_bench-0.3.0 wheel (its cuda/bench/cu13/nvbench)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
nvbench=$2/cuda/bench/cu13/nvbench
dir=${3:-$root/.gpu/nvbench}
source "$root/benchmarks/stage_aorta.sh"
stage_aorta "$build" "$dir"
cp "$nvbench/lib/libnvbench.so" "$dir/"
# $ORIGIN: the binary finds libnvbench.so beside it. libnvbench.so needs NVML, which comes with
# the driver (libnvidia-ml.so.1): a build host without a driver has no library to resolve it.
/usr/local/cuda/bin/nvcc -std=c++17 -O2 -arch=sm_90 -I"$nvbench/include" -o "$dir/gemm_bench" \
  "$root/examples/profiling/nvbench/gpu-gemm/gemm_bench.cu" "$nvbench/lib/libnvbench_main.a" \
  -L"$nvbench/lib" -lnvbench -Xlinker -rpath -Xlinker '$ORIGIN' -Xlinker --allow-shlib-undefined
cp "$root/benchmarks/nvbench/gate.yaml" "$dir/"
cp "$root/benchmarks/nvbench/nvbench_gate_bench.sh" "$dir/run.sh"
du -sh "$dir"
