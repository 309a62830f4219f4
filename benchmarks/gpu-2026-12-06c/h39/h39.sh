#!/usr/bin/env bash
# Issue 39, multi-modal timing on the GPU (branch h39): run with bash from the root of a copy of
# /work/main, with AORTA and OUT_DIR set by the coordinator's prologue. Time limit 200 s.
# 1. mode check: up to 20 torch processes of the payload that showed modes (K=2240), per-launch
#    CUDA-event times -> pool.jsonl, per-process medians -> modes.txt;
# 2. two processes with the timed launches under Proton (data=trace) -> proton/ (chrome traces:
#    the kernels' own durations beside the CUDA-event times, and reader fixtures);
# 3. cells base / twin (A/A) / head (+10% K) through the real `aorta sweep run`, as many trials a
#    cell as the time left allows (at most 10): every process used once, no resampling.
# Every result is written as it comes, so a kill at the limit keeps what finished before it.
set -u
HERE=${PAYLOAD_DIR:-$PWD/.gpu/h39}
LIMIT_S=${LIMIT_S:-200}
PY=${PYTHON:-python3}
START=$(date +%s)
elapsed() { echo $(( $(date +%s) - START )); }
export H39_POOL=$OUT_DIR/pool.jsonl
echo "h39: start $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 \
  | tee "$OUT_DIR/machine.txt"
"$AORTA" --version >> "$OUT_DIR/machine.txt" 2>&1

one() {  # one payload process outside aorta: phase, K; prints its wall ms
  local t0 t1 rc
  t0=$(date +%s%N)
  H39_PHASE=$1 timeout 60 "$PY" "$HERE/modes_torch.py" --k "$2" > "$OUT_DIR/payload-last.txt" 2>&1
  rc=$?
  t1=$(date +%s%N)
  echo "$1 k=$2 rc=$rc wall_ms=$(( (t1 - t0) / 1000000 ))" >> "$OUT_DIR/processes.txt"
  [ $rc -eq 0 ] || { echo "payload failed rc=$rc:"; tail -5 "$OUT_DIR/payload-last.txt"; return 1; }
  echo $(( (t1 - t0) / 1000000 ))
}

echo "== 1. mode check: K=2240, up to 20 processes ($(elapsed) s)"
walls=()
for i in $(seq 1 20); do
  w=$(one modes 2240) || break
  walls+=("$w")
  [ "$(elapsed)" -ge 70 ] && break
done
echo "mode check: ${#walls[@]} processes, wall ms: ${walls[*]:-none} ($(elapsed) s)"
"$PY" "$HERE/summarize.py" "$H39_POOL" modes > "$OUT_DIR/modes.txt" 2>&1
tail -2 "$OUT_DIR/modes.txt"
[ ${#walls[@]} -gt 0 ] || { echo "h39: no payload process ran; stopping"; exit 1; }
per_process_ms=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')

echo "== 2. Proton (data=trace) on two processes ($(elapsed) s)"
mkdir -p "$OUT_DIR/proton"
for k in 2240 2464; do
  H39_PROTON=$OUT_DIR/proton/k$k one proton "$k" > /dev/null || echo "proton k=$k failed"
done
ls -l "$OUT_DIR/proton" 2>&1 | tail -3

left=$(( LIMIT_S - $(elapsed) - 20 ))
trials=$(( left * 1000 / (3 * (per_process_ms + 300)) ))
[ $trials -gt 10 ] && trials=10
echo "== 3. cells: $trials trials a cell (${per_process_ms} ms a process, ${left} s left) ($(elapsed) s)"
if [ $trials -ge 3 ]; then
  out=/tmp/h39-cells
  rm -rf "$out"
  H39_PHASE=cells timeout "$left" "$AORTA" sweep run --recipe "$HERE/cells.yaml" --trials "$trials" \
    --output "$out" --seed 39 -- "$PY" "$HERE/modes_torch.py" > "$OUT_DIR/cells.txt" 2>&1
  echo "cells rc=$? ($(elapsed) s)"
  grep -E "BM_gemm|confound|multi-modal" "$OUT_DIR/cells.txt" | tail -8
  cp "$out/matrix.json" "$OUT_DIR/matrix.json" 2>/dev/null || echo "no matrix.json"
fi
"$PY" "$HERE/summarize.py" "$H39_POOL" > "$OUT_DIR/summary.txt" 2>&1
tail -3 "$OUT_DIR/summary.txt"
echo "h39: done at $(elapsed) s, $(wc -l < "$H39_POOL") processes in pool.jsonl"
