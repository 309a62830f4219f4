#!/usr/bin/env python3
"""Pools ab_report.sh output files: per binary and input, the min CPU time over every pass at
each size (scaling.py prints each pass's min of 5) and the growth of those mins.
usage: pool.py FILE..."""
import re
import sys

mins = {}  # (binary, input) -> [min 1/10, min full, passes]
for path in sys.argv[1:]:
    which = None
    for line in open(path):
        if line.startswith("## pass"):
            which = line.split(":")[1].split("(")[0].strip()
        elif line.startswith("| report, ") and which:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            name, small, full = cells[0], float(cells[1]), float(cells[2])
            entry = mins.setdefault((which, name), [small, full, 0])
            entry[0], entry[1], entry[2] = min(entry[0], small), min(entry[1], full), entry[2] + 1
print("| input | binary | passes | CPU min 1/10 (ms) | CPU min full (ms) | growth of the mins |")
print("|---|---|---:|---:|---:|---:|")
for (which, name), (small, full, passes) in sorted(mins.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    print(f"| {name} | {which} | {passes} | {small:.1f} | {full:.1f} | {full / small:.2f}x |")
