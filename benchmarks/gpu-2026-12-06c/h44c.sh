#!/usr/bin/env bash
# Issue 44, GPU figure for 8 ranks (coordinator, third call): the within-run check
# `straggler(time_ms(^BM_RankWork)) <= 1.05` on torchrun with 8 ranks on the one card, each rank
# rank_straggler (kernel span on the GPU clock, ranks taking the card in turn: --serialize and
# ranks_serialized: true). Unchanged and heavy (one rank +10%, the heavy rank moving) sweeps of 5
# trials, four workers at once (the lock keeps the measured kernels apart), until the time is up.
# Every trial is its own judgement; nothing is reused.
set -u
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
here=$PWD/.gpu/h44r
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMP_NUM_THREADS=1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm --format=csv,noheader | tee "$OUT_DIR/gpu.txt"
lock=/tmp/h44c-card.lock
guard=${GUARD_S:-200}
sweep() {  # NAME HEAVY(-1 none) PORT
  local name=$1 heavy=$2 port=$3 t0=$(date +%s)
  "$AORTA" sweep run --recipe "$here/straggler.yaml" --output "/tmp/h44c/$name" --trials 5 \
    --check "ranks == 8" --check "straggler(time_ms(^BM_RankWork)) <= 1.05" -- \
    torchrun --standalone --nproc-per-node 8 --no-python "$here/rank_straggler" \
      --heavy-rank "$heavy" --extra-percent 10 --serialize "$lock" > "$OUT_DIR/$name.log" 2>&1
  local rc=$?
  python3 - "$name" "$heavy" "/tmp/h44c/$name" >> "$OUT_DIR/trials.csv" <<'PY'
import json, pathlib, sys
name, heavy, out = sys.argv[1], int(sys.argv[2]), pathlib.Path(sys.argv[3])
for result in sorted(out.glob("**/trial_*/result.json")):
    record = json.loads(result.read_text())
    for check in record.get("checks", []):
        if check.get("expression", "").startswith("straggler("):
            clean = lambda text: str(text).replace(",", ";").replace("\n", " ")
            print(f"{name},{heavy},{record.get('trial_index')},{record.get('verdict')},"
                  f"{check.get('passed')},{clean(check.get('actual'))},{clean(check.get('message', ''))}")
PY
  echo "== $(elapsed)s $name heavy=$heavy rc=$rc wall=$(( $(date +%s) - t0 ))s" | tee -a "$OUT_DIR/sweeps.txt"
}
echo "sweep,heavy,trial,verdict,check_passed,actual,message" > "$OUT_DIR/trials.csv"
worker() {  # W: alternates unchanged and heavy sweeps while the next one fits
  local w=$1 i=0 last=60
  while [ $(( $(elapsed) + last )) -le "$guard" ]; do
    local t0=$(date +%s) heavy=-1 kind=u
    if [ $(( i % 2 )) -eq 1 ]; then heavy=$(( (w * 3 + i) % 8 )); kind=h; fi
    sweep "w$w-$kind$i" "$heavy" $(( 29500 + w * 10 + i ))
    last=$(( $(date +%s) - t0 ))
    i=$(( i + 1 ))
  done
}
for w in 0 1 2 3; do worker "$w" & done
wait
python3 - "$OUT_DIR/trials.csv" <<'PY' | tee "$OUT_DIR/summary.txt"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for kind, pick in (("unchanged", lambda r: r["heavy"] == "-1"), ("one rank +10%", lambda r: r["heavy"] != "-1")):
    sel = [r for r in rows if pick(r)]
    failed = [r for r in sel if r["check_passed"] == "False"]
    named = [r for r in failed if r["heavy"] != "-1" and f"rank {r['heavy']} " in r["actual"]]
    print(f"{kind}: {len(sel)} trials, check failed {len(failed)}, naming the heavy rank {len(named)}")
PY
(cd /tmp/h44c && find . -name result.json | tar czf "$OUT_DIR/results.tgz" -T -)
echo "== $(elapsed)s done"
