"""Per-process summary of pool.jsonl (one line per torch process, written by modes_torch.py).

For each process: the median of its launches after the warm-up (aorta's rule: the leading launches
before the first 3 in a row within 1.25x of the second half's median, at most half), whether the
stream had drained before the timed loop, and the median host time of a loop iteration. Then
whether the per-process medians of one K form modes (a gap of 1.2x or more between sorted
neighbours, each side holding at least 2 processes)."""
import json
import statistics
import sys


def steady(times):
    if len(times) < 8:
        return times
    reference = statistics.median(times[len(times) // 2:])
    run = 0
    for i, t in enumerate(times[: len(times) // 2 + 3]):
        run = run + 1 if t <= 1.25 * reference and t >= reference / 1.25 else 0
        if run == 3:
            return times[i - 2:]
    return times[len(times) // 2:]


def main():
    rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
    phases = sys.argv[2].split(",") if len(sys.argv) > 2 else None
    by_k = {}
    for row in rows:
        if phases and row["phase"] not in phases:
            continue
        med = statistics.median(steady(row["us"]))
        by_k.setdefault(row["k"], []).append(med)
        print(json.dumps({"phase": row["phase"], "k": row["k"], "median_us": round(med, 2),
                          "dropped": len(row["us"]) - len(steady(row["us"])),
                          "drained_before": row.get("drained_before"),
                          "host_us_median": round(statistics.median(row["host_us"]), 1),
                          "process_s": row.get("process_s"), "out": row.get("out", "")}))
    for k, meds in sorted(by_k.items()):
        meds.sort()
        gaps = [(meds[i + 1] / meds[i], i) for i in range(1, len(meds) - 2)]
        ratio, at = max(gaps) if gaps else (1.0, 0)
        print(f"K={k}: {len(meds)} processes, medians {[round(m, 1) for m in meds]}")
        print(f"K={k}: largest gap {ratio:.3f}x between {meds[at]:.1f} and {meds[at + 1]:.1f} us: "
              + ("MODES" if ratio >= 1.2 else "no modes"))


if __name__ == "__main__":
    main()
