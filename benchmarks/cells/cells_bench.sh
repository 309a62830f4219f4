#!/usr/bin/env bash
# Confound verdicts of interleaved cells on real runs (benchmarks/cells/README.md). Each "run" is
# one `aorta sweep run` of a recipe with two cells, base and head, of the proton-ab payload
# (examples/cells/proton-ab): A/A (head identical), +5% and +10% work in head (1 or 2 extra
# launches of the same GEMM on 20). Runs rotate over the experiments until the time budget is
# spent; nothing is resampled. Writes summary.tsv and every run's matrix.json and result.json
# files into $OUT/cells-bench.tgz.
#
# usage: cells_bench.sh     (env: OUT, BUDGET_S=420, TRIALS=5, EXPERIMENTS="short-aa short-p10 ...")
#   experiment names: <kernel>-<variant>; kernel short (bf16 2048^3, ~25 us, after 60 fp32
#   GEMMs of 4096^3) or long (bf16 8192^3, ~1.5 ms, same heavier work first); variant aa, p5, p10.
set -uo pipefail
export PYTHONUNBUFFERED=1
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
aorta="$here/aorta"
out=${OUT:-/tmp/cells-bench-out}
work=$(mktemp -d)
budget=${BUDGET_S:-420}
trials=${TRIALS:-5}
read -r -a experiments <<< "${EXPERIMENTS:-short-aa short-p10 short-p5 long-aa long-p10}"
mkdir -p "$out"
start=$SECONDS

nvidia-smi > "$work/nvidia-smi.txt" 2>&1
python3 -c "import torch, triton; print(torch.__version__, triton.__version__)" > "$work/versions.txt" 2>&1
# Warm-up (cuBLAS heuristics cache, GPU clocks), not measured.
python3 "$here/gemm_ab.py" --warm 10 > /dev/null 2>&1

recipe() {  # kernel variant -> recipe text
  local extra=0
  case $2 in p5) extra=1 ;; p10) extra=2 ;; esac
  cat <<YAML
schema_version: 1
trials: $trials
timeout_per_trial: 300
environment_exit_codes: [2]
collect:
  proton: {mode: "cli", backend: "auto", context: "shadow", data: "tree"}
mitigations:
  base: {env: {CELLS_EXTRA_LAUNCHES: "0"}}
  head: {env: {CELLS_EXTRA_LAUNCHES: "$extra"}}
mitigation_axis: [base, head]
confound: {baseline_cell: base, threshold: 1.05}
YAML
}

summary="$work/summary.tsv"
printf 'run\texperiment\texit\tgemm_kernel\tratio\tp\tverdict\ttrials_per_cell\tseconds\n' > "$summary"
run=0
last=0
while (( SECONDS - start + last < budget )); do
  experiment=${experiments[$((run % ${#experiments[@]}))]}
  kernel=${experiment%-*}
  variant=${experiment#*-}
  shape=(--m 2048 --n 2048 --k 2048)
  [[ $kernel == long ]] && shape=(--m 8192 --n 8192 --k 8192)
  dir="$work/runs/r$run-$experiment"
  mkdir -p "$dir"
  recipe "$kernel" "$variant" > "$dir.yaml"
  t0=$SECONDS
  "$aorta" sweep run --recipe "$dir.yaml" --output "$dir" --seed "$run" \
    -- python3 "$here/gemm_ab.py" "${shape[@]}" > "$dir.log" 2>&1
  rc=$?
  last=$((SECONDS - t0))
  python3 - "$dir/matrix.json" "$run" "$experiment" "$rc" "$trials" "$last" >> "$summary" <<'PY'
import json, sys
path, run, experiment, rc, trials, secs = sys.argv[1:]
try:
    rows = json.load(open(path))["confound"]["rows"]
except Exception as exc:  # a run that wrote no matrix: say so in the row
    print(f"{run}\t{experiment}\t{rc}\t-\t-\t-\tNO-MATRIX ({exc})\t{trials}\t{secs}")
    sys.exit(0)
# The bf16 GEMM: the time_ms row of the kernel the base cell launched exactly 20 times (the fp32
# warm-up GEMMs and their clamp launch 60 times each).
timed = [r for r in rows if r["quantity"].startswith("time_ms(")]
base_launches = {r["quantity"][len("count("):-1]: r["reference_median"] for r in rows
                 if r["quantity"].startswith("count(")}
gemm = [r for r in timed if base_launches.get(r["quantity"][len("time_ms("):-1]) == 20]
pick = gemm[0] if len(gemm) == 1 else None
if pick is None:
    print(f"{run}\t{experiment}\t{rc}\t-\t-\t-\tNO-ROWS\t{trials}\t{secs}")
else:
    ratio = "-" if pick["ratio"] is None else f"{pick['ratio']:.4f}"
    p = "-" if pick["p_value"] is None else f"{pick['p_value']:.4g}"
    print(f"{run}\t{experiment}\t{rc}\t{pick['quantity'][:60]}\t{ratio}\t{p}\t{pick['verdict']}"
          f"\t{trials}\t{secs}")
PY
  tail -1 "$summary"
  run=$((run + 1))
done
echo "runs: $run in $((SECONDS - start)) s"
cp "$summary" "$out/summary.tsv"
tar -czf "$out/cells-bench.tgz" -C "$work" summary.tsv nvidia-smi.txt versions.txt \
  $(cd "$work" && find runs -name matrix.json -o -name result.json -o -name '*.log' -o -name '*.yaml')
ls -la "$out"
