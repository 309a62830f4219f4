#!/usr/bin/env bash
# Issue 39, second GPU call (branch h39m): the first call's C++ payload showed no process modes
# (30 processes within 1%: the GPU stays at full clock when the processes start 0.5 s apart and
# cuBLAS's first call takes ~100 ms). Python payloads leave the GPU idle for seconds while they
# import; this run leaves it idle inside the process (--idle-ms after one untimed GEMM) to see
# whether the modes come from there, then pools rounds with the idle that spread the most.
# Writes pool.jsonl line by line (same format as run.sh) for replay_pool.py.
set -u
HERE=${PAYLOAD_DIR:-$PWD/.gpu/h39m}
BIN=${GEMM_BIN:-$HERE/gemm_modes}
LIMIT_S=${LIMIT_S:-150}
LAUNCHES=${LAUNCHES:-50}
START=$(date +%s)
elapsed() { echo $(( $(date +%s) - START )); }
echo "h39m rerun: start $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1
if ldd "$BIN" | grep -q 'not found'; then
  for dir in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -e "$dir/libcublas.so.13" ] && export LD_LIBRARY_PATH=$dir:${LD_LIBRARY_PATH:-} && break
  done
fi
POOL=$OUT_DIR/pool.jsonl
one() {  # phase round cell k idle_ms
  local line t0 t1
  t0=$(date +%s%N)
  line=$("$BIN" --k "$4" --launches "$LAUNCHES" --idle-ms "$5" --jsonl 2>&1)
  local rc=$?
  t1=$(date +%s%N)
  if [ $rc -ne 0 ]; then echo "payload rc=$rc: $line"; return 1; fi
  echo "{\"phase\":\"$1\",\"round\":$2,\"cell\":\"$3\",\"idle_ms\":$5,\"ms\":$(( (t1 - t0) / 1000000 )),${line#\{}" >> "$POOL"
}
echo "== 1. mode check: 6 processes at each idle (ms) 0, 300, 1500 ($(elapsed) s)"
for idle in 0 300 1500; do
  for i in $(seq 0 5); do one "modes-$idle" "$i" base 2240 "$idle" || break; done
done
best=$(python3 - "$POOL" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
spread = {}
for idle in (0, 300, 1500):
    meds = sorted(round(statistics.median(r["us"][10:]), 2) for r in rows if r["idle_ms"] == idle)
    if meds:
        spread[idle] = meds[-1] / meds[0]
        print(f"idle {idle} ms: per-process medians {meds} (max/min {spread[idle]:.3f})", file=sys.stderr)
print(max(spread, key=spread.get) if spread else 0)
PY
)
echo "== 2. pool rounds at idle $best ms until $((LIMIT_S - 10)) s ($(elapsed) s)"
round=0
while [ "$(elapsed)" -lt $((LIMIT_S - 10)) ]; do
  for cell in $(printf 'base\ntwin\nhead\n' | shuf); do
    k=2240; [ "$cell" = head ] && k=2464
    one pool "$round" "$cell" "$k" "$best" || break 2
  done
  round=$((round + 1))
done
echo "h39m rerun: $round pool rounds at idle $best ms, $(wc -l < "$POOL") processes, done at $(elapsed) s"
