# GPU figures of issue 44: torchrun with 8 (then 4) ranks on the one card, each rank a CUDA C++
# Google Benchmark program (rank_straggler.cu) timing its own kernel; one rank does +10% work.
# Blocks of 2 trials, unchanged and heavy interleaved, until the time runs out. Every trial's
# result.json and per-rank gbench.json come back, so the gate can be judged again on CPU.
set -u
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
here=$PWD/.gpu/h44
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMP_NUM_THREADS=1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader | tee "$OUT_DIR/gpu.txt"
command -v torchrun | tee -a "$OUT_DIR/gpu.txt"
"$AORTA" --version 2>&1 | head -1
payload=$here/rank_straggler
ldd "$payload" | grep -i "not found"
# One rank by hand first: the payload and its library load, and what one kernel takes.
RANK=0 "$payload" --benchmark_repetitions=1 2>&1 | tail -3
echo "== $(elapsed)s sanity done"
lock=/tmp/h44-card.lock
echo "block,trial,ranks,heavy,serialize,straggler,passed,named_rank,imbalance,verdict,cards" > "$OUT_DIR/trials.csv"
run_block() {  # NAME RANKS HEAVY(-1 none) SERIALIZE(yes/no) TRIALS
  local name=$1 ranks=$2 heavy=$3 serialize=$4 trials=$5
  local extra=()
  [ "$serialize" = yes ] && extra=(--serialize "$lock")
  local t0=$(date +%s)
  "$AORTA" sweep run --recipe "$here/straggler.yaml" --output "$OUT_DIR/$name" --trials "$trials" \
    --check "ranks == $ranks" -- \
    torchrun --standalone --nproc-per-node "$ranks" --no-python "$payload" \
      --heavy-rank "$heavy" --extra-percent 10 "${extra[@]}" > "$OUT_DIR/$name.log" 2>&1
  local rc=$?
  python3 "$here/summarize_trials.py" "$name" "$ranks" "$heavy" "$serialize" "$OUT_DIR"
  echo "== $(elapsed)s block $name ranks=$ranks heavy=$heavy serialize=$serialize trials=$trials rc=$rc wall=$(( $(date +%s) - t0 ))s" | tee -a "$OUT_DIR/blocks.txt"
  grep "^$name," "$OUT_DIR/trials.csv"
  find "$OUT_DIR/$name" -name 'report.html' -size +200k -delete 2>/dev/null
}
# Blocks of 2 trials (a trial of 8 ranks took ~6 s on the H200), unchanged and heavy alternating,
# the heavy rank moving; stop starting blocks when the next would not fit (limit 150 s).
budget=146
last=0
specs=()
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
  specs+=("s8-u$i 8 -1 yes" "s8-h$i 8 $(( (i * 5) % 8 )) yes")
done
for spec in "${specs[@]}"; do
  set -- $spec
  now=$(elapsed)
  if [ "$last" -gt 0 ] && [ $(( now + last + 2 )) -gt "$budget" ]; then
    echo "== ${now}s stop: the next block (~${last}s) would pass ${budget}s"; break
  fi
  b0=$(date +%s)
  run_block "$1" "$2" "$3" "$4" 2
  last=$(( $(date +%s) - b0 ))
done
echo "== $(elapsed)s done"
