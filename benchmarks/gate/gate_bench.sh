#!/usr/bin/env bash
# The regression gate's false alarms and detections on real runs (benchmarks/README.md, "gate").
# Records a baseline per example, then alternates gates on unchanged code and on a +10%-work
# variant (a payload knob: more elements/rows, so every kernel does ~10% more memory traffic)
# until the time budget is spent. Every gate is a real `aorta sweep run --baseline`; nothing is
# resampled. Writes summary.tsv and every gate.json into $OUT/gate-bench.tgz.
#
# usage: gate_bench.sh            (env: OUT, BUDGET_S=420, TRIALS=3, BASE_TRIALS=10,
#                                  EXAMPLES="vecadd softmax" or "gemm_short gemm_long",
#                                  GATE_BENCH_LOCAL=1 to rehearse with the callgrind example,
#                                  BASELINES_FROM=DIR to gate against baselines recorded earlier,
#                                  e.g. on another machine of the same kind, instead of recording)
set -uo pipefail
set -x
export PYTHONUNBUFFERED=1
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
aorta="$here/aorta"
out=${OUT:-/tmp/gate-bench-out}
work=$(mktemp -d)
budget=${BUDGET_S:-420}
trials=${TRIALS:-3}
base_trials=${BASE_TRIALS:-10}
gate="time +5%, count exact, max_trials $((3 * trials))"
mkdir -p "$out" "$work/baselines"
start=$SECONDS

declare -A recipe same slow
if [[ "${GATE_BENCH_LOCAL:-0}" == 1 ]]; then
  examples=(hotspot)
  recipe[hotspot]="$here/callgrind.yaml"
  same[hotspot]="$here/cpu_hotspot 4096 32"
  slow[hotspot]="$here/cpu_hotspot 4506 32"
  gate="ir +5%, count exact, max_trials $((3 * trials))"
else
  # EXAMPLES picks a subset; gemm_short (~25 us) and gemm_long (~1.6 ms) are issue 20's pair.
  read -r -a examples <<< "${EXAMPLES:-vecadd softmax}"
  recipe[vecadd]="$here/vecadd.yaml"
  recipe[softmax]="$here/softmax.yaml"
  recipe[gemm_short]="$here/gemm.yaml"
  recipe[gemm_long]="$here/gemm.yaml"
  # +10% work: N x 1.1, the same cuBLAS kernel family.
  same[gemm_short]="python3 $here/gemm.py --size 2048 --iters 20"
  slow[gemm_short]="python3 $here/gemm.py --size 2048 --cols 2253 --iters 20"
  same[gemm_long]="python3 $here/gemm.py --size 8192 --iters 20"
  slow[gemm_long]="python3 $here/gemm.py --size 8192 --cols 9011 --iters 20"
  # 16M elements ~ 200 MB of traffic per launch; 1.1 x that for the slow variant.
  same[vecadd]="python3 $here/vecadd.py --size 16777216 --iters 20"
  slow[vecadd]="python3 $here/vecadd.py --size 18454938 --iters 20"
  same[softmax]="python3 $here/softmax.py --rows 16384 --cols 1024 --iters 20"
  slow[softmax]="python3 $here/softmax.py --rows 18022 --cols 1024 --iters 20"
  nvidia-smi > "$work/nvidia-smi.txt" 2>&1
  python3 -c "import torch, triton; print(torch.__version__, triton.__version__)" > "$work/versions.txt" 2>&1
  # Warm-up (Triton compile cache, GPU clocks), not measured.
  for example in "${examples[@]}"; do ${same[$example]} > /dev/null 2>&1; done
fi

if [[ -n "${BASELINES_FROM:-}" ]]; then
  # A baseline from an earlier session: its fingerprint must match this machine's, or every gate
  # skips (77) naming the differing fields, which the summary then shows.
  cp "$BASELINES_FROM"/*.json "$work/baselines/"
else
  for example in "${examples[@]}"; do
    "$aorta" sweep run --recipe "${recipe[$example]}" --output "$work/base/$example" \
      --trials "$base_trials" -- ${same[$example]} > "$work/base-$example.log" 2>&1
    echo "baseline $example rc=$?"
    "$aorta" baseline record "$work/base/$example" --into "$work/baselines"
  done
fi
echo "baselines done at $((SECONDS - start)) s"

summary="$work/summary.tsv"
printf 'round\texample\tvariant\texit\tverdict\ttrials\textra_rounds\tambiguous_left\tfailing_rows\tseconds\n' > "$summary"
round=0
last_round=0
while (( SECONDS - start + last_round < budget )); do
  round_start=$SECONDS
  for example in "${examples[@]}"; do
    for variant in same slow; do
      if [[ $variant == same ]]; then payload=${same[$example]}; else payload=${slow[$example]}; fi
      dir="$work/gates/r$round-$variant/$example"
      mkdir -p "$(dirname "$dir")"
      t0=$SECONDS
      "$aorta" sweep run --recipe "${recipe[$example]}" --output "$dir" --trials "$trials" \
        --baseline "$work/baselines" --gate "$gate" -- $payload > "$dir.log" 2>&1
      rc=$?
      python3 - "$dir/gate.json" "$round" "$example" "$variant" "$rc" "$((SECONDS - t0))" >> "$summary" <<'PY'
import json, sys
path, rnd, example, variant, rc, secs = sys.argv[1:]
try:
    g = json.load(open(path))
except OSError:
    print("\t".join([rnd, example, variant, rc, "no-gate.json", "-", "-", "-", "-", secs]))
    sys.exit(0)
failing = ",".join(f"{r['quantity']}:{r['verdict']}:{(r['delta'] or 0) * 100:+.1f}%"
                   for r in g["rows"] if r["fails"])
print("\t".join([rnd, example, variant, rc, g["verdict"], str(g["trials"]),
                 str(g["extra_rounds"]), str(g["ambiguous"]), failing or "-", secs]))
PY
    done
  done
  last_round=$((SECONDS - round_start))
  round=$((round + 1))
done
echo "gates done at $((SECONDS - start)) s, $round round(s)"
cat "$summary"
cp "$summary" "$out/summary.tsv"
# Everything but the bulky per-trial profiler output.
tar czf "$out/gate-bench.tgz" -C "$work" --exclude='*/proton/*' --exclude='*/callgrind/*' .
ls -la "$out"
