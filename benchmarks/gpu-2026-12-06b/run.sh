#!/usr/bin/env bash
# Issue 39, multi-modal timing (branch h39m): run on the GPU machine from the root of a copy of
# /work/main with AORTA (this branch's aorta) and OUT_DIR set (the coordinator's prologue).
# 1. mode check: 30 processes of the GEMM payload, per-launch times -> pool.jsonl;
# 2. one A/A and one +10% cells run through aorta (10 trials a cell) -> cells.jsonl;
# 3. until the time is spent: rounds of three processes in a shuffled order (base K=2240, a twin
#    K=2240, head K=2464) -> pool.jsonl, from which A/A and +10% cells runs are replayed offline
#    through the real CLI (benchmarks/gpu-2026-12-06b/README.md).
# Results are written line by line, so a kill at the limit keeps everything finished before it.
set -u
HERE=${PAYLOAD_DIR:-$PWD/.gpu/h39m}
BIN=${GEMM_BIN:-$HERE/gemm_modes}
LIMIT_S=${LIMIT_S:-240}
LAUNCHES=${LAUNCHES:-50}
START=$(date +%s)
elapsed() { echo $(( $(date +%s) - START )); }
echo "h39m: start $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1
# cuBLAS: the CUDA toolkit's, else the one torch's wheels bring.
if ldd "$BIN" | grep -q 'not found'; then
  for dir in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda-13*/lib64 /usr/local/cuda-13*/lib; do
    [ -e "$dir/libcublas.so.13" ] && export LD_LIBRARY_PATH=$dir:${LD_LIBRARY_PATH:-} && break
  done
fi
if ldd "$BIN" | grep -q 'not found'; then
  site=$(python3 -c 'import nvidia,os;print(os.path.dirname(list(nvidia.__path__)[0]))' 2>/dev/null)
  for dir in "$site"/nvidia/cu13/lib "$site"/nvidia/cublas/lib; do
    [ -e "$dir/libcublas.so.13" ] && export LD_LIBRARY_PATH=$dir:${LD_LIBRARY_PATH:-} && break
  done
fi
ldd "$BIN" | grep -E 'cublas|not found'
POOL=$OUT_DIR/pool.jsonl
one() {  # one process: phase round cell k
  local line t0 t1
  t0=$(date +%s%N)
  line=$("$BIN" --k "$4" --launches "$LAUNCHES" --jsonl 2>&1)
  local rc=$?
  t1=$(date +%s%N)
  if [ $rc -ne 0 ]; then echo "payload rc=$rc: $line"; return 1; fi
  echo "{\"phase\":\"$1\",\"round\":$2,\"cell\":\"$3\",\"ms\":$(( (t1 - t0) / 1000000 )),${line#\{}" >> "$POOL"
}
echo "== 1. mode check: 30 processes, K=2240, $LAUNCHES launches each ($(elapsed) s)"
for i in $(seq 0 29); do one modes "$i" base 2240 || break; done
python3 - "$POOL" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if '"modes"' in l]
meds = sorted(round(statistics.median(r["us"][10:]), 1) for r in rows)
print("per-process medians (launches 10+), us:", meds)
print("process wall ms:", statistics.median(r["ms"] for r in rows))
print("first 6 launches of 3 processes / median:",
      [[round(x / statistics.median(r["us"][10:]), 2) for x in r["us"][:6]] for r in rows[:3]])
PY
echo "== 2. cells runs through aorta ($(elapsed) s)"
for kind in aa ten; do
  out=/tmp/h39m-cells-$kind
  rm -rf "$out"
  "$AORTA" sweep run --recipe "$HERE/cells-$kind.yaml" --output "$out" --seed 39 -- "$BIN" --launches "$LAUNCHES" > "$OUT_DIR/cells-$kind.txt" 2>&1
  echo "cells $kind rc=$? ($(elapsed) s)"
  grep -E "BM_gemm|confound" "$OUT_DIR/cells-$kind.txt" | tail -4
  python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(json.dumps({"kind":sys.argv[2],"confound":m.get("confound")}))' \
    "$out/matrix.json" "$kind" >> "$OUT_DIR/cells.jsonl" 2>&1
  # the per-launch times of every trial, for re-judging offline
  for f in "$out"/*/trial_*/gbench/gbench.json "$out"/*/*/trial_*/gbench/gbench.json; do
    [ -e "$f" ] || continue
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps({"kind":sys.argv[2],"file":sys.argv[3],"us":[b["real_time"] for b in d["benchmarks"]]}))' \
      "$f" "$kind" "${f#$out/}" >> "$OUT_DIR/cells.jsonl"
  done
  [ "$(elapsed)" -gt 150 ] && break
done
echo "== 3. pool rounds until $((LIMIT_S - 15)) s ($(elapsed) s)"
round=0
while [ "$(elapsed)" -lt $((LIMIT_S - 15)) ]; do
  for cell in $(printf 'base\ntwin\nhead\n' | shuf); do
    k=2240; [ "$cell" = head ] && k=2464
    one pool "$round" "$cell" "$k" || break 2
  done
  round=$((round + 1))
done
echo "h39m: $round pool rounds, $(wc -l < "$POOL") processes in pool.jsonl, done at $(elapsed) s"
