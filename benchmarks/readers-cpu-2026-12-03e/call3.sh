#!/usr/bin/env bash
# Round 13, third call: peak RSS across sizes (anchors.py at scales 0.1 and 3: 10 and 300 MB JSON
# files, 0.1 and 3 M rocpd dispatches over the same 80,000 kernels), 3 interleaved runs each;
# then the per-trial overhead of `sweep run`.
set -u
here=$PWD/.gpu/anchors
export PATH=$here/bin:$PATH
pv=$(python3 -c 'import sys;print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
python3 -m pip install -q --no-deps --target /tmp/pyx "$here"/wheels/*-"$pv"-*.whl 2>&1 | tail -1
export PYTHONPATH=/tmp/pyx
{ echo "cores $(nproc); $(grep -m1 'model name' /proc/cpuinfo); $(python3 --version); sqlite3 $(sqlite3 -version | cut -d' ' -f1)"; uptime; } | tee "$OUT/machine.txt"
for scale in 0.1 3; do
  for f in hatchet chrome_trace rocpd; do
    python3 benchmarks/anchors.py --aorta "$here/bin/aorta" --scale "$scale" --only "$f" \
      --dir "/tmp/anc-$scale" --generate-only >/dev/null &
  done
done
wait
for scale in 0.1 3; do
  python3 benchmarks/anchors.py --aorta "$here/bin/aorta" --simdjson-walk "$here/bin/simdjson_walk" \
    --scale "$scale" --only hatchet,chrome_trace,rocpd --runs 3 --dir "/tmp/anc-$scale" --keep \
    2>&1 | tee "$OUT/anchors-$scale.md"
  uptime | tee -a "$OUT/machine.txt"
done
LD_LIBRARY_PATH=$here/lib AORTA_BENCH_AORTA=$here/real/aorta "$here/real/sweep_overhead" \
  2>&1 | tee "$OUT/sweep_overhead.txt"
uptime | tee -a "$OUT/machine.txt"
