#!/usr/bin/env python3
"""Detection and false-alarm counts from run_figures.sh's runs.csv (README.md has the table).

Per configuration (tool, ranks, extra work): the straggler check at 1.05 per trial (a trial is
flagged when its value passes 1.05; it names a rank), the same per run (any trial flagged), and
the gated run (the gate failed; its failing or AMBIGUOUS rows name ranks and kinds).
"""
import csv, sys
from collections import defaultdict

rows = list(csv.DictReader(open(sys.argv[1])))
groups = defaultdict(list)
for row in rows:
    groups[(row["tool"], int(row["ranks"]), int(row["extra_percent"]))].append(row)
print("| tool | ranks | extra work | runs | check: trials > 1.05 (named the heavy rank) | "
      "check: runs flagged | gate failed | gate rows on the heavy rank (F/A) | gate rows on other ranks |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for (tool, ranks, extra), runs in sorted(groups.items()):
    heavy = int(runs[0]["heavy"])
    trials = flagged = named = runs_flagged = gate_failed = on_heavy = on_other = 0
    kinds = defaultdict(int)
    for run in runs:
        any_flag = False
        for part in run["straggler_value_rank_per_trial"].split():
            trials += 1
            if part == "unknown":
                flagged += 1
                any_flag = True
                continue
            value, rank = part.split(":")
            if float(value) > 1.05:
                flagged += 1
                any_flag = True
                named += int(rank) == heavy
        runs_flagged += any_flag
        gate_failed += int(run["gate_failed"]) > 0
        failing = run["gate_rows_failing"].split()
        if any(int(f.split(":")[0]) == heavy for f in failing):
            on_heavy += 1
            for f in failing:
                if int(f.split(":")[0]) == heavy:
                    kinds[f.split(":", 1)[1]] += 1
        if any(int(f.split(":")[0]) != heavy for f in failing):
            on_other += 1
    kind_text = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) or "-"
    label = "none" if extra == 0 else f"rank {heavy} +{extra}%"
    heavy_text = f"{on_heavy}/{len(runs)} ({kind_text})" if extra else "-"
    print(f"| {tool} | {ranks} | {label} | {len(runs)} | {flagged}/{trials} "
          f"({named if extra else '-'}) | {runs_flagged}/{len(runs)} | {gate_failed}/{len(runs)} | "
          f"{heavy_text} | {on_other}/{len(runs)} |")
