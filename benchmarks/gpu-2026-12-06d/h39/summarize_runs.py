#!/usr/bin/env python3
"""Counts the verdicts of h39d.sh's cells runs: for each run directory (an `aorta sweep run` of
cells_<source>.yaml), the GEMM's time row of twin against base (the A/A) and of head against base
(+10% work) from matrix.json: verdict, change, p, whether it was judged multi-modal; and every
trial's per-launch kernel durations from its Proton chrome trace, and which tiles it drew (from
pool.jsonl), so the modes can be read beside the verdicts.

usage: summarize_runs.py RUNS_DIR POOL_JSONL OUT_JSON
"""
import collections
import glob
import json
import os
import sys


def time_row(matrix, cell):
    rows = [r for r in matrix["confound"]["rows"]
            if r["cell"] == cell and r["quantity"].startswith("time_ms(")]
    if len(rows) != 1:
        return {"verdict": "NO ROW", "rows": [r["quantity"] for r in rows]}
    r = rows[0]
    return {"quantity": r["quantity"], "verdict": r["verdict"], "ratio": r["ratio"],
            "p": r["p_value"], "multimodal": r["modes"] is not None,
            "evidence": r["evidence"][:300]}


def launches(trial_dir):
    found = {}
    for path in glob.glob(os.path.join(trial_dir, "proton", "*.chrome_trace")):
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if not line.strip():
                    continue
                for event in json.loads(line).get("traceEvents", []):
                    if event.get("cat") == "kernel" and event.get("ph") == "X":
                        found.setdefault(event["name"], []).append((event["ts"], event["dur"]))
    return {name: [round(d, 3) for _, d in sorted(v)] for name, v in found.items()}


def trial_key(trial_dir):
    """run/cell/trial_N: the same trial on the GPU machine and where its archive is unpacked."""
    return "/".join(os.path.normpath(trial_dir).split(os.sep)[-3:])


def main():
    runs_dir, pool_path, out_path = sys.argv[1:4]
    drawn = {}
    if os.path.exists(pool_path):
        for line in open(pool_path, encoding="utf-8"):
            rec = json.loads(line)
            drawn[trial_key(os.path.dirname(os.path.dirname(rec["trial"])))] = rec
    runs, counts = [], collections.Counter()
    for run in sorted(glob.glob(os.path.join(runs_dir, "*"))):
        matrix_path = os.path.join(run, "matrix.json")
        if not os.path.exists(matrix_path):
            runs.append({"run": os.path.basename(run), "complete": False})
            continue
        matrix = json.load(open(matrix_path, encoding="utf-8"))
        if not matrix.get("confound"):  # a run stopped at its deadline: its partial matrix
            runs.append({"run": os.path.basename(run), "complete": False})
            continue
        source = os.path.basename(run).rsplit("-", 1)[0]
        record = {"run": os.path.basename(run), "source": source, "complete": True,
                  "aa": time_row(matrix, "twin"), "ten": time_row(matrix, "head"), "trials": {}}
        for cell in ("base", "twin", "head"):
            for trial in sorted(glob.glob(os.path.join(run, cell, "trial_*")),
                                key=lambda p: int(p.rsplit("_", 1)[1])):
                pool = drawn.get(trial_key(trial), {})
                record["trials"].setdefault(cell, []).append(
                    {"launches": launches(trial), "tiles": pool.get("tiles", ""),
                     "held_s": pool.get("held_s"), "waited_s": pool.get("waited_s")})
        for kind in ("aa", "ten"):
            counts[(source, kind, record[kind]["verdict"])] += 1
            counts[(source, kind, "multimodal")] += bool(record[kind].get("multimodal"))
        runs.append(record)
    summary = {}
    for (source, kind, what), n in sorted(counts.items()):
        summary.setdefault(source, {}).setdefault(kind, {})[what] = n
    with open(out_path, "w", encoding="utf-8") as handle:
        json.dump({"summary": summary, "runs": runs}, handle)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
