#!/usr/bin/env python3
"""One CSV line per trial of a block: the straggler check's value, verdict and named rank."""
import json, pathlib, re, sys

block, ranks, heavy, serialize, out = sys.argv[1:6]
root = pathlib.Path(out) / block
with open(pathlib.Path(out) / "trials.csv", "a") as csv:
    for trial in sorted(root.glob("trial_*/result.json"), key=lambda p: int(p.parent.name[6:])):
        record = json.loads(trial.read_text())
        row = {"straggler": "", "passed": "", "rank": "", "imbalance": ""}
        for check in record.get("checks", []):
            text = check.get("expression", "")
            if text.startswith("straggler("):
                row["straggler"] = check.get("actual", "").split(" ")[0]
                row["passed"] = check.get("passed", "")
                found = re.search(r"rank (\d+) at", check.get("actual", ""))
                row["rank"] = found.group(1) if found else ""
            elif text.startswith("imbalance("):
                row["imbalance"] = check.get("actual", "").split(" ")[0]
        cards = sorted({r.get("card", "") for r in record.get("ranks", [])})
        csv.write(f"{block},{trial.parent.name},{ranks},{heavy},{serialize},{row['straggler']},"
                  f"{row['passed']},{row['rank']},{row['imbalance']},{record.get('verdict')},{' '.join(cards)}\n")
