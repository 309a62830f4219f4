#!/usr/bin/env bash
# Issue 43 (branch h43r), GPU: "same work, slower" from another process. Runs from the root of a
# copy of /work/main with AORTA and OUT_DIR set by the coordinator's prologue; payloads in
# .gpu/h43r (sources in benchmarks/gpu-2026-12-06c/h43r; cuda_gemm is
# examples/profiling/ncu/cuda-gemm built with nvcc 13 for sm_90).
#   0. raw: cuda_gemm N 4096 alone and beside corun, its own CUDA-event time (no profiler);
#   1. ncu_corun: cells base vs loaded, ncu instructions + kernel time, 5 rounds;
#   2. ncu_corun_work: the same with metrics: work (DRAM/L2 bytes too), if time is left.
# Limit 110 s; every result is written as soon as it exists.
set -u
HERE=$PWD/.gpu/h43r
START=$(date +%s)
elapsed() { echo $(( $(date +%s) - START )); }
echo "h43r2: start $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm,compute_mode --format=csv,noheader 2>&1 \
  | tee "$OUT_DIR/gpu.txt"
"$AORTA" --version 2>&1 | head -1
chmod +x "$HERE/corun" "$HERE/cuda_gemm" "$HERE/corun_switch.sh" 2>/dev/null
command -v ncu

chmod +x "$HERE/corun_daemon.sh" "$HERE/corun_switch.sh"
rm -f /tmp/h43r-go /tmp/h43r-ready
bash "$HERE/corun_daemon.sh" /tmp/h43r-go /tmp/h43r-ready &
daemon=$!
trap 'rm -f /tmp/h43r-go; sleep 0.5; kill $daemon 2>/dev/null; cp /tmp/h43r-go.history "$OUT_DIR/corun-history.txt" 2>/dev/null' EXIT
# One trial by hand through the switch: the neighbour comes, the GEMM runs beside it.
AB_CORUN=1 AORTA_GEMM_N=4096 AORTA_GEMM_ITERS=10 timeout 30 bash "$HERE/corun_switch.sh" "$HERE/cuda_gemm" 2>&1 \
  | grep -E "mean_kernel_ms|FAIL|PASS|error|corun" | sed "s/^/switch=1 /" | tee -a "$OUT_DIR/raw.txt"
AORTA_GEMM_N=4096 AORTA_GEMM_ITERS=10 timeout 30 bash "$HERE/corun_switch.sh" "$HERE/cuda_gemm" 2>&1 \
  | grep -E "mean_kernel_ms|FAIL|PASS|error" | sed "s/^/switch=0 /" | tee -a "$OUT_DIR/raw.txt"

run_ab() {  # NAME RECIPE LAST_START
  local name=$1 recipe=$2 last=$3
  if [ "$(elapsed)" -gt "$last" ]; then echo "$name: skipped, $(elapsed) s spent"; return; fi
  local out=/tmp/h43r2-$name
  rm -rf "$out"
  echo "== $name ($(elapsed) s)"
  "$AORTA" sweep run --recipe "$HERE/$recipe" --output "$out" --seed 43 -- \
    bash "$HERE/corun_switch.sh" "$HERE/cuda_gemm" > "$OUT_DIR/$name.txt" 2>&1
  echo "$name rc=$? ($(elapsed) s)"
  grep -E "^aorta: (summary|confound|FAILED)" "$OUT_DIR/$name.txt"
  cp "$out/matrix.json" "$OUT_DIR/$name-matrix.json" 2>/dev/null
  cp "$out/matrix.md" "$OUT_DIR/$name-matrix.md" 2>/dev/null
  # Trial 0 of each cell: the payload's and the neighbour's lines, and ncu's CSV.
  for cell in base loaded; do
    local t=$out/$cell/trial_0
    { echo "--- $cell stdout"; tail -6 "$t/stdout.log"; echo "--- $cell stderr"; tail -6 "$t/stderr.log"; } \
      >> "$OUT_DIR/$name-logs.txt" 2>&1
    [ -e "$t/ncu/ncu.csv" ] && [ "$(stat -c %s "$t/ncu/ncu.csv")" -lt 300000 ] \
      && cp "$t/ncu/ncu.csv" "$OUT_DIR/$name-$cell-trial0-ncu.csv"
  done
  # aorta diff on two real captures of the run (one trial of each cell).
  "$AORTA" diff "$out/base/trial_0" "$out/loaded/trial_0" > "$OUT_DIR/$name-diff.txt" 2>&1
  echo "diff rc=$?"
  # The cells run as report.html shows it: the A/B verdict and the flame graph of the last trials.
  "$AORTA" report "$out" > "$OUT_DIR/$name-report.txt" 2>&1
  echo "report rc=$?"
  [ -e "$out/report.html" ] && [ "$(stat -c %s "$out/report.html")" -lt 1000000 ] \
    && cp "$out/report.html" "$OUT_DIR/$name-report.html"
}
run_ab ncu_corun ncu_corun.yaml 30
run_ab ncu_corun_work ncu_corun_work.yaml 55
echo "h43r2: done at $(elapsed) s"
