#!/usr/bin/env bash
# Round 13, first call: the issue's table with anchors.py (7 interleaved runs); main's binary
# (before) and this round's (after) interleaved on the rocpd file's peak RSS and on the 100,000-
# and 10,000-scope inputs; then the scaling table.
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
python3 tests/cli/make_scaling_inputs.py /tmp/sc1 --only many_scopes &
python3 tests/cli/make_scaling_inputs.py /tmp/sc01 --scale 0.1 --only many_scopes &
wait
cat > /tmp/rss.py <<'PY'
import os, subprocess, sys, time
t = time.perf_counter()
p = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(p.pid, 0)
print(f"{sys.argv[1]} exit {os.waitstatus_to_exitcode(status)} wall {time.perf_counter() - t:.4f} "
      f"cpu {usage.ru_utime + usage.ru_stime:.4f} maxrss_kib {usage.ru_maxrss}", flush=True)
PY
for pass in $(seq 15); do
  for b in before after; do
    bin=$here/real/aorta
    [[ $b == before ]] && bin=$PWD/.gpu/before/aorta
    LD_LIBRARY_PATH=$here/lib python3 /tmp/rss.py "rocpd $b" "$bin" check --json --collector rocprof /tmp/anc-1/rocpd
    for s in sc01 sc1; do
      LD_LIBRARY_PATH=$here/lib python3 /tmp/rss.py "scopes-$s $b" "$bin" check --collector proton \
        "/tmp/$s/many_scopes" --check "cycles(no_such_scope) > 0"
    done
  done
done 2>&1 | tee "$OUT/ab15.txt"
for b in before after; do
  bin=$here/real/aorta
  [[ $b == before ]] && bin=$PWD/.gpu/before/aorta
  LD_LIBRARY_PATH=$here/lib "$bin" check --json --collector rocprof /tmp/anc-1/rocpd > "/tmp/$b-rocpd.json"
  LD_LIBRARY_PATH=$here/lib "$bin" check --collector proton /tmp/sc1/many_scopes --check "cycles(no_such_scope) > 0" > "/tmp/$b-scopes.txt"
done
cmp /tmp/before-rocpd.json /tmp/after-rocpd.json && echo "rocpd: output identical" | tee -a "$OUT/ab15.txt"
cmp /tmp/before-scopes.txt /tmp/after-scopes.txt && echo "scopes: output identical" | tee -a "$OUT/ab15.txt"
uptime | tee -a "$OUT/machine.txt"
python3 benchmarks/anchors.py --aorta "$here/bin/aorta" --simdjson-walk "$here/bin/simdjson_walk" \
  --scale 1 --runs 7 --dir /tmp/anc-1 --keep 2>&1 | tee "$OUT/anchors-1.md"
uptime | tee -a "$OUT/machine.txt"
LD_LIBRARY_PATH=$here/lib python3 benchmarks/scaling.py --aorta "$here/real/aorta" --runs 5 \
  --no-callgrind 2>&1 | tee "$OUT/scaling.md"
uptime | tee -a "$OUT/machine.txt"
