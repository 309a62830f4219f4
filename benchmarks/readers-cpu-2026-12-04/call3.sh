#!/usr/bin/env bash
# Round 14, call 3: peak RSS and the vs-anchor ratios at 3x scale (hatchet and chrome trace
# 300 MB, rocpd 3 M dispatches; 3 interleaved runs), beside call 1's scale 1 and call 2's 1/10.
set -u
here=$PWD/.gpu/anchors
export PATH=$here/bin:$PATH
pv=$(python3 -c 'import sys;print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
python3 -m pip install -q --no-deps --target /tmp/pyx "$here"/wheels/*-"$pv"-*.whl 2>&1 | tail -1
export PYTHONPATH=/tmp/pyx
{ echo "cores $(nproc); $(grep -m1 'model name' /proc/cpuinfo); $(python3 --version); sqlite3 $(sqlite3 -version | cut -d' ' -f1)"; uptime; } | tee "$OUT/machine.txt"
for f in hatchet chrome_trace rocpd; do
  python3 benchmarks/anchors.py --aorta "$here/bin/aorta" --scale 3 --only "$f" --dir /tmp/anc-3 \
    --generate-only >/dev/null &
done
wait
uptime | tee -a "$OUT/machine.txt"
python3 benchmarks/anchors.py --aorta "$here/bin/aorta" --simdjson-walk "$here/bin/simdjson_walk" \
  --scale 3 --only hatchet,chrome_trace,rocpd --runs 3 --dir /tmp/anc-3 --keep \
  2>&1 | tee "$OUT/anchors-3.md"
uptime | tee -a "$OUT/machine.txt"
