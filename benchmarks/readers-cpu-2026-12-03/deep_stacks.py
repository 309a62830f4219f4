#!/usr/bin/env python3
"""Deep call stacks on the GPU machine's quiet CPU: aorta view (which crashed past ~30,000 levels
before f17c1d2) and an ambiguous under() whose ten matches lie at the bottom (38 s and 16 MB of
message before 6962d03). Min/median of 5 runs, each a fresh process; peak RSS from wait4."""
import json, os, statistics, subprocess, sys, time
aorta = sys.argv[1]
TIME = os.path.exists("/usr/bin/time")
out_dir = "/tmp/deep_inputs"
os.makedirs(out_dir, exist_ok=True)
def write(name, stack):
    path = f"{out_dir}/{name}.chrome_trace"
    with open(path, "w") as f:
        json.dump({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 0, "dur": 5,
                                    "args": {"call_stack": stack}}]}, f)
    return path
cases = []
for depth in (3_000, 30_000, 199_984):
    p = write(f"view_{depth}", ["ROOT"] + [f"f{i}" for i in range(depth)] + ["k"])
    cases.append((f"view, call stack {depth:,} deep ({os.path.getsize(p):,} B)", [aorta, "view", p], 0))
for depth in (19_990, 199_970):
    p = write(f"zz_{depth}", ["ROOT"] + [f"f{i}" for i in range(depth)] + ["zz"] * 10 + ["k"])
    cases.append((f"check count(under(zz)), 10 matches below {depth:,} levels ({os.path.getsize(p):,} B)",
                  [aorta, "check", p, "--check", "count(under(zz)) >= 1"], 1))
print("| input | exit | output bytes | wall min / median (s) | peak RSS (MiB) |")
print("|---|---:|---:|---:|---:|")
for label, argv, want in cases:
    walls, rss, rc, size = [], 0, None, 0
    for _ in range(5):
        t = time.perf_counter()
        # GNU time reports the program's own peak: a child forked from Python starts with
        # Python's pages counted in ru_maxrss.
        timed = ["/usr/bin/time", "-f", "%M", "-o", "/tmp/deep_rss"] + argv if TIME else argv
        proc = subprocess.Popen(timed, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        data = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - t)
        if TIME:
            with open("/tmp/deep_rss") as f:
                rss = max(rss, int(f.read().split()[-1]))
        rc, size = os.waitstatus_to_exitcode(status), len(data)
    mark = "" if rc == want else f" (expected {want})"
    print(f"| {label} | {rc}{mark} | {size:,} | {min(walls):.3f} / {statistics.median(walls):.3f} | {rss / 1024 if TIME else float('nan'):.1f} |")
