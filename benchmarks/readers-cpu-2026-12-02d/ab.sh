#!/usr/bin/env bash
# Device call 2: scaling of this round's binary against round 6's (a836fcf) on one machine,
# interleaved, then fuzzing of the readers changed this round.
set -u
A=$PWD/.gpu/anchors
uptime | tee "$OUT/machine2.txt"
for which in new old new old; do
  bin=$A/real/aorta; [[ $which == old ]] && bin=$PWD/.gpu/old/aorta
  echo "== $which" | tee -a "$OUT/scaling-ab.md"
  LD_LIBRARY_PATH=$A/lib timeout 100 python3 benchmarks/scaling.py --aorta "$bin" --runs 5 --no-callgrind \
    --dir /tmp/scal 2>&1 | tee -a "$OUT/scaling-ab.md"
done
LD_LIBRARY_PATH=$A/lib FUZZ_PREBUILT=$PWD/.gpu/fuzz FUZZ_JOBS=5 FUZZ_MAX_LEN=4096 \
  timeout 200 bash ci/fuzz.sh --long 120 hatchet hatchet_msgpack chrome_trace rocpd result_json \
  > "$OUT/fuzz.txt" 2>&1
cp -r .gpu/fuzz/findings "$OUT/" 2>/dev/null
ls -R .gpu/fuzz | head -40 > "$OUT/fuzz-tree.txt"
