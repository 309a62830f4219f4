# GPU figures of issue 44, round 2: the gate's detection on one card, 20 runs each.
# A run is two sweeps of 4 ranks (torchrun --no-python, a CUDA C++ Google Benchmark program per
# rank, rank_straggler.cu): a baseline sweep of 3 unchanged trials, `aorta baseline record`, then
# a gated sweep of 3 trials (`--gate "time +5%, straggler +5%, max_trials 3"`: one look, no extra
# trials) that is unchanged (A/A) or has one rank doing +10% work. Every run has its own six
# trials; nothing is reused. The ranks take the card in turn while they measure (one flock for
# the whole machine), so several runs go at once: only process starts overlap, never two ranks'
# kernels. First, alone on the card: one run WITHOUT the lock (the ranks time-slice the card), to
# see what sharing does to per-rank times and that aorta refuses its timed straggler rows.
set -u
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
here=$PWD/.gpu/h44r
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMP_NUM_THREADS=1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$OUT_DIR/gpu.txt"
command -v torchrun | tee -a "$OUT_DIR/gpu.txt"
nproc | tee -a "$OUT_DIR/gpu.txt"
"$AORTA" --version 2>&1 | head -1
payload=$here/rank_straggler
ldd "$payload" | grep -i "not found"
RANK=0 "$payload" --benchmark_repetitions=1 2>&1 | tail -2
echo "== $(elapsed)s sanity done"
lock=/tmp/h44r-card.lock
gate="time +5%, straggler +5%, max_trials 3"
runs=$OUT_DIR/runs
mkdir -p "$runs"
echo "run,kind,heavy,serialize,start_s,base_rc,record_rc,gated_rc,wall_s" > "$OUT_DIR/runs.csv"
sweep() {  # OUTPUT HEAVY SERIALIZE [GATE ARGS...]
  local output=$1 heavy=$2 serialize=$3; shift 3
  # The locked runs' recipe says ranks_serialized: true (the ranks take the card in turn); the
  # unlocked run's does not, so aorta refuses its timed straggler rows (ranks sharing a card).
  local extra=() recipe=$here/straggler-shared.yaml
  [ "$serialize" = yes ] && { extra=(--serialize "$lock"); recipe=$here/straggler.yaml; }
  "$AORTA" sweep run --recipe "$recipe" --output "$output" --trials 3 \
    --check "ranks == 4" "$@" -- \
    torchrun --standalone --nproc-per-node 4 --no-python "$payload" \
      --heavy-rank "$heavy" --extra-percent 10 "${extra[@]}"
}
one_run() {  # NAME KIND HEAVY SERIALIZE
  local name=$1 kind=$2 heavy=$3 serialize=$4
  local dir=$runs/$name t0=$(date +%s) s0=$(elapsed)
  mkdir -p "$dir"
  sweep "$dir/base/test" -1 "$serialize" > "$dir/base.log" 2>&1
  local base_rc=$?
  "$AORTA" baseline record "$dir/base/test" --into "$dir/baseline" > "$dir/record.log" 2>&1
  local record_rc=$?
  sweep "$dir/gated/test" "$heavy" "$serialize" --baseline "$dir/baseline" --gate "$gate" \
    > "$dir/gated.log" 2>&1
  local gated_rc=$?
  echo "$name,$kind,$heavy,$serialize,$s0,$base_rc,$record_rc,$gated_rc,$(( $(date +%s) - t0 ))" >> "$OUT_DIR/runs.csv"
  echo "== $(elapsed)s run $name kind=$kind heavy=$heavy serialize=$serialize rc=$base_rc/$record_rc/$gated_rc"
  grep -E "aorta: (gate|PASS|FAIL)" "$dir/gated.log" | head -3
  find "$dir" -name report.html -delete
  (cd "$runs" && tar czf "$name.tgz" "$name" && rm -rf "$name")
}
# 1. Alone on the card, no lock: 3 unchanged trials, then 3 with rank 2 at +10% gated against them.
# (second call: the shared-card run was done in the first call)
# 2. 20 A/A and 20 heavy runs (heavy rank moving 0..3), interleaved, on WORKERS at once; runs 21-30
# of each only if time is left (they come last in the plan). A worker starts a run only when its
# last run's wall time still fits before GUARD seconds (the call is killed at 240 s).
workers=20 guard=228
plan=()
# Second call: runs 11-20 of each kind, new trials (none of call 1 is reused).
for i in $(seq 11 20); do plan+=("aa$i aa -1" "h$i heavy $(( i % 4 ))"); done
worker() {
  local w=$1 last=40 i
  for ((i = w; i < ${#plan[@]}; i += workers)); do
    if [ $(( $(elapsed) + last )) -gt "$guard" ]; then
      echo "== $(elapsed)s worker $w stops before ${plan[$i]%% *} (last run ${last}s)"; return
    fi
    local t0=$(date +%s)
    set -- ${plan[$i]}
    one_run "$1" "$2" "$3" yes
    last=$(( $(date +%s) - t0 ))
  done
}
for ((w = 0; w < workers; w++)); do worker "$w" & done
wait
nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv,noheader | tee -a "$OUT_DIR/gpu.txt"
echo "== $(elapsed)s done; $(grep -c ',yes,' "$OUT_DIR/runs.csv") locked runs"
du -sh "$OUT_DIR"
