#!/usr/bin/env bash
# Round 14, call 2 (after the rocpd read transaction and the fcntl change): the scaling table (11
# interleaved runs per size), the rocpd row of the table (anchors.py, 7 runs, scale 1),
# every format at 1/10 scale (3 runs: peak RSS across sizes, with call 3's 3x) and the per-trial
# overhead of `sweep run`.
set -u
here=$PWD/.gpu/anchors
export PATH=$here/bin:$PATH
pv=$(python3 -c 'import sys;print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
python3 -m pip install -q --no-deps --target /tmp/pyx "$here"/wheels/*-"$pv"-*.whl 2>&1 | tail -1
export PYTHONPATH=/tmp/pyx
{ echo "cores $(nproc); $(grep -m1 'model name' /proc/cpuinfo); $(python3 --version); sqlite3 $(sqlite3 -version | cut -d' ' -f1)"; uptime; } | tee "$OUT/machine.txt"
python3 benchmarks/anchors.py --aorta "$here/bin/aorta" --scale 1 --only rocpd --dir /tmp/anc-1 \
  --generate-only >/dev/null &
for f in hatchet chrome_trace csv rocpd; do
  python3 benchmarks/anchors.py --aorta "$here/bin/aorta" --scale 0.1 --only "$f" --dir /tmp/anc-0.1 \
    --generate-only >/dev/null &
done
wait
uptime | tee -a "$OUT/machine.txt"
LD_LIBRARY_PATH=$here/lib python3 benchmarks/scaling.py --aorta "$here/real/aorta" --runs 11 \
  --no-callgrind 2>&1 | tee "$OUT/scaling.md"
uptime | tee -a "$OUT/machine.txt"
python3 benchmarks/anchors.py --aorta "$here/bin/aorta" --scale 1 --only rocpd --runs 7 \
  --dir /tmp/anc-1 --keep 2>&1 | tee "$OUT/anchors-1-rocpd.md"
python3 benchmarks/anchors.py --aorta "$here/bin/aorta" --simdjson-walk "$here/bin/simdjson_walk" \
  --scale 0.1 --runs 3 --dir /tmp/anc-0.1 --keep 2>&1 | tee "$OUT/anchors-0.1.md"
uptime | tee -a "$OUT/machine.txt"
LD_LIBRARY_PATH=$here/lib AORTA_BENCH_AORTA=$here/real/aorta "$here/real/sweep_overhead" \
  2>&1 | tee "$OUT/sweep_overhead.txt"
uptime | tee -a "$OUT/machine.txt"
