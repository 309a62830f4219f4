#!/usr/bin/env bash
# replay_cells.sh AORTA RUNS_DIR OUT_DIR: judges every complete cells run of h39d.sh again through
# `aorta sweep run` (the cells judge), its payload replay_trace.py handing each trial the real
# capture of the same cell and trial; each run keeps its seed (39000 + its number), so the rounds
# pair as on the GPU. aorta's proton collector skips on a machine without an NVIDIA device node and
# Triton: off the GPU machine run this inside `unshare -m` with a dummy /dev/nvidiactl and a Triton
# dist-info on PYTHONPATH (README.md, "Replays").
set -u
aorta=$1 runs=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
for run in "$runs"/*/; do
  run=${run%/}; name=$(basename "$run")
  [ -f "$run/matrix.json" ] && python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1])).get("confound") else 1)' "$run/matrix.json" || continue
  source=${name%-*} index=${name##*-}
  rm -rf "$out/$name"
  H39_REPLAY_RUN=$run "$aorta" sweep run --recipe "$here/cells_$source.yaml" --trials 10 \
    --output "$out/$name" --seed $(( 39000 + index )) -- python3 "$here/replay_trace.py" \
    > "$out/$name.txt" 2>&1
  echo "$name rc=$?"
done
