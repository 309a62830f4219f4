#!/usr/bin/env python3
"""Interleaved A/B of whole aorta commands: before and after binaries on the same inputs, N rounds
(one warm-up), each round every (input, binary) once in a rotating order. Prints min / median of
CPU (user + sys, from wait4) and wall per input and binary."""
import os, statistics, subprocess, sys, time
before, after, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
inputs = [arg.split("::") for arg in sys.argv[4:]]  # "label::arg1 arg2 ..."
cmds = []
for label, args in inputs:
    for tag, binary in (("before", before), ("after", after)):
        cmds.append((label, tag, [binary] + args.split()))
def run(argv):
    t = time.monotonic()
    with open(os.devnull, "wb") as sink:
        p = subprocess.Popen(argv, stdout=sink, stderr=sink)
        _, status, usage = os.wait4(p.pid, 0)
    return time.monotonic() - t, usage.ru_utime + usage.ru_stime
for c in cmds: run(c[2])
samples = {i: [] for i in range(len(cmds))}
for r in range(rounds):
    order = list(range(len(cmds)))
    order = order[r % len(order):] + order[:r % len(order)]
    for i in order: samples[i].append(run(cmds[i][2]))
print(f"| input | binary | CPU min | CPU median | wall min | wall median |  ({rounds} rounds)")
print("|---|---|---:|---:|---:|---:|")
for i, (label, tag, _) in enumerate(cmds):
    w = [s[0] for s in samples[i]]; c = [s[1] for s in samples[i]]
    print(f"| {label} | {tag} | {min(c):.3f} | {statistics.median(c):.3f} | {min(w):.3f} | {statistics.median(w):.3f} |")
