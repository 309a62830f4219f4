#!/usr/bin/env python3
"""The tables of docs/regression-gate.md ("Deterministic GPU counters") from ncu_gate.sh's
runs.tgz: per counter, how it varies over the A/A trials and over every unchanged trial of the
gate; per experiment, the gate verdicts, the rows' verdicts and the trials used.
usage: analyse.py RUNS_TGZ"""
import collections
import csv
import io
import json
import random
import re
import statistics
import sys
import tarfile


def counters_of_csv(text):
    """Per metric, the sum over the launches of the one kernel of a details page."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    sums = collections.defaultdict(float)
    for row in csv.DictReader(lines[start:]):
        sums[row["Metric Name"]] += float(row["Metric Value"].replace(",", ""))
    return sums


def spread(name, values):
    median = statistics.median(values)
    spread_pct = (max(values) - min(values)) / median * 100 if median else 0.0
    cv = statistics.pstdev(values) / statistics.mean(values) * 100 if median else 0.0
    return (f"| `{name}` | {len(values)} | {len(set(values))} | {median:.6g} | "
            f"{spread_pct:.3f}% | {cv:.3f}% |")


def main(path):
    tar = tarfile.open(path)
    members = {m.name: m for m in tar.getmembers() if m.isfile()}
    read = lambda name: tar.extractfile(members[name]).read().decode()
    print("A/A, plain ncu, 10 processes (metric | trials | distinct values | median | "
          "(max-min)/median | CV):")
    aa = collections.defaultdict(list)
    for name in sorted(n for n in members if re.match(r"\./aa/trial_\d+/ncu\.csv$", n)):
        for metric, value in counters_of_csv(read(name)).items():
            aa[metric].append(value)
    for metric in sorted(aa):
        print(spread(metric, aa[metric]))
    print("\nEvery unchanged trial of the gate runs (baseline + same_*), through aorta's "
          "result.json:")
    unchanged = collections.defaultdict(list)
    for name in members:
        if re.match(r"\./runs/(baseline|same_\d+)/trial_\d+/result\.json$", name):
            metrics = json.loads(read(name))["metrics"]
            for key, value in metrics.items():
                if key.startswith("ncu_counter."):
                    unchanged[key.split("/")[0]].append(value)
            unchanged["ncu_gpu_time_ms"].append(metrics["ncu_gpu_time_ms"])
    for key in sorted(unchanged):
        print(spread(key, unchanged[key]))
    print("\nReplay of the range rule on the unchanged trials (seeded draws without replacement; "
          "false alarms per row):")
    rng = random.Random(1)
    for key in sorted(k for k in unchanged if k.startswith("ncu_counter.")):
        values = unchanged[key]
        cells = []
        for base_n in (1, 3, 5):
            for tolerance, exact in ((0.0, True), (0.01, False)):
                alarms = 0
                for _ in range(4000):
                    draw = rng.sample(values, base_n + 3)
                    base, new = draw[:base_n], draw[base_n:]
                    up = min(new) / max(base) - 1 > tolerance + 1e-12
                    down = max(new) / min(base) - 1 < -tolerance - 1e-12
                    alarms += up or (exact and down)
                label = "exact" if exact else f"+{tolerance:.0%}"
                cells.append(f"{base_n}/3 {label} {alarms / 40:.1f}%")
        print(f"| `{key}` | " + " | ".join(cells) + " |")
    print("\nGates (experiment | gates | failed | mean trials | row verdicts per counter):")
    gates = collections.defaultdict(list)
    rows = collections.defaultdict(collections.Counter)
    for name in members:
        match = re.match(r"\./runs/(same|plus10)_\d+/gate\.json$", name)
        if not match:
            continue
        gate = json.loads(read(name))
        gates[match.group(1)].append(gate)
        for row in gate["rows"]:
            # The device run named rows ncu(kernel, metric); aorta now writes ncu(metric, kernel).
            metric = next(t for t in re.split(r"[(), ]+", row["quantity"]) if "__" in t)
            rows[(match.group(1), metric)][row["verdict"]] += 1
    for experiment, runs in sorted(gates.items()):
        failed = sum(gate["verdict"] == "fail" for gate in runs)
        trials = statistics.mean(gate["trials"] for gate in runs)
        verdicts = "; ".join(f"{metric}: " + ", ".join(f"{v} {n}" for v, n in sorted(c.items()))
                             for (e, metric), c in sorted(rows.items()) if e == experiment)
        print(f"| {experiment} | {len(runs)} | {failed} | {trials:.2f} | {verdicts} |")


if __name__ == "__main__":
    main(sys.argv[1])
