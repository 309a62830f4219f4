#!/usr/bin/env bash
# Issue 39's GPU goal, round four (README.md): run with bash from the root of a copy of /work/main,
# AORTA and OUT_DIR set by the coordinator's prologue. Phases ($H39_PHASES, in order):
#   calibrate  time tile configurations of the Triton GEMM, pick the fast/slow pair (calibration.json)
#   tiles      $H39_RUNS cells runs of cells_tiles.yaml (per-process tile draw: modes by design)
#   natural    $H39_RUNS cells runs of cells_natural.yaml (the issue's torch/cuBLAS payload)
# Each run is one `aorta sweep run` (base, twin = A/A, head = +10% K; $H39_TRIALS trials a cell,
# its own seed); $H39_WORKERS runs at a time, their GPU work serialised by a lock (modes_proton.py).
# A run still going at the phase's deadline is killed and counted as incomplete, never judged.
set -u
HERE=${PAYLOAD_DIR:-$PWD/.gpu/h39d}
LIMIT_S=${LIMIT_S:-480}
PHASES=${H39_PHASES:-calibrate tiles natural}
RUNS=${H39_RUNS:-20}
TRIALS=${H39_TRIALS:-10}
WORKERS=${H39_WORKERS:-10}
FIRST_RUN=${H39_FIRST_RUN:-1}
START=$(date +%s)
elapsed() { echo $(( $(date +%s) - START )); }
export TRITON_CACHE_DIR=/tmp/h39-triton-cache H39_GPU_LOCK=/tmp/h39-gpu.lock
export H39_POOL=$OUT_DIR/pool.jsonl AORTA HERE TRIALS OUT_DIR
mkdir -p "$OUT_DIR/runs" /tmp/h39-runs
echo "h39d: start $(date -u +%FT%TZ), phases: $PHASES, $RUNS runs of $TRIALS trials a cell, $WORKERS at a time"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv 2>&1 | tee "$OUT_DIR/machine.txt"
"$AORTA" --version >> "$OUT_DIR/machine.txt" 2>&1

one_run() {  # SOURCE INDEX DEADLINE_EPOCH
  local out=/tmp/h39-runs/$1-$2 left=$(( $3 - $(date +%s) ))
  [ $left -ge 60 ] || { echo "$1-$2 not started (${left} s left)" >> "$OUT_DIR/runs.txt"; return 0; }
  timeout -k 5 "$left" "$AORTA" sweep run --recipe "$HERE/cells_$1.yaml" --trials "$TRIALS" \
    --output "$out" --seed $(( 39000 + $2 )) -- python3 "$HERE/modes_proton.py" \
    > "$OUT_DIR/runs/$1-$2.txt" 2>&1
  echo "$1-$2 rc=$? at $(date -u +%T)" >> "$OUT_DIR/runs.txt"
}
export -f one_run

for phase in $PHASES; do
  case $phase in
  calibrate)
    echo "== calibrate ($(elapsed) s)"
    timeout 120 python3 "$HERE/calibrate_tiles.py" 1920 2112 > "$OUT_DIR/calibration.json" \
      2> "$OUT_DIR/calibration.log"
    echo "calibrate rc=$? ($(elapsed) s)"; tail -c 400 "$OUT_DIR/calibration.json"; echo
    ;;
  tiles|natural)
    if [ "$phase" = tiles ] && [ -n "${H39_TILES_FAST:-}" ]; then
      echo "tiles: preset fast $H39_TILES_FAST, slow $H39_TILES_SLOW"
    elif [ "$phase" = tiles ]; then
      pair=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["fast"], d["slow"])' \
        "$OUT_DIR/calibration.json" 2>/dev/null) || { echo "tiles: no calibration, skipped"; continue; }
      export H39_TILES_FAST=${pair% *} H39_TILES_SLOW=${pair#* }
      echo "tiles: fast $H39_TILES_FAST, slow $H39_TILES_SLOW"
    fi
    deadline=$(( START + LIMIT_S - 25 ))
    echo "== $phase: runs $FIRST_RUN-$(( FIRST_RUN + RUNS - 1 )) until +$(( deadline - START )) s ($(elapsed) s)"
    seq "$FIRST_RUN" $(( FIRST_RUN + RUNS - 1 )) | xargs -P "$WORKERS" -I{} bash -c "one_run $phase {} $deadline"
    echo "$phase done ($(elapsed) s): $(grep -c "^$phase-.* rc=" "$OUT_DIR/runs.txt") runs ended"
    grep "^$phase-" "$OUT_DIR/runs.txt" | awk '{print $2}' | sort | uniq -c
    ;;
  esac
done

echo "== summary ($(elapsed) s)"
python3 "$HERE/summarize_runs.py" /tmp/h39-runs "$H39_POOL" "$OUT_DIR/summary.json"
# The trial directories for the offline gate replay (aorta compare on the real captures).
tar czf "$OUT_DIR/trials.tgz" --exclude=stdout.log -C /tmp h39-runs 2>/dev/null
ls -la "$OUT_DIR" | tail -8
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >> "$OUT_DIR/machine.txt" 2>&1
echo "h39d: done at $(elapsed) s"
