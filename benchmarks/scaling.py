#!/usr/bin/env python3
"""How aorta's time grows with the awkward dimension of an input (issue 21): the inputs of
tests/cli/scaling.cmake (call-stack depth, GPUs in the device table, instrumentation scopes, rocpd
agents), generated at 1/10 and at full size, each command timed as a whole process. Prints CPU
seconds (user + sys, median of --runs after one warm-up) at both sizes and their ratio: linear
work gives about 10x (a fixed start-up cost makes it less), quadratic 100x.

usage: scaling.py --aorta PATH [--dir DIR] [--runs N]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--aorta", required=True)
parser.add_argument("--dir", default="/tmp/aorta_scaling")
parser.add_argument("--runs", type=int, default=3)
args = parser.parse_args()
generator = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "cli",
                         "make_scaling_inputs.py")


def commands(d):
    a = args.aorta
    return {
        "view, call-stack depth 3,000": [a, "view", f"{d}/deep_stack/proton.chrome_trace"],
        "hatchet, 200,000 GPUs": [a, "check", "--collector", "proton", f"{d}/many_gpus"],
        "hatchet, 100,000 scopes, cycles() of a missing scope":
            [a, "check", "--collector", "proton", f"{d}/many_scopes",
             "--check", "cycles(no_such_scope) > 0"],
        "rocpd, 50,000 agents": [a, "check", "--collector", "rocprof", f"{d}/many_agents"],
    }


def cpu_seconds(argv):
    times = []
    for run in range(args.runs + 1):
        with open(os.devnull, "wb") as sink:
            proc = subprocess.Popen(argv, stdout=sink, stderr=sink)
            _, _, usage = os.wait4(proc.pid, 0)
        if run > 0:
            times.append(usage.ru_utime + usage.ru_stime)
    return statistics.median(times)


def main():
    sizes = {}
    for scale in ("0.1", "1"):
        folder = os.path.join(args.dir, scale)
        subprocess.run([sys.executable, generator, folder, "--scale", scale], check=True)
        sizes[scale] = {name: cpu_seconds(argv) for name, argv in commands(folder).items()}
    print("| input (full size) | CPU s at 1/10 | CPU s at full | growth for 10x |")
    print("|---|---:|---:|---:|")
    for name in sizes["1"]:
        small, full = sizes["0.1"][name], sizes["1"][name]
        print(f"| {name} | {small:.3f} | {full:.3f} | {full / max(small, 1e-3):.1f}x |")
    shutil.rmtree(args.dir, ignore_errors=True)


main()
