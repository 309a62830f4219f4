#!/usr/bin/env bash
# Readers against their anchors on the GPU machine's quiet CPUs (stage.sh first), then the
# scaling inputs and the per-trial overhead of `sweep run`.
# usage: run.sh ITEM...   ITEM: SCALE[:FORMATS] (anchors.py --scale/--only), "scaling", "overhead"
set -u
here=$PWD/.gpu/anchors
export PATH=$here/bin:$PATH
pv=$(python3 -c 'import sys;print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
python3 -m pip install -q --no-deps --target /tmp/pyx "$here"/wheels/*-"$pv"-*.whl 2>&1 | tail -1
export PYTHONPATH=/tmp/pyx
{ echo "cores $(nproc); $(grep -m1 'model name' /proc/cpuinfo); $(python3 --version); sqlite3 $(sqlite3 -version | cut -d' ' -f1)"; uptime; } | tee "$OUT/machine.txt"
for item in "$@"; do
  scale=${item%%:*}
  only=hatchet,chrome_trace,csv,rocpd
  [[ "$item" == *:* ]] && only=${item#*:}
  case "$scale" in
    scaling)
      LD_LIBRARY_PATH=$here/lib python3 benchmarks/scaling.py --aorta "$here/real/aorta" --runs 5 \
        --no-callgrind 2>&1 | tee "$OUT/scaling.md"
      continue ;;
    overhead)
      # The benchmark runs aorta itself: the real binary, with the libraries on the path.
      LD_LIBRARY_PATH=$here/lib AORTA_BENCH_AORTA=$here/real/aorta "$here/real/sweep_overhead" \
        2>&1 | tee "$OUT/sweep_overhead.txt"
      continue ;;
  esac
  # Files are written in parallel first (generation is Python's time, not measured), then timed
  # one command at a time.
  for f in ${only//,/ }; do
    python3 benchmarks/anchors.py --aorta "$here/bin/aorta" --scale "$scale" --only "$f" \
      --dir "/tmp/anc-$scale" --generate-only &
  done
  wait
  python3 benchmarks/anchors.py --aorta "$here/bin/aorta" --simdjson-walk "$here/bin/simdjson_walk" \
    --scale "$scale" --runs 3 --only "$only" --dir "/tmp/anc-$scale" --keep 2>&1 |
    tee "$OUT/anchors-$scale.md"
  du -sh /tmp/anc-$scale/* | tee -a "$OUT/anchors-$scale.md"
  rm -rf "/tmp/anc-$scale"
done
