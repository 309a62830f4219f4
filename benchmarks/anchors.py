#!/usr/bin/env python3
"""aorta's readers against their anchors, on the same generated files, in one run (issue 21).

For each format it writes one file (deterministic, into --dir), then times, as whole processes:
  - aorta:   `aorta check --json --collector C DIR` (read, sum, metrics, JSON out); for the
             Proton formats and rocpd also with an under() check, which makes the reader keep
             the tree;
  - python:  the plain Python way (json.load / csv.reader / nothing for rocpd) summing per kernel;
  - anchor:  what is near the machine's limit for the format: pysimdjson's DOM parse plus the
             same Python walk (hatchet, chrome trace) and, with --simdjson-walk, simdjson's C++
             On-Demand API doing that walk; `wc -l` (csv); the sqlite3 CLI running aorta's old
             query and a GROUP BY on the integer kernel id (rocpd).
The csv format runs at two sizes (--csv-sizes, MB) in a table of its own, with aorta's GB/s.
Each command runs once as a warm-up, then --runs times (default 3), the commands of one file
taking turns run by run; the medians of wall and CPU time and the largest peak RSS are printed,
with aorta's speed relative to each (anchor time / aorta time: above 1.0, aorta is faster).

usage: anchors.py --aorta PATH [--dir DIR] [--scale F] [--runs N] [--only FORMATS] [--keep]
                  [--simdjson-walk PATH]
                  [--csv-sizes MB,MB]
Needs: python3, sqlite3 (CLI), wc, GNU time (/usr/bin/time, for peak RSS); pysimdjson (`pip install pysimdjson`) for the JSON anchor,
else that column says "n/a".
"""
import argparse
import csv
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--aorta", required=True)
parser.add_argument("--dir", default="/tmp/aorta_anchors")
parser.add_argument("--scale", type=float, default=1.0,
                    help="1.0: hatchet ~100 MB, chrome ~100 MB, csv ~100 MB, rocpd 1 M dispatches")
parser.add_argument("--runs", type=int, default=3)
parser.add_argument("--only", default="", help="comma-separated formats to run")
parser.add_argument("--keep", action="store_true", help="keep the generated files in --dir")
parser.add_argument("--generate-only", action="store_true",
                    help="write the files into --dir and time nothing (several formats can be "
                         "written at once by separate runs; a later run with --keep times them)")
parser.add_argument("--simdjson-walk", default="",
                    help="path of aorta.anchor.simdjson_walk (benchmarks/simdjson_walk.cpp): simdjson's "
                         "C++ On-Demand API doing the same walk, a second anchor for the Proton "
                         "formats")
parser.add_argument("--csv-sizes", default="100,300",
                    help="csv: sizes in MB (times --scale) of the kernel traces, one row each")
args = parser.parse_args()
root = os.path.abspath(args.dir)
rng = random.Random(21)


def mb(path):
    return os.path.getsize(path) / 1e6


# ---- generators -------------------------------------------------------------------------------
def write_hatchet(path, target_bytes):
    """Proton's tree: 5,000 kernels under 1,000 call paths of 20 frames, each path calling 10 of
    the kernels. The paths repeat, as a real program's do: with a fresh random name per frame the
    tree passed the reader's frame limit and was dropped, so an under() check timed a tree thrown
    away (round 6's "hatchet with an under() check" rows)."""
    kernels = [f"kernel_{i}_Cijk_Ailk_Bljk_HHS_BH_MT128x128x32" for i in range(5000)]
    paths = [[f"model_{rng.randint(0, 40)}.py:{rng.randint(1, 900)}@forward_{depth}"
              for depth in range(19)] + [f"layer_{p % 32}"] for p in range(1000)]

    def frame(name, metrics, children):
        return {"children": children, "frame": {"name": name, "type": "function"},
                "metrics": metrics}

    with open(path, "w") as f:
        f.write('[{"children": [')
        written, first = 0, True
        while written < target_bytes:
            which = rng.randrange(len(paths))
            kernel = kernels[(which * 7 + rng.randint(0, 9)) % len(kernels)]
            leaf = frame(kernel, {"count": rng.randint(1, 50),
                                  "device_id": "0", "device_type": "1",
                                  "time (ns)": float(rng.randint(1000, 10 ** 6))}, [])
            node = leaf
            for name in paths[which]:
                node = frame(name, {}, [node])
            text = ("" if first else ",") + json.dumps(node, separators=(",", ":"))
            f.write(text)
            written += len(text)
            first = False
        f.write('], "frame": {"name": "ROOT", "type": "function"}, "metrics": {}}, '
                '{"CUDA": {"0": {"arch": "90", "num_sms": 132}}}]')


def write_chrome(path, target_bytes):
    kernels = [f"kernel_{i}" for i in range(500)]
    with open(path, "w") as f:
        f.write('{"traceEvents": [')
        written, ts, first = 0, 0.0, True
        while written < target_bytes:
            k = rng.choice(kernels)
            event = {"args": {"call_stack": ["ROOT", f"layer_{rng.randint(0, 31)}",
                                             rng.choice(["prefill", "decode"]), k]},
                     "cat": "kernel", "dur": float(rng.randint(1, 3000)), "name": k, "ph": "X",
                     "tid": 7, "ts": ts}
            ts += 3000.0
            text = ("" if first else ",") + json.dumps(event, separators=(",", ":"))
            f.write(text)
            written += len(text)
            first = False
        f.write("]}")


CSV_HEADER = ["Kind", "Agent_Id", "Queue_Id", "Stream_Id", "Thread_Id", "Dispatch_Id", "Kernel_Id",
              "Kernel_Name", "Correlation_Id", "Start_Timestamp", "End_Timestamp",
              "Private_Segment_Size", "Group_Segment_Size", "Workgroup_Size_X",
              "Workgroup_Size_Y", "Workgroup_Size_Z", "Grid_Size_X", "Grid_Size_Y", "Grid_Size_Z",
              "LDS_Block_Size", "Scratch_Size", "SGPR_Count"]


def write_csv(path, target_bytes):
    names = [f"Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_{i}" for i in range(200)]
    with open(path, "w", newline="") as f:
        w = csv.writer(f, quoting=csv.QUOTE_NONNUMERIC)
        w.writerow(CSV_HEADER)
        row = 0
        while f.tell() < target_bytes:
            start = row * 1000
            k = row % 200
            w.writerow(["KERNEL_DISPATCH", 1, 1, 0, 42, row, k, names[k], row, start,
                        start + 100 + row % 5000, 0, 0, 256, 1, 1, 65536, 1, 1, 0, 0, 16])
            row += 1


def write_rocpd(path, dispatches):
    """Direct layout of schema version 3 (tests/fixtures/rocpd/README.md), 80,000 kernels."""
    db = sqlite3.connect(path)
    db.executescript(f"""
      PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
      CREATE TABLE rocpd_metadata (id INTEGER PRIMARY KEY, tag TEXT, value TEXT);
      INSERT INTO rocpd_metadata (tag, value) VALUES ('schema_version', '3');
      CREATE TABLE rocpd_info_agent (id INTEGER PRIMARY KEY, guid TEXT, type TEXT,
        absolute_index INTEGER, type_index INTEGER, name TEXT, generic_name TEXT,
        product_name TEXT);
      INSERT INTO rocpd_info_agent VALUES (1, 'g', 'GPU', 1, 0, 'a0', 'gfx942', 'MI300X'),
        (2, 'g', 'GPU', 2, 1, 'a1', 'gfx942', 'MI300X'), (3, 'g', 'GPU', 3, 2, 'a2', 'gfx942',
        'MI300X'), (4, 'g', 'GPU', 4, 3, 'a3', 'gfx942', 'MI300X');
      CREATE TABLE rocpd_info_kernel_symbol (id INTEGER PRIMARY KEY, guid TEXT,
        kernel_name TEXT, display_name TEXT);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 80000)
        INSERT INTO rocpd_info_kernel_symbol SELECT i, 'g',
          'Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_' || i || '.kd',
          'Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_' || i FROM n;
      CREATE TABLE rocpd_kernel_dispatch (id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER,
        pid INTEGER, agent_id INTEGER, kernel_id INTEGER, dispatch_id INTEGER,
        queue_id INTEGER, stream_id INTEGER, start BIGINT, "end" BIGINT,
        workgroup_size_x INTEGER, grid_size_x INTEGER);
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {dispatches - 1})
        INSERT INTO rocpd_kernel_dispatch (guid, nid, pid, agent_id, kernel_id, dispatch_id,
          queue_id, stream_id, start, "end", workgroup_size_x, grid_size_x)
        SELECT 'g', 1, 1, 1 + i % 4, 1 + (i * 7919) % 80000, i, 1, 1, i * 1000,
          i * 1000 + 100 + (i * 31) % 5000, 256, 65536 FROM n;
    """)
    db.commit()
    db.close()


# ---- the Python way ---------------------------------------------------------------------------
PY_HATCHET = r"""
import json, sys
doc = json.load(open(sys.argv[1]))
totals = {}
stack = [doc[0]]
while stack:
    node = stack.pop()
    children = node.get("children") or []
    if not children and "time (ns)" in node["metrics"]:
        t = totals.setdefault(node["frame"]["name"], [0, 0.0])
        t[0] += node["metrics"].get("count", 0); t[1] += node["metrics"]["time (ns)"]
    stack.extend(children)
print(len(totals))
"""
SIMD_HATCHET = PY_HATCHET.replace("import json, sys", "import simdjson, sys").replace(
    "json.load(open(sys.argv[1]))", "simdjson.Parser().load(sys.argv[1])")
PY_CHROME = r"""
import json, sys
totals = {}
for e in json.load(open(sys.argv[1]))["traceEvents"]:
    if e.get("ph") == "X" and e.get("cat") == "kernel":
        t = totals.setdefault(e["name"], [0, 0.0]); t[0] += 1; t[1] += e["dur"] * 1e3
print(len(totals))
"""
SIMD_CHROME = PY_CHROME.replace("import json, sys", "import simdjson, sys").replace(
    "json.load(open(sys.argv[1]))", "simdjson.Parser().load(sys.argv[1])")
PY_CSV = r"""
import csv, sys
totals = {}
with open(sys.argv[1], newline="") as f:
    r = csv.reader(f); header = next(r)
    name, start, end = (header.index(c) for c in ("Kernel_Name", "Start_Timestamp", "End_Timestamp"))
    for row in r:
        t = totals.setdefault(row[name], [0, 0]); t[0] += 1; t[1] += int(row[end]) - int(row[start])
print(len(totals))
"""
OLD_ROCPD_QUERY = (
    "SELECT COALESCE(NULLIF(S.display_name, ''), S.kernel_name), A.id, COUNT(*), "
    "SUM(K.\"end\" - K.start) FROM rocpd_kernel_dispatch K JOIN rocpd_info_kernel_symbol S "
    "ON S.id = K.kernel_id AND S.guid = K.guid LEFT JOIN rocpd_info_agent A "
    "ON A.id = K.agent_id AND A.guid = K.guid GROUP BY 1, 2 ORDER BY 2, 1;")
BY_ID_QUERY = ("SELECT kernel_id, agent_id, COUNT(*), SUM(\"end\" - start) "
               "FROM rocpd_kernel_dispatch GROUP BY agent_id, kernel_id;")


# ---- timing ------------------------------------------------------------------------------------
def run_once(argv):
    """Wall seconds, CPU seconds (user + sys of the child) and peak RSS (KiB) of one run."""
    rss_file = os.path.join(root, "peak_rss_kib")
    started = time.monotonic()
    with open(os.devnull, "wb") as sink:
        # A child forked from this Python starts with its memory counted (ru_maxrss keeps the
        # larger of before and after exec), so the peak comes from GNU time's %M.
        proc = subprocess.Popen(TIME + ["-f", "%M", "-o", rss_file] + argv if TIME else argv,
                                stdout=sink, stderr=sink)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - started
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"failed ({status}): {' '.join(argv)}")
    peak = usage.ru_maxrss
    if TIME:
        with open(rss_file) as f:
            peak = int(f.read().split()[-1])
    return wall, usage.ru_utime + usage.ru_stime, peak


def measure_together(argvs):
    """Per command: median wall seconds, median CPU seconds and max peak RSS (MiB) over the runs.
    Each command runs once as a warm-up, then the runs go round by round, every command once per
    round, so all of them meet the machine in the same states: on a machine whose speed drifts
    or switches between states, back-to-back runs of one command would favour whichever ran in
    the fast state. On a loaded machine the wall time is mostly waiting for a CPU, so the CPU
    time is the figure to compare."""
    samples = [([], [], 0) for _ in argvs]
    for run in range(args.runs + 1):
        for i, argv in enumerate(argvs):
            wall, cpu, peak = run_once(argv)
            if run > 0:
                walls, cpus, rss = samples[i]
                walls.append(wall)
                cpus.append(cpu)
                samples[i] = (walls, cpus, max(rss, peak / 1024))
    return [Timing(statistics.median(w), statistics.median(c), r) for w, c, r in samples]


TIME = ["/usr/bin/time"] if os.access("/usr/bin/time", os.X_OK) else None


class Timing:
    def __init__(self, wall, cpu, rss):
        self.wall, self.cpu, self.rss = wall, cpu, rss

    def text(self):
        return f"{self.wall:.2f} s (CPU {self.cpu:.2f} s)"


def ratio(anchor, aorta):
    """anchor / aorta by wall and by CPU time: above 1.0, aorta is faster."""
    # A run shorter than the clock's tick reads as 0 s; count it as one tick.
    tick = 0.01
    return (f"{max(anchor.wall, tick) / max(aorta.wall, tick):.2f}x "
            f"(CPU {max(anchor.cpu, tick) / max(aorta.cpu, tick):.2f}x)")


def gbps(size_bytes, seconds):
    return size_bytes / 1e9 / seconds if seconds > 0 else float("inf")


def csv_rows(py, scale):
    """The rocprofv3 kernel trace at each --csv-sizes size: aorta, Python's csv module and `wc -l`
    on the same file, with aorta's GB/s by wall and by CPU time and its peak RSS (flat: the
    scanner holds a 1 MiB chunk and one entry per distinct kernel)."""
    print()
    print("| csv file | size | Python csv | wc -l | aorta | aorta GB/s | aorta peak RSS | "
          "aorta vs Python | aorta vs wc -l |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for mb_target in (float(x) for x in args.csv_sizes.split(",") if x):
        folder = os.path.join(root, f"csv_{mb_target:g}")
        path = os.path.join(folder, "run_kernel_trace.csv")
        if not os.path.exists(path):
            os.makedirs(folder, exist_ok=True)
            write_csv(path, int(mb_target * 1e6 * scale))
        if args.generate_only:
            continue
        size = os.path.getsize(path)
        aorta, python, wc = measure_together(
            [[args.aorta, "check", "--json", "--collector", "rocprof", folder],
             [py, "-c", PY_CSV, path], ["wc", "-l", path]])
        print(f"| kernel_trace.csv | {size / 1e6:.0f} MB | {python.text()} | {wc.text()} | "
              f"{aorta.text()} | {gbps(size, aorta.wall):.2f} (CPU {gbps(size, aorta.cpu):.2f}) | "
              f"{aorta.rss:.1f} MiB | {ratio(python, aorta)} | {ratio(wc, aorta)} |", flush=True)


def main():
    os.makedirs(root, exist_ok=True)
    scale = args.scale
    py = sys.executable
    try:
        import simdjson  # noqa: F401
        have_simd = True
    except ImportError:
        have_simd = False
    formats = {
        "hatchet": ("proton", "proton.hatchet", lambda p: write_hatchet(p, int(100e6 * scale)),
                    [py, "-c", PY_HATCHET], [py, "-c", SIMD_HATCHET] if have_simd else None,
                    "pysimdjson DOM + walk"),
        "chrome_trace": ("proton", "proton.chrome_trace",
                         lambda p: write_chrome(p, int(100e6 * scale)), [py, "-c", PY_CHROME],
                         [py, "-c", SIMD_CHROME] if have_simd else None, "pysimdjson DOM + walk"),
        "rocpd": ("rocprof", "aorta_results.db",
                  lambda p: write_rocpd(p, max(1000, int(1_000_000 * scale))), None,
                  ["sqlite3", "-readonly"], "sqlite3 CLI"),
    }
    only = [f for f in args.only.split(",") if f]
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"| file | size | Python | anchor | aorta wall / peak RSS | aorta vs Python | "
          f"aorta vs anchor |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, (collector, filename, generate, python_way, anchor, anchor_name) in formats.items():
        if only and name not in only:
            continue
        folder = os.path.join(root, name)
        path = os.path.join(folder, filename)
        if not os.path.exists(path):
            os.makedirs(folder, exist_ok=True)
            generate(path)
        if args.generate_only:
            continue
        # Every command of this file in one interleaved measurement: aorta, the Python way, the
        # anchors and, for the Proton formats and rocpd, aorta again with the call tree kept.
        commands = [("aorta", [args.aorta, "check", "--json", "--collector", collector, folder])]
        if python_way:
            commands.append(("python", python_way + [path]))
        if anchor and name == "rocpd":
            for label, sql in (("aorta's old query", OLD_ROCPD_QUERY), ("by kernel id", BY_ID_QUERY)):
                commands.append((f"{anchor_name}, {label}", anchor + [path, sql]))
        elif anchor:
            commands.append((anchor_name, anchor + [path]))
        if args.simdjson_walk and collector == "proton":
            walk_kind = "hatchet" if name == "hatchet" else "chrome"
            commands.append(("simdjson On-Demand (C++)", [args.simdjson_walk, walk_kind, path]))
        if collector == "proton" or name == "rocpd":
            # A scope-addressed check, so the call tree is built (rocpd: one frame per agent);
            # its own verdict (exit 1 when no frame matches) does not matter here.
            scope = "/^gpu0$" if name == "rocpd" else "/^layer_1$"
            commands.append(("tree", [args.aorta, "check", "--json", "--collector", collector,
                                      folder, "--check", f"count(under({scope})) >= 0"]))
        timed = dict(zip((label for label, _ in commands),
                         measure_together([argv for _, argv in commands])))
        aorta = timed.pop("aorta")
        python = timed.pop("python", None)
        tree = timed.pop("tree", None)
        anchors = list(timed.items())
        anchor_text = "; ".join(f"{label} {t.text()}" for label, t in anchors) or "n/a"
        ratio_text = " / ".join(ratio(t, aorta) for _, t in anchors) or "n/a"
        print(f"| {name} | {mb(path):.0f} MB | {python.text() if python else 'n/a'} | "
              f"{anchor_text} | {aorta.text()} / {aorta.rss:.1f} MiB | "
              f"{ratio(python, aorta) if python else 'n/a'} | "
              f"{ratio_text} |", flush=True)
        if tree:
            print(f"| {name}, with an under() check | {mb(path):.0f} MB | | | "
                  f"{tree.text()} / {tree.rss:.1f} MiB | "
                  f"{ratio(python, tree) if python else 'n/a'} | "
                  f"{' / '.join(ratio(t, tree) for _, t in anchors) or 'n/a'} |", flush=True)
    if not only or "csv" in only:
        csv_rows(py, scale)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if not args.keep and not args.generate_only:
        shutil.rmtree(root, ignore_errors=True)


main()
