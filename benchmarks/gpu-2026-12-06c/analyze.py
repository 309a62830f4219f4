#!/usr/bin/env python3
"""Counts of the gated runs of h44r.sh: false alarms in the A/A runs, detections in the runs with
one rank at +10%, the per-trial straggler ratio, and the per-rank times of the run without the
card lock.

    analyze.py RESULTS_DIR      (the unpacked h44r/ of the call: runs.csv and runs/*.tgz)

A run is *flagged* when its gated sweep's gate.json says "fail". Its failing rows are split into
confident ones (a row whose verdict is MORE/SLOWER/...: "fails" true and not AMBIGUOUS) and rows
still AMBIGUOUS at the 3-trial budget (which fail under the default `ambiguous fail`). A heavy
run is *detected* when a confident failing row names the heavy rank; *named alone* when every
confident failing row is the heavy rank's.
"""
import csv, json, pathlib, re, statistics, sys, tarfile

root = pathlib.Path(sys.argv[1])
unpacked = root / "unpacked"
unpacked.mkdir(exist_ok=True)
for archive in sorted((root / "runs").glob("*.tgz")):
    if not (unpacked / archive.stem).exists():
        with tarfile.open(archive) as tar:
            tar.extractall(unpacked, filter="data")


def trial_ratios(sweep):
    """Per trial: (largest rank / median of its peers, that rank, per-rank ms) from result.json."""
    out = []
    for result in sorted(sweep.glob("trial_*/result.json"), key=lambda p: int(p.parent.name[6:])):
        record = json.loads(result.read_text())
        times = {}
        for row in record.get("ranks", []):
            kernels = row.get("kernels", {})
            times[row["rank"]] = sum(k.get("time_ms", 0.0) for k in kernels.values())
        if len(times) < 2:
            out.append((None, None, times))
            continue
        worst = (0.0, None)
        for rank, value in times.items():
            peers = statistics.median(v for r, v in times.items() if r != rank)
            if peers > 0 and value / peers > worst[0]:
                worst = (value / peers, rank)
        out.append((worst[0], worst[1], times))
    return out


def rank_of(quantity):
    found = re.match(r"rank (\d+) ", quantity)
    return int(found.group(1)) if found else None


rows_out = []
with open(root / "runs.csv") as handle:
    plan = list(csv.DictReader(handle))
for run in plan:
    name, kind, heavy = run["run"], run["kind"], int(run["heavy"])
    base = unpacked / name
    gate_file = base / "gated/test/gate.json"
    gate = json.loads(gate_file.read_text()) if gate_file.exists() else None
    confident, ambiguous, unknown = [], [], []
    if gate:
        for row in gate["rows"]:
            if row["verdict"] == "AMBIGUOUS":
                ambiguous.append(row["quantity"])
            elif row["verdict"] == "UNKNOWN":
                unknown.append(row["quantity"])
            elif row.get("fails"):
                confident.append(row["quantity"])
    ratios = trial_ratios(base / "base/test") + trial_ratios(base / "gated/test")
    rows_out.append({
        "run": name, "kind": kind, "heavy": heavy, "serialize": run["serialize"],
        "gated_rc": run["gated_rc"], "verdict": gate["verdict"] if gate else "none",
        "confident": confident, "ambiguous": ambiguous, "unknown": unknown,
        "detected": heavy >= 0 and any(rank_of(q) == heavy for q in confident),
        "named_alone": heavy >= 0 and bool(confident) and all(rank_of(q) == heavy for q in confident),
        "trials": ratios,
    })

for row in rows_out:
    trials = " ".join(f"{r:.4f}@{k}" if r else "-" for r, k, _ in row["trials"])
    print(f"{row['run']:10} {row['kind']:6} heavy={row['heavy']:2} rc={row['gated_rc']} "
          f"gate={row['verdict']:5} confident={len(row['confident'])} ambiguous={len(row['ambiguous'])} "
          f"unknown={len(row['unknown'])} detected={row['detected']} trials: {trials}")
    for label, items in (("  confident", row["confident"]), ("  ambiguous", row["ambiguous"]),
                         ("  unknown", row["unknown"])):
        for item in items:
            print(f"{label}: {item}")

print()
for kind in ("aa", "heavy"):
    runs = [r for r in rows_out if r["kind"] == kind]
    if not runs:
        continue
    flagged = sum(r["verdict"] == "fail" for r in runs)
    with_confident = sum(bool(r["confident"]) for r in runs)
    with_ambiguous_only = sum(bool(r["ambiguous"]) and not r["confident"] for r in runs)
    print(f"{kind}: {len(runs)} runs; gate failed {flagged}; with a confident failing row "
          f"{with_confident}; failed on AMBIGUOUS rows alone {with_ambiguous_only}")
    if kind == "heavy":
        print(f"heavy: detected (a confident row on the heavy rank) {sum(r['detected'] for r in runs)}"
              f"/{len(runs)}; only the heavy rank's rows confident {sum(r['named_alone'] for r in runs)}")
    # The per-trial check `straggler(time_ms) <= 1.05`, on every trial of these runs.
    unchanged = [t for r in runs for t in r["trials"][:3]]
    judged = [t for r in runs for t in r["trials"][3:]]
    def over(ts):
        return sum(1 for v, _, _ in ts if v is not None and v > 1.05), len(ts)
    print(f"  per-trial straggler > 1.05: baseline trials {over(unchanged)[0]}/{over(unchanged)[1]}, "
          f"gated trials {over(judged)[0]}/{over(judged)[1]}")
    values = sorted(v for v, _, _ in judged if v is not None)
    if values:
        print(f"  gated trials' straggler ratio: min {values[0]:.4f} median "
              f"{statistics.median(values):.4f} max {values[-1]:.4f}")

shared = [r for r in rows_out if r["kind"] == "shared"]
for row in shared:
    print(f"\nshared card, no lock ({row['run']}, heavy rank {row['heavy']} in the gated trials):")
    for item in row["unknown"][:1]:
        print(f"  gate UNKNOWN row (of {len(row['unknown'])}): {item}")
    first = unpacked / row["run"] / "gated/test/trial_0/result.json"
    if first.exists():
        for note in json.loads(first.read_text()).get("notes", []):
            if "shared" in note:
                print(f"  note: {note}")
    for index, (ratio, rank, times) in enumerate(row["trials"]):
        side = "baseline" if index < 3 else "gated"
        shown = ", ".join(f"{r}={v:.3f}" for r, v in sorted(times.items()))
        print(f"  {side} trial {index % 3}: ms per rank {shown}; straggler {ratio:.4f} on rank {rank}"
              if ratio else f"  {side} trial {index % 3}: {shown}")
