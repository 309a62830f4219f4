#!/usr/bin/env bash
# Round 14, call 1: the table (anchors.py, 7 interleaved runs, scale 1), the scaling table
# (11 interleaved runs per size), and an A/B of main (8931c5b) against this round on the two
# report inputs at full size and the 300 MB kernel trace (11 interleaved rounds).
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
python3 tests/cli/make_scaling_inputs.py /tmp/ab --only many_collectors_results,many_cells_results >/dev/null &
wait
python3 benchmarks/anchors.py --aorta "$here/bin/aorta" --simdjson-walk "$here/bin/simdjson_walk" \
  --scale 1 --runs 7 --dir /tmp/anc-1 --keep 2>&1 | tee "$OUT/anchors-1.md"
uptime | tee -a "$OUT/machine.txt"
LD_LIBRARY_PATH=$here/lib python3 benchmarks/scaling.py --aorta "$here/real/aorta" --runs 11 \
  --no-callgrind 2>&1 | tee "$OUT/scaling.md"
uptime | tee -a "$OUT/machine.txt"
csv300=$(ls -d /tmp/anc-1/csv_300* | head -1)
LD_LIBRARY_PATH=$here/lib python3 .gpu/ab.py .gpu/before/aorta "$here/real/aorta" 11 \
  "report, 80,000 collectors::report /tmp/ab/many_collectors_results" \
  "report, 30,000 cells::report /tmp/ab/many_cells_results" \
  "kernel_trace.csv, 300 MB::check --json --collector rocprof $csv300" 2>&1 | tee "$OUT/ab.md"
uptime | tee -a "$OUT/machine.txt"
