#!/usr/bin/env bash
# Round 11 on the GPU machine's CPUs, run from the repository root as .gpu/r11.sh: .gpu staged by
# readers-cpu-2026-12-02b/stage.sh (this round's aorta), round 10's aorta in .gpu/before and
# readers-cpu-2026-12-02b/run.sh in .gpu/run.sh. rocpd peak RSS of the two binaries, 5
# alternating runs each, then run.sh's anchors for rocpd, hatchet and chrome trace.
set -u
here=$PWD/.gpu/anchors
export PATH=$here/bin:$PATH
python3 benchmarks/anchors.py --aorta "$here/bin/aorta" --scale 1 --only rocpd --dir /tmp/anc-r11 \
  --generate-only >/dev/null
cat > /tmp/rss.py <<'PY'
import os, subprocess, sys, time
t = time.perf_counter()
p = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(p.pid, 0)
print(f"{sys.argv[1]}: exit {os.waitstatus_to_exitcode(status)} wall {time.perf_counter() - t:.3f} s "
      f"cpu {usage.ru_utime + usage.ru_stime:.3f} s peak RSS {usage.ru_maxrss} KiB", flush=True)
PY
for i in 1 2 3 4 5; do
  for b in before after; do
    bin=$here/real/aorta
    [[ $b == before ]] && bin=$PWD/.gpu/before/aorta
    LD_LIBRARY_PATH=$here/lib python3 /tmp/rss.py "$b" "$bin" check --json --collector rocprof \
      /tmp/anc-r11/rocpd
  done
done 2>&1 | tee "$OUT/rocpd_rss_ab.txt"
LD_LIBRARY_PATH=$here/lib "$here/real/aorta" check --json --collector rocprof /tmp/anc-r11/rocpd \
  > /tmp/after.json
LD_LIBRARY_PATH=$here/lib "$PWD/.gpu/before/aorta" check --json --collector rocprof \
  /tmp/anc-r11/rocpd > /tmp/before.json
cmp /tmp/before.json /tmp/after.json && echo "check --json output identical" | tee -a "$OUT/rocpd_rss_ab.txt"
rm -rf /tmp/anc-r11
bash .gpu/run.sh 1:rocpd,hatchet,chrome_trace
