#!/usr/bin/env python3
"""Judges h39d.sh's cells runs through the regression gate, offline, on the real captures.

Each run directory holds three cells of TRIALS trials, run round by round on one GPU: base, twin
(the same K: unchanged) and head (+10% K). For each run the base trials are the baseline and
`aorta compare --json` judges twin (one unchanged gate) and head (one +10% gate) against them with
the default gate (`time +5%`); each side is the cell's own trial directories (their Proton chrome
traces, read again by this aorta), copied under one test name so compare pairs them. Every
process is used in one run only.

usage: replay_gate.py AORTA RUNS_DIR OUT_JSON
"""
import collections
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile


def judge(aorta, work, run, cell):
    sides = {}
    for side, source in (("base", "base"), ("new", cell)):
        sides[side] = os.path.join(work, side)
        shutil.rmtree(sides[side], ignore_errors=True)
        shutil.copytree(os.path.join(run, source), os.path.join(sides[side], "gemm"))
    answer = subprocess.run([aorta, "compare", sides["base"], sides["new"], "--json"],
                            capture_output=True, text=True, check=False)
    if not answer.stdout.strip():
        return {"verdict": "NO ANSWER", "stderr": answer.stderr[-500:]}
    rows = [r for r in json.loads(answer.stdout)["rows"] if r["quantity"].startswith("time_ms(")]
    if len(rows) != 1:
        return {"verdict": "NO ROW", "rows": [r["quantity"] for r in rows]}
    row = rows[0]
    return {"verdict": row["verdict"], "delta": row["delta"], "p_value": row["p_value"],
            "multimodal": row.get("modes") is not None, "evidence": row["evidence"][:300]}


def main():
    aorta, runs_dir, out_path = sys.argv[1:4]
    results, counts = [], collections.Counter()
    with tempfile.TemporaryDirectory() as work:
        for run in sorted(glob.glob(os.path.join(runs_dir, "*"))):
            if not os.path.exists(os.path.join(run, "matrix.json")):
                continue  # a run killed at its deadline: never judged
            source = os.path.basename(run).rsplit("-", 1)[0]
            for kind, cell in (("aa", "twin"), ("ten", "head")):
                result = dict(judge(aorta, work, run, cell), run=os.path.basename(run), kind=kind)
                results.append(result)
                counts[(source, kind, result["verdict"])] += 1
                counts[(source, kind, "multimodal")] += bool(result.get("multimodal"))
                print(json.dumps(result)[:240], flush=True)
    summary = {}
    for (source, kind, what), n in sorted(counts.items()):
        summary.setdefault(source, {}).setdefault(kind, {})[what] = n
    print(json.dumps(summary))
    with open(out_path, "w", encoding="utf-8") as handle:
        json.dump({"summary": summary, "gates": results}, handle, indent=1)


if __name__ == "__main__":
    main()
