#!/usr/bin/env bash
# Cells and the baseline gate on the same card, with real runs only (benchmarks/gpu_ab/README.md).
# For one GEMM size, in one time budget:
#   1. a baseline: one `aorta sweep run` of BASE_TRIALS trials, `aorta baseline record`;
#   2. rounds of experiments, each one real run:
#      cells-aa / cells-p5 / cells-p10: a two-cell sweep (base, head with 0, 1 or 2 extra launches
#        of the same GEMM on 20), confound verdict of BM_Gemm; then `aorta compare` of the head
#        cell's trials against the baseline of step 1 (recorded by another process, earlier):
#        the same trials judged by the gate, side by side;
#      gate-same / gate-p10: `aorta sweep run --baseline` (the sequential gate, GATE_TRIALS
#        planned, up to 3x), unchanged or +10%.
# Nothing is resampled. Writes $OUT/summary.tsv and $OUT/runs.tgz (every matrix.json, gate.json,
# compare output, recipe and log).
#
# usage: ab_bench.sh   (env: OUT, SIZE=2048|8192, BUDGET_S=400, TRIALS=5 per cell, GATE_TRIALS=3,
#                       BASE_TRIALS=10, EXPERIMENTS="cells-aa cells-p10 gate-same gate-p10 cells-p5",
#                       PAYLOAD=path of gemm_gbench (default: beside this script))
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
aorta="$here/aorta"
payload=${PAYLOAD:-$here/gemm_gbench}
size=${SIZE:-2048}
out=${OUT:-/tmp/gpu-ab-out}
work=$(mktemp -d)
budget=${BUDGET_S:-400}
trials=${TRIALS:-5}
gate_trials=${GATE_TRIALS:-3}
base_trials=${BASE_TRIALS:-10}
read -r -a experiments <<< "${EXPERIMENTS:-cells-aa cells-p10 gate-same gate-p10 cells-p5}"
# UseManualTime gives the benchmark its "/manual_time" suffix.
row="BM_Gemm/$size/manual_time"
gate="time +5%, max_trials $((3 * gate_trials))"
payload_args=("--benchmark_filter=^BM_Gemm/$size/" --benchmark_min_time=0.1)
mkdir -p "$out" "$work/runs"
start=$SECONDS

nvidia-smi > "$work/nvidia-smi.txt" 2>&1
"$payload" --benchmark_filter=NONE --benchmark_context=note=warm > /dev/null 2>&1

recipe() {  # trials extra_launches_of_head|"" (no cells) -> recipe text
  cat <<YAML
schema_version: 1
trials: $1
timeout_per_trial: 120
environment_exit_codes: [2]
collect:
  gbench: {repetitions: "1"}
check:
  - "count(^$row\$) == 1"
YAML
  [[ -z "$2" ]] && return
  cat <<YAML
mitigations:
  base: {env: {CELLS_EXTRA_LAUNCHES: "0"}}
  head: {env: {CELLS_EXTRA_LAUNCHES: "$2"}}
mitigation_axis: [base, head]
confound: {baseline_cell: base, threshold: 1.05}
YAML
}

# 1. The baseline, from its own process before every experiment.
recipe "$base_trials" "" > "$work/baseline.yaml"
CELLS_EXTRA_LAUNCHES=0 "$aorta" sweep run --recipe "$work/baseline.yaml" \
  --output "$work/runs/baseline" -- "$payload" "${payload_args[@]}" > "$work/baseline.log" 2>&1
"$aorta" baseline record "$work/runs/baseline" --into "$work/baselines" --test-name head \
  >> "$work/baseline.log" 2>&1 || { echo "baseline failed"; tail -30 "$work/baseline.log"; }
# Named after the head cell, so `aorta compare` pairs the baseline with that cell's trials.
baseline="$work/baselines/head.json"

summary="$work/summary.tsv"
printf 'run\texperiment\texit\tverdict\tratio_or_delta\tp\ttrials\tgate_on_same_trials\tseconds\n' \
  > "$summary"
cells_row() {  # matrix.json -> verdict, ratio, p of the time_ms row of BM_Gemm
  python3 - "$1" "$row" <<'PY'
import json, sys
path, row = sys.argv[1:]
try:
    rows = json.load(open(path))["confound"]["rows"]
    pick = [r for r in rows if r["quantity"] == f"time_ms({row})"]
    r = pick[0]
    ratio = "-" if r["ratio"] is None else f"{r['ratio']:.4f}"
    p = "-" if r["p_value"] is None else f"{r['p_value']:.4g}"
    print(f"{r['verdict']}\t{ratio}\t{p}")
except Exception as exc:
    print(f"NO-ROW ({type(exc).__name__})\t-\t-")
PY
}
gate_row() {  # compare or gate JSON -> verdict, delta, p, new trials of BM_Gemm's time row
  python3 - "$1" "$row" <<'PY'
import json, sys
path, row = sys.argv[1:]
try:
    rows = [r for r in json.load(open(path))["rows"] if r["quantity"] == f"time_ms({row})"]
    r = rows[0]
    delta = "-" if r.get("delta") is None else f"{100 * r['delta']:+.2f}%"
    p = "-" if r.get("p_value") is None else f"{r['p_value']:.4g}"
    print(f"{r['verdict']}\t{delta}\t{p}\t{len(r.get('new_samples', []))}")
except Exception as exc:
    print(f"NO-ROW ({type(exc).__name__})\t-\t-\t-")
PY
}

run=0
last=0
while (( SECONDS - start + last < budget )); do
  experiment=${experiments[$((run % ${#experiments[@]}))]}
  dir="$work/runs/r$run-$experiment"
  t0=$SECONDS
  case $experiment in
    cells-*)
      extra=0
      case $experiment in cells-p5) extra=1 ;; cells-p10) extra=2 ;; esac
      recipe "$trials" "$extra" > "$dir.yaml"
      "$aorta" sweep run --recipe "$dir.yaml" --output "$dir" --seed "$run" \
        -- "$payload" "${payload_args[@]}" > "$dir.log" 2>&1
      rc=$?
      verdict=$(cells_row "$dir/matrix.json")
      "$aorta" compare "$baseline" "$dir/head" --gate "time +5%" --json > "$dir.compare.json" \
        2>> "$dir.log"
      gate_verdict=$(gate_row "$dir.compare.json" | cut -f1-3 | tr '\t' ' ')
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$run" "$experiment" "$rc" "$verdict" "$trials" \
        "$gate_verdict" "$((SECONDS - t0))" >> "$summary" ;;
    gate-*)
      extra=0
      [[ $experiment == gate-p10 ]] && extra=2
      recipe "$gate_trials" "" > "$dir.yaml"
      CELLS_EXTRA_LAUNCHES=$extra "$aorta" sweep run --recipe "$dir.yaml" --output "$dir" \
        --baseline "$work/baselines" --test-name head --gate "$gate" -- "$payload" "${payload_args[@]}" > "$dir.log" 2>&1
      rc=$?
      gate_json=$(find "$dir" -maxdepth 2 -name gate.json | head -1)
      verdict=$(gate_row "${gate_json:-/nonexistent}")
      printf '%s\t%s\t%s\t%s\t-\t%s\n' "$run" "$experiment" "$rc" "$verdict" \
        "$((SECONDS - t0))" >> "$summary" ;;
  esac
  last=$((SECONDS - t0))
  tail -1 "$summary"
  # Copied after every run: a call cut by the device's time limit keeps the rows it has.
  cp "$summary" "$out/summary.tsv"
  run=$((run + 1))
done
echo "runs: $run in $((SECONDS - start)) s"
cp "$summary" "$out/summary.tsv"
tar -czf "$out/runs.tgz" -C "$work" summary.tsv nvidia-smi.txt baseline.log baselines \
  $(cd "$work" && find runs -name matrix.json -o -name gate.json -o -name '*.compare.json' \
      -o -name '*.log' -o -name '*.yaml' | grep -v '/trial_')
ls -la "$out"
