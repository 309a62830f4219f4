#!/usr/bin/env python3
"""How aorta's work grows with the awkward dimension of an input (issue 21): the inputs of
tests/cli/scaling.cmake (call-stack depth, GPUs in the device table, instrumentation scopes, rocpd
agents, agent_info.csv rows, an under() frame's depth, a trial's metrics and its collectors, a
sweep's cells), generated at 1/10 and at full size, each command run as a whole process.

Two figures per input and size. Instructions (Ir) counted by valgrind's callgrind: exact and
independent of the machine's load, so their growth is the one to compare against linear (10x; a
fixed start-up cost makes it less, quadratic work 100x). CPU seconds (user + sys, the median of
--runs after one warm-up): what a user waits for, but coarse at a few ms and inflated by cache
misses and a loaded machine. The Ir are also split by the object that ran them (aorta, SQLite,
the C and C++ libraries), so a growth can be told apart as aorta's own or a library's.

usage: scaling.py --aorta PATH [--dir DIR] [--runs N] [--no-callgrind]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--aorta", required=True)
parser.add_argument("--dir", default="/tmp/aorta_scaling")
parser.add_argument("--runs", type=int, default=3)
parser.add_argument("--no-callgrind", action="store_true", help="CPU time only")
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
        "rocprofv3 agent_info.csv, 200,000 GPU rows":
            [a, "check", "--collector", "rocprof", f"{d}/many_agent_rows"],
        "under() of the deepest of 150,000 frames":
            [a, "check", "--collector", "proton", f"{d}/deep_call_path",
             "--check", "count(under(deepest_frame)) >= 0"],
        "report, one trial of 200,000 metrics": [a, "report", f"{d}/many_metrics_results"],
        "report, 80,000 kernel rows of as many collectors":
            [a, "report", f"{d}/many_collectors_results"],
        "report, a sweep's 30,000 cells and its matrix.json":
            [a, "report", f"{d}/many_cells_results"],
    }


def cpu_seconds(argv):
    """The median CPU time, and the exit status (every run must give the same one)."""
    times, statuses = [], set()
    for run in range(args.runs + 1):
        with open(os.devnull, "wb") as sink:
            proc = subprocess.Popen(argv, stdout=sink, stderr=sink)
            _, status, usage = os.wait4(proc.pid, 0)
        statuses.add(os.waitstatus_to_exitcode(status))
        if run > 0:
            times.append(usage.ru_utime + usage.ru_stime)
    if len(statuses) != 1:
        sys.exit(f"{argv}: exit statuses differ between runs: {sorted(statuses)}")
    return statistics.median(times), statuses.pop()


def object_group(path):
    name = os.path.basename(path)
    if name.startswith("libsqlite3"):
        return "SQLite"
    if name.startswith(("libc.", "libc-", "libm.", "ld-linux", "libstdc++", "libgcc")):
        return "C/C++ runtime"
    if os.path.basename(args.aorta) == name or name.startswith(("libaorta", "libfmt")):
        return "aorta"
    return "other"


def self_ir_by_group(out_file):
    """Self Ir per object group from a callgrind output (its format: `ob=` names the object of
    the functions after it, a cost line's last column is Ir, and the line after `calls=` is a
    call's inclusive cost, which is not the caller's own)."""
    names, sums, group, after_call = {}, {}, "other", False
    compressed = re.compile(r"\((\d+)\)\s*(.*)")
    with open(out_file, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith(("ob=", "cob=")):  # both define compressed object names
                value = line.split("=", 1)[1].strip()
                m = compressed.match(value)
                name = value
                if m:
                    name = m.group(2) or names[m.group(1)]
                    names[m.group(1)] = name
                if line.startswith("ob="):
                    group = object_group(name)
            elif line.startswith("calls="):
                after_call = True
            elif line[:1].isdigit() or line[:1] in "+-*":
                if not after_call:
                    sums[group] = sums.get(group, 0) + int(line.split()[-1])
                after_call = False
    return sums


def instructions(argv, expected_status):
    """Self Ir by object group of one run under callgrind. A run that ends otherwise than without
    it (rocpd's 60 s time budget can end a read that valgrind slows 50x on a loaded machine)
    counted only part of the work, so it is refused rather than reported."""
    for _ in range(3):
        with tempfile.TemporaryDirectory() as tmp:
            out_file = os.path.join(tmp, "callgrind.out")
            done = subprocess.run(["valgrind", "--tool=callgrind",
                                   f"--callgrind-out-file={out_file}"] + argv,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  check=False)
            if done.returncode == expected_status:
                return self_ir_by_group(out_file)
    sys.exit(f"{argv}: exit {done.returncode} under callgrind, {expected_status} without it, "
             "three times; its instruction count would be of part of the work")


def growth(small, full):
    return f"{full / small:.1f}x" if small else "-"


def main():
    cpu, ir = {}, {}
    for scale in ("0.1", "1"):
        folder = os.path.join(args.dir, scale)
        subprocess.run([sys.executable, generator, folder, "--scale", scale], check=True)
        for name, argv in commands(folder).items():
            cpu[(name, scale)], status = cpu_seconds(argv)
            if not args.no_callgrind:
                ir[(name, scale)] = instructions(argv, status)
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; CPU: median of {args.runs}\n")
    print("| input (full size) | Ir at 1/10 | Ir at full | Ir growth | CPU s at 1/10 | "
          "CPU s at full | CPU growth |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in commands(""):
        small_ir = sum(ir.get((name, "0.1"), {}).values())
        full_ir = sum(ir.get((name, "1"), {}).values())
        small, full = cpu[(name, "0.1")], cpu[(name, "1")]
        print(f"| {name} | {small_ir / 1e6:,.1f} M | {full_ir / 1e6:,.1f} M | "
              f"{growth(small_ir, full_ir)} | {small:.3f} | {full:.3f} | "
              f"{growth(max(small, 1e-3), full)} |")
    if ir:
        print("\nIr by the object that ran them (self cost), 1/10 -> full:\n")
        print("| input | aorta | SQLite | C/C++ runtime | other |")
        print("|---|---:|---:|---:|---:|")
        for name in commands(""):
            cells = []
            for group in ("aorta", "SQLite", "C/C++ runtime", "other"):
                small = ir[(name, "0.1")].get(group, 0)
                full = ir[(name, "1")].get(group, 0)
                cells.append(f"{small / 1e6:,.1f} M -> {full / 1e6:,.1f} M ({growth(small, full)})"
                             if full else "-")
            print(f"| {name} | " + " | ".join(cells) + " |")
    shutil.rmtree(args.dir, ignore_errors=True)


main()
