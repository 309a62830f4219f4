#!/usr/bin/env python3
"""Detection and false-alarm counts of the straggler check from h44.sh's trials.csv.

A trial of an unchanged block that fails `straggler(...) <= 1.05` is a false alarm; a trial of a
heavy block detects the straggler when it fails and names the heavy rank.
"""
import csv, statistics, sys

rows = list(csv.DictReader(open(sys.argv[1])))
for ranks in sorted({r["ranks"] for r in rows}):
    for serialize in sorted({r["serialize"] for r in rows}):
        unchanged = [r for r in rows if r["ranks"] == ranks and r["serialize"] == serialize
                     and r["heavy"] == "-1"]
        heavy = [r for r in rows if r["ranks"] == ranks and r["serialize"] == serialize
                 and r["heavy"] != "-1"]
        if not unchanged and not heavy:
            continue
        def value(r):
            try:
                return float(r["straggler"])
            except ValueError:
                return None
        false_alarms = sum(1 for r in unchanged if r["passed"] != "True")
        detected = sum(1 for r in heavy if r["passed"] != "True" and r["named_rank"] == r["heavy"])
        flagged = sum(1 for r in heavy if r["passed"] != "True")
        u_values = [v for v in map(value, unchanged) if v is not None]
        h_values = [v for v in map(value, heavy) if v is not None]
        print(f"ranks {ranks}, serialize {serialize}: unchanged {len(unchanged)} trials, "
              f"{false_alarms} false alarm(s) (straggler values {min(u_values, default=0):.4f}.."
              f"{max(u_values, default=0):.4f}, median {statistics.median(u_values) if u_values else 0:.4f}); "
              f"one rank +10%: {len(heavy)} trials, {flagged} flagged, {detected} naming the heavy "
              f"rank (values {min(h_values, default=0):.4f}..{max(h_values, default=0):.4f}, "
              f"median {statistics.median(h_values) if h_values else 0:.4f})")
