#!/usr/bin/env bash
# Round 12, second call: aorta (main's binary = before, this round's = after) against simdjson's
# On-Demand walk on the 100 MB hatchet and chrome trace files, 21 passes, the three programs
# interleaved within each pass, CPU (user + sys) and wall of each run; then the scaling inputs.
set -u
here=$PWD/.gpu/anchors
export PATH=$here/bin:$PATH
{ echo "cores $(nproc); $(grep -m1 'model name' /proc/cpuinfo)"; uptime; } | tee "$OUT/machine.txt"
for f in chrome_trace hatchet; do
  python3 benchmarks/anchors.py --aorta "$here/bin/aorta" --scale 1 --only "$f" --dir /tmp/anc-ab \
    --generate-only >/dev/null &
done
wait
cat > /tmp/rss.py <<'PY'
import os, subprocess, sys, time
t = time.perf_counter()
p = subprocess.Popen(sys.argv[3:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(p.pid, 0)
print(f"{sys.argv[1]} {sys.argv[2]} exit {os.waitstatus_to_exitcode(status)} wall "
      f"{time.perf_counter() - t:.3f} cpu {usage.ru_utime + usage.ru_stime:.3f} user "
      f"{usage.ru_utime:.3f}", flush=True)
PY
for pass in $(seq 21); do
  for f in chrome_trace:chrome:proton.chrome_trace hatchet:hatchet:proton.hatchet; do
    IFS=: read -r name walk file <<<"$f"
    for b in before after simdjson; do
      if [[ $b == simdjson ]]; then
        LD_LIBRARY_PATH=$here/lib python3 /tmp/rss.py "$name" "$b" "$here/real/simdjson_walk" \
          "$walk" "/tmp/anc-ab/$name/$file"
        continue
      fi
      bin=$here/real/aorta
      [[ $b == before ]] && bin=$PWD/.gpu/before/aorta
      LD_LIBRARY_PATH=$here/lib python3 /tmp/rss.py "$name" "$b" "$bin" check --json \
        --collector proton "/tmp/anc-ab/$name"
    done
  done
done 2>&1 | tee "$OUT/ab21.txt"
for f in chrome_trace hatchet; do
  for b in before after; do
    bin=$here/real/aorta
    [[ $b == before ]] && bin=$PWD/.gpu/before/aorta
    LD_LIBRARY_PATH=$here/lib "$bin" check --json --collector proton "/tmp/anc-ab/$f" > "/tmp/$b-$f.json"
  done
  cmp "/tmp/before-$f.json" "/tmp/after-$f.json" && echo "$f: output identical"
done 2>&1 | tee -a "$OUT/ab21.txt"
rm -rf /tmp/anc-ab
uptime | tee -a "$OUT/machine.txt"
bash benchmarks/readers-cpu-2026-12-02b/run.sh scaling
uptime | tee -a "$OUT/machine.txt"
