#!/usr/bin/env bash
# Round 11 A/B on the GPU machine's CPUs, run as .gpu/r11b.sh with .gpu staged as for
# rocpd_rss.sh: round 10's binary (before) against this round's (after), 5 alternating passes
# over chrome trace, hatchet and rocpd; CPU time and peak RSS of each run.
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
      f"{time.perf_counter() - t:.3f} cpu {usage.ru_utime + usage.ru_stime:.3f} rss_kib "
      f"{usage.ru_maxrss}", flush=True)
PY
for pass in 1 2 3 4 5; do
  for f in chrome_trace:proton hatchet:proton rocpd:rocprof; do
    for b in before after; do
      bin=$here/real/aorta
      [[ $b == before ]] && bin=$PWD/.gpu/before/aorta
      LD_LIBRARY_PATH=$here/lib python3 /tmp/rss.py "${f%%:*}" "$b" "$bin" check --json \
        --collector "${f##*:}" "/tmp/anc-ab/${f%%:*}"
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
uptime | tee -a "$OUT/machine.txt"
