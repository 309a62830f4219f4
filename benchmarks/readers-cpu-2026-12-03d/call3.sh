#!/usr/bin/env bash
# Round 12, third call: anchors.py with its commands interleaved run by run (this round's
# anchors.py, carried in .gpu), 7 runs each, every reader at scale 1.
set -u
here=$PWD/.gpu/anchors
export PATH=$here/bin:$PATH
pv=$(python3 -c 'import sys;print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
python3 -m pip install -q --no-deps --target /tmp/pyx "$here"/wheels/*-"$pv"-*.whl 2>&1 | tail -1
export PYTHONPATH=/tmp/pyx
{ echo "cores $(nproc); $(grep -m1 'model name' /proc/cpuinfo); $(python3 --version); sqlite3 $(sqlite3 -version | cut -d' ' -f1)"; uptime; } | tee "$OUT/machine.txt"
for f in hatchet chrome_trace csv rocpd; do
  python3 .gpu/anchors.py --aorta "$here/bin/aorta" --scale 1 --only "$f" --dir /tmp/anc-1 \
    --generate-only >/dev/null &
done
wait
python3 .gpu/anchors.py --aorta "$here/bin/aorta" --simdjson-walk "$here/bin/simdjson_walk" \
  --scale 1 --runs 7 --dir /tmp/anc-1 --keep 2>&1 | tee "$OUT/anchors-1.md"
uptime | tee -a "$OUT/machine.txt"
