#!/usr/bin/env python3
"""The straggler check's value and named rank of every trial under a run directory: 'v:r v:r'."""
import json, pathlib, re, sys

parts = []
for result in sorted(pathlib.Path(sys.argv[1]).glob("trial_*/result.json"),
                     key=lambda p: int(p.parent.name[6:])):
    for check in json.loads(result.read_text()).get("checks", []):
        if check.get("expression", "").startswith("straggler("):
            found = re.match(r"([0-9.]+) \(rank (\d+) at", check.get("actual", ""))
            parts.append(f"{found.group(1)}:{found.group(2)}" if found else "unknown")
print(" ".join(parts))
