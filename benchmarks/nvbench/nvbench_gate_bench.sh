#!/usr/bin/env bash
# The regression gate on an nvbench benchmark, beside nvbench's own comparison (benchmarks/nvbench/
# README.md). On the GPU machine, from the directory stage.sh filled:
#   1. the fixture: one plain nvbench run of the example (nvbench's defaults, batch included), and
#      one with a malformed AORTA_NVBENCH_EXTRA_PERCENT (the state throws: nvbench's own
#      "Unexpected error" skip);
#   2. a baseline of BASE_TRIALS trials of the unchanged example;
#   3. ROUNDS rounds, each one gate on the unchanged example and one with
#      AORTA_NVBENCH_EXTRA_PERCENT=10 (the same kernel walking 10% more of K), TRIALS trials per
#      gate and up to 3x that where the gate asks for more, until BUDGET_S is spent.
# Every gate is a real `aorta sweep run --baseline`; nothing is resampled. Every nvbench JSON and
# gate.json comes back in $OUT/nvbench-gate.tgz, for nvbench_compare.py to read the same files.
#
# usage: run.sh   (env: OUT, BUDGET_S=300, ROUNDS=10, TRIALS=3, BASE_TRIALS=10)
set -uo pipefail
set -x
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
aorta="$here/aorta"
bench="$here/gemm_bench"
out=${OUT:-/tmp/nvbench-gate-out}
work=$(mktemp -d)
budget=${BUDGET_S:-300}
rounds=${ROUNDS:-10}
trials=${TRIALS:-3}
base_trials=${BASE_TRIALS:-10}
gate="time +5%, count exact, max_trials $((3 * trials))"
mkdir -p "$out" "$work/baselines" "$work/fixture"
start=$SECONDS

nvidia-smi --query-gpu=name,driver_version,uuid --format=csv > "$work/gpu.csv" 2>&1
"$bench" --version > "$work/nvbench-version.txt" 2>&1
"$bench" --timeout 5 --json "$work/fixture/h200-gemm.json" > "$work/fixture/h200-gemm.log" 2>&1
echo "fixture rc=$?"
AORTA_NVBENCH_EXTRA_PERCENT=ten "$bench" --json "$work/fixture/h200-gemm-error.json" \
  > "$work/fixture/h200-gemm-error.log" 2>&1
echo "error fixture rc=$?"
echo "fixtures done at $((SECONDS - start)) s"

"$aorta" sweep run --recipe "$here/gate.yaml" --output "$work/base/gemm" --trials "$base_trials" \
  -- "$bench" --no-batch > "$work/base.log" 2>&1
echo "baseline rc=$?"
"$aorta" baseline record "$work/base/gemm" --into "$work/baselines" > "$work/baseline-record.log" 2>&1
echo "baseline record rc=$? at $((SECONDS - start)) s"

summary="$work/summary.tsv"
printf 'round\tvariant\texit\tverdict\ttrials\textra_rounds\tambiguous_left\tfailing_rows\tseconds\n' > "$summary"
last_round=0
for ((round = 0; round < rounds; round++)); do
  (( SECONDS - start + last_round < budget )) || break
  round_start=$SECONDS
  for variant in same slow; do
    extra=0
    [[ $variant == slow ]] && extra=10
    # The test is named after the last directory: every gate meets the baseline of "gemm".
    dir="$work/gates/r$round-$variant/gemm"
    mkdir -p "$(dirname "$dir")"
    t0=$SECONDS
    AORTA_NVBENCH_EXTRA_PERCENT=$extra "$aorta" sweep run --recipe "$here/gate.yaml" \
      --output "$dir" --trials "$trials" --baseline "$work/baselines" --gate "$gate" \
      -- "$bench" --no-batch > "$dir.log" 2>&1
    rc=$?
    python3 - "$dir/gate.json" "$round" "$variant" "$rc" "$((SECONDS - t0))" >> "$summary" <<'PY'
import json, sys
path, rnd, variant, rc, secs = sys.argv[1:]
try:
    g = json.load(open(path))
except OSError:
    print("\t".join([rnd, variant, rc, "no-gate.json", "-", "-", "-", "-", secs]))
    sys.exit(0)
failing = ",".join(f"{r['quantity']}:{r['verdict']}:{(r['delta'] or 0) * 100:+.1f}%"
                   for r in g["rows"] if r["fails"])
print("\t".join([rnd, variant, rc, g["verdict"], str(g["trials"]), str(g["extra_rounds"]),
                 str(g["ambiguous"]), failing or "-", secs]))
PY
  done
  last_round=$((SECONDS - round_start))
done
echo "gates done at $((SECONDS - start)) s, $round round(s)"
cat "$summary"
cp "$summary" "$out/summary.tsv"
tar czf "$out/nvbench-gate.tgz" -C "$work" .
ls -la "$out"
