#!/bin/bash
# Issue 42's GPU figure: one repository of 16 commits whose commit 11 makes sgemm_tiled ~10%
# slower, bisected 10 times with seeds 1..10; culprit, steps, rounds and wall time per bisect.
# Runs from the root of a copy of /work/main with AORTA and OUT_DIR set (the GPU contract);
# BISECT_KIND=cpu runs the CPU stand-in (sgemm_cpu.cpp) instead, for a test without a GPU.
set -u
started=$(date +%s)
payload_dir=${PAYLOAD_DIR:-$PWD/.gpu/h42}
kind=${BISECT_KIND:-gpu}
limit=${BISECT_TIME_LIMIT:-380}
work=/tmp/h42-bisect
rm -rf "$work"
mkdir -p "$work/cache" "$OUT_DIR"
echo "kind=$kind payload_dir=$payload_dir" | tee "$OUT_DIR/setup.txt"
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader 2>&1 | tee -a "$OUT_DIR/setup.txt"

if command -v git > /dev/null; then
  echo "git: $(command -v git) $(git --version)" | tee -a "$OUT_DIR/setup.txt"
else
  export PATH="$payload_dir/git/bin:$PATH"
  export LD_LIBRARY_PATH="$payload_dir/git/lib:${LD_LIBRARY_PATH:-}"
  export GIT_EXEC_PATH="$payload_dir/git/bin"
  echo "git: carried $(git --version 2>&1)" | tee -a "$OUT_DIR/setup.txt"
fi
"$AORTA" --version | tee -a "$OUT_DIR/setup.txt"

repo=$work/repo
bash "$payload_dir/make_repo.sh" "$repo" > "$OUT_DIR/commits.txt" 2>&1 || { echo "make_repo failed"; cat "$OUT_DIR/commits.txt"; exit 1; }
good=$(git -C "$repo" rev-list --max-parents=0 HEAD)
culprit=$(git -C "$repo" log --format=%H --grep='wrap the k loop')
echo "good=$good culprit=$culprit" | tee -a "$OUT_DIR/setup.txt"

# Each commit is compiled once into the cache by its id; the worktree links to it.
if [ "$kind" = gpu ]; then
  command -v nvcc > /dev/null || export PATH="$PATH:/usr/local/cuda/bin"
  echo "nvcc: $(command -v nvcc)" | tee -a "$OUT_DIR/setup.txt"
  compile='nvcc -O2 -arch=sm_90 -o "$c.tmp" sgemm.cu'
else
  compile='g++ -O2 -o "$c.tmp" sgemm_cpu.cpp'
fi
build="set -e; c=$work/cache/\$AORTA_BISECT_COMMIT; if [ ! -x \"\$c\" ]; then $compile; mv \"\$c.tmp\" \"\$c\"; fi; ln -sf \"\$c\" payload"
echo "build: $build" >> "$OUT_DIR/setup.txt"

echo "seed,rc,culprit_named,correct,steps,looks,rounds_total,builds_this_bisect,build_seconds,wall_seconds" > "$OUT_DIR/summary.csv"
last=0
for seed in 1 2 3 4 5 6 7 8 9 10; do
  now=$(date +%s)
  if [ $((now - started + last)) -gt "$limit" ]; then
    echo "time limit: stopping before seed $seed" | tee -a "$OUT_DIR/setup.txt"
    break
  fi
  out=$work/run_$seed
  t0=$(date +%s.%N)
  "$AORTA" bisect --repo "$repo" --good "$good" --bad main --build "$build" \
    --recipe "$payload_dir/gbench.yaml" --output "$out" --seed "$seed" --max-rounds 12 -- ./payload \
    > "$OUT_DIR/bisect_$seed.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  last=$(python3 -c "import sys; print(int(float(sys.argv[2]) - float(sys.argv[1])) + 1)" "$t0" "$t1")
  cp "$out/bisect.json" "$OUT_DIR/bisect_$seed.json" 2>/dev/null
  cp "$out/bisect.md" "$OUT_DIR/bisect_$seed.md" 2>/dev/null
  python3 - "$out/bisect.json" "$culprit" "$seed" "$rc" "$t0" "$t1" >> "$OUT_DIR/summary.csv" <<'PY'
import json, sys
path, culprit, seed, rc, t0, t1 = sys.argv[1:]
try:
    r = json.load(open(path))
except (OSError, ValueError):
    print(f"{seed},{rc},,no,,,,,,{float(t1) - float(t0):.1f}")
    sys.exit()
named = (r.get("culprit") or {}).get("commit", "")
steps = r["steps"]
print(f"{seed},{rc},{named},{'yes' if named == culprit else 'no'},{len(steps)},"
      f"{sum(s['looks'] for s in steps)},{sum(s['total_rounds'] for s in steps)},"
      f"{len(r['built'])},{sum(b['seconds'] for b in r['built']):.1f},{float(t1) - float(t0):.1f}")
PY
  tail -n 1 "$OUT_DIR/summary.csv"
done
# The builds are shared through the cache: the first bisect compiles, the others link.
ls "$work/cache" > "$OUT_DIR/cache.txt"
echo "total seconds: $(( $(date +%s) - started ))" | tee -a "$OUT_DIR/setup.txt"
cat "$OUT_DIR/summary.csv"
