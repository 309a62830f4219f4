#!/usr/bin/env bash
# Round 13, second call: the table with this round's final binary (anchors.py, 7
# interleaved runs) and the scaling table with 11 interleaved runs per size (its mins steadier
# than call 1's 5 on a machine whose times switch between two speeds).
set -u
here=$PWD/.gpu/anchors
export PATH=$here/bin:$PATH
pv=$(python3 -c 'import sys;print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
python3 -m pip install -q --no-deps --target /tmp/pyx "$here"/wheels/*-"$pv"-*.whl 2>&1 | tail -1
export PYTHONPATH=/tmp/pyx
{ echo "cores $(nproc); $(grep -m1 'model name' /proc/cpuinfo); $(python3 --version); sqlite3 $(sqlite3 -version | cut -d' ' -f1)"; uptime; } | tee "$OUT/machine.txt"
for f in hatchet chrome_trace csv rocpd; do
  python3 benchmarks/anchors.py --aorta "$here/bin/aorta" --scale 1 --only "$f" --dir /tmp/anc-1 \
    --generate-only >/dev/null &
done
wait
python3 benchmarks/anchors.py --aorta "$here/bin/aorta" --simdjson-walk "$here/bin/simdjson_walk" \
  --scale 1 --runs 7 --dir /tmp/anc-1 --keep 2>&1 | tee "$OUT/anchors-1.md"
uptime | tee -a "$OUT/machine.txt"
LD_LIBRARY_PATH=$here/lib python3 benchmarks/scaling.py --aorta "$here/real/aorta" --runs 11 \
  --no-callgrind 2>&1 | tee "$OUT/scaling.md"
uptime | tee -a "$OUT/machine.txt"
