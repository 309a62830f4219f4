"""Summarises an interleaved A/B log of call1.sh or call2.sh: per file and program the CPU seconds
(user + sys) over the passes, and per pass the ratio simdjson / aorta of the runs made side by
side in that pass (above 1.0: aorta used less CPU than simdjson's On-Demand walk).
usage: python3 pairs.py LOG"""
import collections
import statistics
import sys

cpu = collections.defaultdict(list)
for line in open(sys.argv[1]):
    fields = line.split()
    if len(fields) >= 8 and fields[2] == "exit" and fields[3] == "0":
        cpu[(fields[0], fields[1])].append(float(fields[7]))

print("| file | program | runs | CPU min | CPU median | CPU max |")
print("|---|---|---:|---:|---:|---:|")
for (name, program), runs in sorted(cpu.items()):
    print(f"| {name} | {program} | {len(runs)} | {min(runs):.3f} | {statistics.median(runs):.3f} "
          f"| {max(runs):.3f} |")
print()
print("| file | aorta | paired ratio, median | passes aorta used less CPU | ratio of the mins |")
print("|---|---|---:|---:|---:|")
for name in sorted({n for n, _ in cpu}):
    anchor = cpu.get((name, "simdjson"))
    if not anchor:
        continue
    for program in ("before", "after"):
        runs = cpu[(name, program)]
        ratios = [a / b for a, b in zip(anchor, runs)]
        wins = sum(r > 1.0 for r in ratios)
        print(f"| {name} | {program} | {statistics.median(ratios):.2f}x | {wins}/{len(ratios)} "
              f"| {min(anchor) / min(runs):.2f}x |")
