#!/usr/bin/env bash
# The ncu counter gate on one GPU, for docs/regression-gate.md (real runs only):
#   1. env: GPU, driver, ncu version, and whether the H200 knows the counters asked for;
#   2. ncu's answer to a metric the GPU lacks, raw and through aorta (the trial must fail);
#   3. A/A: 10 trials of plain ncu (the collector's argv) with a wide counter list, to see which
#      counters repeat exactly from process to process;
#   4. the gate: a baseline of 5 trials (`aorta sweep run`, `aorta baseline record`), then 20
#      gated runs on unchanged work and 20 with +10% work, interleaved, 3 trials each
#      (`aorta sweep run --baseline --gate "ncu exact"`).
# Payload: examples/profiling/ncu/cuda-gemm (sgemm_tiled, 3 warm-up + ITERS launches); ITERS 7
# gives 10 launches, ITERS 8 gives 11: +10% of the same kernel's work.
# usage (in the staged folder): OUT=<dir> BUDGET_S=<s> bash ncu_gate.sh
# Writes $OUT/summary.txt as it goes and $OUT/runs.tgz (CSVs, logs, result.json, gate.json).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ncu=${NCU:-/usr/local/cuda/bin/ncu}
export NCU_BIN=$ncu
aorta="$here/aorta"
payload="$here/cuda_gemm"
budget=${BUDGET_S:-420}
start=$SECONDS
work=/tmp/ncu_gate
rm -rf "$work" && mkdir -p "$work"
summary="$OUT/summary.txt"
wide="smsp__inst_executed.sum,smsp__sass_thread_inst_executed.sum,dram__bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,sm__cycles_elapsed.max,smsp__cycles_active.sum"
say() { echo "$*" | tee -a "$summary"; }
pack() {
  tar -C "$work" -czf "$OUT/runs.tgz.tmp" . && mv "$OUT/runs.tgz.tmp" "$OUT/runs.tgz"
}
# One plain ncu trial with the argv of aorta's collector around `cuda_gemm 512 ITERS`.
raw_trial() {  # dir metrics iters
  mkdir -p "$1"
  "$ncu" --target-processes all --clock-control none --metrics "gpu__time_duration.sum,$2" \
    --csv --page details --print-units base --log-file "$1/ncu.csv" -k regex:sgemm_tiled \
    "$payload" 512 "$3" >"$1/stdout.txt" 2>&1
  echo $? >"$1/rc"
}
recipe() {  # metrics trials
  cat <<YAML
schema_version: 1
trials: $2
timeout_per_trial: 120
environment_exit_codes: [2]
collect:
  ncu: {kernel_name: "sgemm_tiled", metrics: "$1"}
check:
  - "count(sgemm_tiled) >= 10"
YAML
}
{
  nvidia-smi --query-gpu=name,driver_version,uuid,clocks.sm,clocks.max.sm --format=csv
  "$ncu" --version
  "$ncu" --query-metrics 2>&1 | grep -E '^(smsp__inst_executed|smsp__sass_thread_inst_executed|dram__bytes|dram__bytes_read|dram__bytes_write|lts__t_bytes|l1tex__t_bytes|sm__cycles_elapsed|smsp__cycles_active) '
  "$aorta" --version
} >"$OUT/env.txt" 2>&1
say "env done at $((SECONDS - start)) s"
raw_trial "$work/bogus_raw" "aorta_no_such__metric.sum" 0
say "bogus metric, plain ncu: rc $(cat "$work/bogus_raw/rc")"
recipe "aorta_no_such__metric.sum" 1 >"$work/bogus.yaml"
"$aorta" sweep run --recipe "$work/bogus.yaml" --output "$work/bogus_aorta" -- "$payload" 512 0 \
  >"$work/bogus_aorta.log" 2>&1
say "bogus metric, aorta: rc $?"
raw_trial "$work/fixture" "smsp__inst_executed.sum,dram__bytes.sum,lts__t_bytes.sum" 2
say "fixture rc $(cat "$work/fixture/rc") at $((SECONDS - start)) s"
pack
for i in $(seq 1 10); do raw_trial "$work/aa/trial_$i" "$wide" 7; done
say "aa: 10 trials at $((SECONDS - start)) s"
pack
recipe work 5 >"$work/base.yaml"
"$aorta" sweep run --recipe "$work/base.yaml" --output "$work/runs/baseline" -- "$payload" 512 7 \
  >"$work/baseline.log" 2>&1
say "baseline sweep rc $?"
"$aorta" baseline record "$work/runs/baseline" --into "$work/baselines" --test-name gemm \
  >>"$work/baseline.log" 2>&1
say "baseline record rc $? at $((SECONDS - start)) s"
pack
recipe work 3 >"$work/gate.yaml"
gate() {  # name iters
  local t0=$SECONDS
  "$aorta" sweep run --recipe "$work/gate.yaml" --output "$work/runs/$1" \
    --baseline "$work/baselines" --test-name gemm --gate "ncu exact" -- "$payload" 512 "$2" \
    >"$work/runs/$1.log" 2>&1
  local rc=$?
  local trials
  trials=$(find "$work/runs/$1" -maxdepth 2 -name result.json | wc -l)
  say "$1 rc $rc trials $trials $((SECONDS - t0)) s"
}
for g in $(seq 1 20); do
  if (( SECONDS - start > budget )); then say "budget spent before gate $g"; break; fi
  gate "same_$g" 7
  gate "plus10_$g" 8
  (( g % 4 == 0 )) && pack
done
pack
say "end at $((SECONDS - start)) s"
