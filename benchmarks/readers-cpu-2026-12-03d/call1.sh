#!/usr/bin/env bash
# Round 12 on the GPU machine's CPUs: main's binary (before), this round's (after) and simdjson's
# On-Demand walk, interleaved run by run over the 100 MB chrome trace and hatchet files (7 passes),
# rocpd before/after; outputs compared; then run.sh's anchors table at scale 1.
set -u
here=$PWD/.gpu/anchors
export PATH=$here/bin:$PATH
{ echo "cores $(nproc); $(grep -m1 'model name' /proc/cpuinfo)"; uptime; } | tee "$OUT/machine.txt"
for f in chrome_trace hatchet rocpd; do
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
for pass in 1 2 3 4 5 6 7; do
  for f in chrome_trace:proton:chrome:proton.chrome_trace hatchet:proton:hatchet:proton.hatchet rocpd:rocprof::; do
    IFS=: read -r name collector walk file <<<"$f"
    for b in before after simdjson; do
      if [[ $b == simdjson ]]; then
        [[ -z $walk ]] && continue
        LD_LIBRARY_PATH=$here/lib python3 /tmp/rss.py "$name" "$b" "$here/real/simdjson_walk" \
          "$walk" "/tmp/anc-ab/$name/$file"
        continue
      fi
      bin=$here/real/aorta
      [[ $b == before ]] && bin=$PWD/.gpu/before/aorta
      LD_LIBRARY_PATH=$here/lib python3 /tmp/rss.py "$name" "$b" "$bin" check --json \
        --collector "$collector" "/tmp/anc-ab/$name"
    done
  done
done 2>&1 | tee "$OUT/ab.txt"
for f in chrome_trace:proton hatchet:proton rocpd:rocprof; do
  for b in before after; do
    bin=$here/real/aorta
    [[ $b == before ]] && bin=$PWD/.gpu/before/aorta
    LD_LIBRARY_PATH=$here/lib "$bin" check --json --collector "${f##*:}" "/tmp/anc-ab/${f%%:*}" \
      > "/tmp/$b-${f%%:*}.json"
  done
  cmp "/tmp/before-${f%%:*}.json" "/tmp/after-${f%%:*}.json" && echo "${f%%:*}: output identical"
done 2>&1 | tee -a "$OUT/ab.txt"
rm -rf /tmp/anc-ab
uptime | tee -a "$OUT/machine.txt"
bash benchmarks/readers-cpu-2026-12-02b/run.sh 1
uptime | tee -a "$OUT/machine.txt"
