#!/usr/bin/env bash
# On the GPU machine: the short GEMM (2048^3) and the long one (8192^3) through ab_bench.sh, on
# two GPUs at once when there are two (each experiment keeps its own card), else one after the
# other with half the budget each. cuBLAS comes from the image (CUDA toolkit or the pip wheel).
# usage: run_pair.sh   (env: OUT, BUDGET_S=400, and ab_bench.sh's)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:?OUT must name the output directory}
budget=${BUDGET_S:-400}
cublas=$(find /usr/local/cuda*/lib* /usr/local/cuda*/targets/*/lib /usr/lib/python3*/site-packages \
  /usr/local/lib/python3*/dist-packages /usr/local/lib/python3*/site-packages \
  -name 'libcublas.so.13' 2>/dev/null | head -1)
[[ -n "$cublas" ]] && export LD_LIBRARY_PATH="$(dirname "$cublas")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "cuBLAS: ${cublas:-not found}"
gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | wc -l)
mkdir -p "$out"
if ((gpus >= 2)); then
  CUDA_VISIBLE_DEVICES=0 SIZE=2048 OUT="$out/short" BUDGET_S=$budget bash "$here/run.sh" \
    > "$out/short.log" 2>&1 &
  CUDA_VISIBLE_DEVICES=1 SIZE=8192 OUT="$out/long" BUDGET_S=$budget bash "$here/run.sh" \
    > "$out/long.log" 2>&1 &
  wait
else
  SIZE=2048 OUT="$out/short" BUDGET_S=$((budget / 2)) bash "$here/run.sh" > "$out/short.log" 2>&1
  SIZE=8192 OUT="$out/long" BUDGET_S=$((budget / 2)) bash "$here/run.sh" > "$out/long.log" 2>&1
fi
tail -3 "$out/short.log" "$out/long.log"
