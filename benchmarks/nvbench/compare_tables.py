#!/usr/bin/env python3
"""Tables for benchmarks/nvbench/<run>/README.md from an unpacked nvbench-gate.tgz: aorta's gate
rows (gate.json) and nvbench's own nvbench_compare.py on the same nvbench JSON files (each gate
trial against the baseline's trial_0, nvbench's one-reference usage).

usage: compare_tables.py RUN_DIR NVBENCH_COMPARE_PY PYTHON
"""
import glob
import json
import os
import re
import subprocess
import sys


def gate_rows(run):
    print("| gate | variant | aorta exit | verdict | trials | row: delta, verdict |")
    print("|---|---|---:|---|---:|---|")
    for path in sorted(glob.glob(f"{run}/gates/*/gemm/gate.json"),
                       key=lambda p: (int(re.search(r"/r(\d+)-", p).group(1)), p)):
        gate = json.load(open(path))
        name = path.split("/")[-3]
        rows = "; ".join(f"{r['quantity']}: {(r['delta'] or 0) * 100:+.2f}% {r['verdict']}"
                         for r in gate["rows"] if r["quantity"].startswith("time_ms"))
        exit_code = "1" if gate["verdict"] == "fail" else "0"
        print(f"| {name.split('-')[0]} | {name.split('-')[1]} | {exit_code} | {gate['verdict']} | "
              f"{gate['trials']} | {rows} |")


def table_cells(text):
    """(N, %Diff, status word) per row of nvbench_compare's markdown table."""
    cells = []
    header = None
    for line in text.splitlines():
        if not line.startswith("|") or set(line) <= set("|-: "):
            continue
        columns = [c.strip() for c in line.strip("|").split("|")]
        if header is None or columns[0] == "N":
            header = columns
            continue
        row = dict(zip(header, columns))
        cells.append((row["N"], row["%Diff"], row["Status"].split()[-1]))
    return cells


def compare_rows(run, script, python):
    reference = f"{run}/base/gemm/trial_0/nvbench/nvbench.json"
    print("| gate | variant | trial | exit | N=1024 %diff, status | N=2048 %diff, status |")
    print("|---|---|---:|---:|---|---|")
    totals = {}
    for variant in ("same", "slow"):
        for path in sorted(glob.glob(f"{run}/gates/*-{variant}/gemm/trial_*/nvbench/nvbench.json"),
                           key=lambda p: (int(re.search(r"/r(\d+)-", p).group(1)), p)):
            done = subprocess.run([python, script, "--no-color", reference, path],
                                  capture_output=True, text=True, check=False)
            cells = table_cells(done.stdout)
            gate = path.split("/")[-5]
            trial = path.split("/")[-3]
            status = {n: f"{diff} {word}" for n, diff, word in cells}
            for _, _, word in cells:
                totals[(variant, word)] = totals.get((variant, word), 0) + 1
            totals[(variant, f"exit {done.returncode}")] = totals.get(
                (variant, f"exit {done.returncode}"), 0) + 1
            print(f"| {gate.split('-')[0]} | {variant} | {trial} | {done.returncode} | "
                  f"{status.get('1024', '-')} | {status.get('2048', '-')} |")
    print()
    for key in sorted(totals):
        print(f"- {key[0]}: {key[1]}: {totals[key]}")


def main(argv):
    run, script, python = argv
    gate_rows(run)
    print()
    compare_rows(run, script, python)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
