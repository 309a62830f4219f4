#!/bin/bash
# The CPU figures of issue 44 (README.md): mpirun with 4 and 8 ranks, one rank at +0/+5/+10%
# work, 20 runs each, under callgrind (tests/ranks/rank_even_work) and Google Benchmark
# (rank_bench.cpp). Each run is one `aorta sweep run` with the straggler check and the per-rank
# gate against a baseline recorded from unchanged runs. One CSV line per run.
#   run_figures.sh AORTA EVEN_WORK RANK_BENCH OUT [RUNS]
set -u
aorta=$1 even_work=$2 rank_bench=$3 out=$4 runs=${5:-20}
here=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_plm=isolated \
       OMPI_MCA_btl=self OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$out"
csv=$out/runs.csv
[ -f "$csv" ] || echo "tool,ranks,heavy,extra_percent,run,rc,straggler_value_rank_per_trial,gate_failed,gate_rows_failing" > "$csv"
one_run() {  # TOOL RANKS HEAVY EXTRA RUN BASEDIR GATE TRIALS
  local tool=$1 ranks=$2 heavy=$3 extra=$4 run=$5 base=$6 gate=$7 trials=$8
  local dir=$out/$tool-n$ranks-x$extra/run$run/test
  rm -rf "$dir"; mkdir -p "$(dirname "$dir")"
  local payload
  if [ "$tool" = callgrind ]; then payload=("$even_work" 20 "$heavy" "$extra")
  else payload=("$rank_bench" --heavy-rank "$heavy" --extra-percent "$extra"); fi
  local gate_args=()
  [ -n "$base" ] && gate_args=(--baseline "$base" --gate "$gate")
  nice "$aorta" sweep run --recipe "$here/$tool.yaml" --output "$dir" --trials "$trials" \
    "${gate_args[@]}" -- mpirun -n "$ranks" "${payload[@]}" > "$dir.log" 2>&1
  local rc=$?
  # Every trial's straggler value and the rank it names ("1.1:2 1.0:0 ..."); the check at 1.05
  # is applied to these values when the CSV is summarized.
  local values=$(python3 "$here/trial_values.py" "$dir")
  local gfail=$(grep -c "aorta: gate FAILED" "$dir.log")
  # Rows of the last gate table that fail it: "rank:kind:F" (a confident regression) or
  # "rank:kind:A" (AMBIGUOUS at the trial budget, which fails the gate too); kind ir, time_ms or
  # straggler.
  local rows=$(awk '/aorta: gate against/{table=""} {table=table"\n"$0} END{print table}' "$dir.log" |
    grep -E "^[^ ]+ +rank [0-9]+ .*(\(fail\)|AMBIGUOUS)$" |
    sed -E 's/^[^ ]+ +rank ([0-9]+) [^:]*: ([a-z_]+)\(.*\(fail\)$/\1:\2:F/; s/^[^ ]+ +rank ([0-9]+) [^:]*: ([a-z_]+)\(.*AMBIGUOUS$/\1:\2:A/' |
    sort -u | tr '\n' ' ')
  echo "$tool,$ranks,$heavy,$extra,$run,$rc,$values,$gfail,$rows" >> "$csv"
}
for tool in callgrind gbench; do
  trials=1; base_trials=1; gate="ir +2%, straggler +2%"
  [ "$tool" = gbench ] && { trials=3; base_trials=6; gate="time +2%, straggler +2%"; }
  for ranks in 4 8; do
    heavy=$(( ranks / 2 ))
    base=$out/$tool-n$ranks-baseline
    if [ ! -d "$base" ]; then
      rm -rf "$out/$tool-n$ranks-record"
      nice "$aorta" sweep run --recipe "$here/$tool.yaml" --output "$out/$tool-n$ranks-record/test" \
        --trials "$base_trials" -- mpirun -n "$ranks" \
        $( [ "$tool" = callgrind ] && echo "$even_work 20" || echo "$rank_bench" ) > "$out/$tool-n$ranks-record.log" 2>&1
      "$aorta" baseline record "$out/$tool-n$ranks-record/test" --into "$base" >> "$out/$tool-n$ranks-record.log" 2>&1
    fi
    for extra in 0 5 10; do
      h=$heavy; [ "$extra" = 0 ] && h=-1
      for ((run=1; run<=runs; run++)); do
        one_run "$tool" "$ranks" "$h" "$extra" "$run" "$base" "$gate" "$trials"
      done
      echo "$(date -u +%T) $tool n=$ranks +$extra% done" >> "$out/progress.txt"
    done
  done
done
