#!/usr/bin/env python3
"""How aorta's work grows with the awkward dimension of an input (issue 21): the inputs of
tests/cli/scaling.cmake (call-stack depth, GPUs in the device table, instrumentation scopes, rocpd
agents, agent_info.csv rows, an under() frame's depth, a trial's metrics and its collectors, a
sweep's cells), generated at 1/10 and at full size, each command run as a whole process.

Three figures per input and size:
- Instructions (Ir) counted by valgrind's callgrind: exact and independent of the machine's load,
  so their growth is the one to compare against linear (10x; a fixed start-up cost makes it less,
  quadratic work 100x). Split by the object that ran them (aorta, SQLite, the C/C++ runtime).
- Cache misses from the same callgrind run (--cache-sim=yes, on the fixed cache geometry of
  CACHE below, so two machines give the same counts): D1 (first-level data) and LL (last-level)
  misses. Time can grow faster than instructions only through what instructions do not count;
  misses growing faster than Ir are the usual cause.
- Time of the process, user + sys (CPU) and wall: the MIN and the median of --runs runs after one
  warm-up. The sizes are interleaved run by run (1/10, full, and `aorta --version` for the fixed
  cost of a process, in an order that rotates), so a slow minute of a loaded machine falls on
  all of them alike. The min is the run least disturbed by the rest of the machine; it is the
  figure to hold against 11x. The fixed cost (exec, dynamic loading, page faults of the binary)
  is the min of the `--version` runs; growth is printed raw and net of it.

The 1/10 sizes of some inputs run in a few ms, where a ms of noise moves a raw ratio by 10-30%:
the net ratio removes the process's fixed part; repeating a command inside one process is not
possible (each is a whole `aorta` run). --grow FOLDER=F writes that input F times larger at both
sizes (keeping 10x), for inputs whose full size reads in a sane time at F (see --help).

Timed runs are serial, so that no two runs share the machine's caches and memory bandwidth;
the callgrind runs, whose counts do not depend on load, run --jobs at a time.

usage: scaling.py --aorta PATH [--dir DIR] [--runs N] [--jobs J] [--grow FOLDER=F ...]
                  [--no-callgrind] [--only FOLDER,...]
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# Callgrind's cache geometry (size, associativity, line size): a 48 KiB 12-way L1 data cache and
# a 32 MiB 16-way last level, near a current server core's share. Fixed so counts compare across
# machines; callgrind would otherwise take the host's.
CACHE = ["--I1=32768,8,64", "--D1=49152,12,64", "--LL=33554432,16,64"]

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--aorta", required=True)
parser.add_argument("--dir", default="/tmp/aorta_scaling")
parser.add_argument("--runs", type=int, default=7, help="timed runs per size (default 7)")
parser.add_argument("--jobs", type=int, default=1, help="callgrind runs at a time (default 1)")
parser.add_argument("--grow", action="append", default=[], metavar="FOLDER=F",
                    help="write input FOLDER at F/10 and F times its test size, e.g. "
                         "many_gpus=10 (2,000,000 GPUs: 1.9 s and 700 MB at full size)")
parser.add_argument("--no-callgrind", action="store_true", help="time only")
parser.add_argument("--only", default="", metavar="FOLDERS",
                    help="comma-separated input folders to run (many_metrics_results, ...)")
args = parser.parse_args()
generator = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "cli",
                         "make_scaling_inputs.py")
grow = {}
for item in args.grow:
    folder, _, factor = item.partition("=")
    grow[folder] = float(factor)

# name: (input folder, the arguments after the binary, with {d} for that folder's path)
INPUTS = {
    "view, call-stack depth 3,000":
        ("deep_stack", ["view", "{d}/proton.chrome_trace"]),
    "hatchet, 200,000 GPUs": ("many_gpus", ["check", "--collector", "proton", "{d}"]),
    "hatchet, 100,000 scopes, cycles() of a missing scope":
        ("many_scopes", ["check", "--collector", "proton", "{d}",
                         "--check", "cycles(no_such_scope) > 0"]),
    "rocpd, 50,000 agents": ("many_agents", ["check", "--collector", "rocprof", "{d}"]),
    "rocprofv3 agent_info.csv, 200,000 GPU rows":
        ("many_agent_rows", ["check", "--collector", "rocprof", "{d}"]),
    "under() of the deepest of 150,000 frames":
        ("deep_call_path", ["check", "--collector", "proton", "{d}",
                            "--check", "count(under(deepest_frame)) >= 0"]),
    "report, one trial of 200,000 metrics": ("many_metrics_results", ["report", "{d}"]),
    "report, 80,000 kernel rows of as many collectors":
        ("many_collectors_results", ["report", "{d}"]),
    "report, a sweep's 30,000 cells and its matrix.json":
        ("many_cells_results", ["report", "{d}"]),
}
if args.only:
    wanted = set(filter(None, args.only.split(",")))
    unknown = wanted - {folder for folder, _ in INPUTS.values()}
    if unknown:
        sys.exit(f"scaling.py: --only names no input folder {sorted(unknown)}; the folders are "
                 f"{', '.join(folder for folder, _ in INPUTS.values())}")
    INPUTS = {name: item for name, item in INPUTS.items() if item[0] in wanted}
SIZES = ("1/10", "full")


def scale_of(folder, size):
    return grow.get(folder, 1.0) * (0.1 if size == "1/10" else 1.0)


def scale_dir(scale):
    return os.path.join(args.dir, f"x{scale:g}")


def argv_of(name, size):
    folder, rest = INPUTS[name]
    path = os.path.join(scale_dir(scale_of(folder, size)), folder)
    return [args.aorta] + [part.replace("{d}", path) for part in rest]


def generate():
    """Each scale's folders in one generator run: the inputs grown by --grow at their own scales."""
    by_scale = {}
    for folder, _ in INPUTS.values():
        for size in SIZES:
            by_scale.setdefault(scale_of(folder, size), []).append(folder)
    for scale, folders in by_scale.items():
        subprocess.run([sys.executable, generator, scale_dir(scale), "--scale", f"{scale:g}",
                        "--only", ",".join(folders)], check=True)


def timed(argv):
    """(CPU seconds, wall seconds, exit status) of one run, output discarded."""
    with open(os.devnull, "wb") as sink:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=sink, stderr=sink)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    return usage.ru_utime + usage.ru_stime, wall, os.waitstatus_to_exitcode(status)


def time_all():
    """{(name or 'fixed', size): [(cpu, wall)]} and {(name, size): exit status}: each round runs
    every input's two sizes and `aorta --version` in an order that rotates with the round."""
    samples, statuses = {}, {}
    fixed = [args.aorta, "--version"]
    for run in range(args.runs + 1):
        for name in INPUTS:
            jobs = [((name, size), argv_of(name, size)) for size in SIZES]
            jobs.append((("fixed", ""), fixed))
            shift = run % len(jobs)
            for key, argv in jobs[shift:] + jobs[:shift]:
                cpu, wall, status = timed(argv)
                if statuses.setdefault(key, status) != status:
                    sys.exit(f"{argv}: exit status {status}, {statuses[key]} before")
                if run > 0:  # the first round warms the page cache
                    samples.setdefault(key, []).append((cpu, wall))
    return samples, statuses


def object_group(path):
    name = os.path.basename(path)
    if name.startswith("libsqlite3"):
        return "SQLite"
    if name.startswith(("libc.", "libc-", "libm.", "ld-linux", "libstdc++", "libgcc")):
        return "C/C++ runtime"
    if os.path.basename(args.aorta) == name or name.startswith(("libaorta", "libfmt")):
        return "aorta"
    return "other"


def self_cost_by_group(out_file):
    """{group: {event: self cost}} from a callgrind output. Its format: `events:` names the
    columns; `ob=` names the object of the functions after it; a cost line is one position
    (a line number, or +N/-N/* relative to the last) and then the events in order, trailing
    zeros left out; the line after `calls=` is a call's inclusive cost, not the caller's own."""
    names, sums, events, group, after_call = {}, {}, [], "other", False
    compressed = re.compile(r"\((\d+)\)\s*(.*)")
    with open(out_file, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith(("ob=", "cob=")):  # both define compressed object names
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
                    into = sums.setdefault(group, dict.fromkeys(events, 0))
                    for event, value in zip(events, line.split()[1:]):
                        into[event] += int(value)
                after_call = False
    return sums


def callgrind(argv, expected_status):
    """Self cost by object group of one run under callgrind with its cache simulation. A run that
    ends otherwise than without it (rocpd's 60 s time budget can end a read that valgrind slows
    100x on a loaded machine) counted only part of the work, so it is refused."""
    for _ in range(3):
        with tempfile.TemporaryDirectory() as tmp:
            out_file = os.path.join(tmp, "callgrind.out")
            done = subprocess.run(["valgrind", "--tool=callgrind", "--cache-sim=yes"] + CACHE +
                                  [f"--callgrind-out-file={out_file}"] + argv,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  check=False)
            if done.returncode == expected_status:
                return self_cost_by_group(out_file)
    raise RuntimeError(f"{argv}: exit {done.returncode} under callgrind, {expected_status} "
                       "without it, three times; its counts would be of part of the work")


def callgrind_all(statuses):
    keys = [(name, size) for name in INPUTS for size in SIZES]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {key: pool.submit(callgrind, argv_of(*key), statuses[key]) for key in keys}
        return {key: future.result() for key, future in futures.items()}


def total(costs, events):
    return sum(group.get(event, 0) for group in costs.values() for event in events)


def growth(small, full):
    return f"{full / small:.2f}x" if small > 0 else "-"


def print_counts(counts):
    print("| input (full size) | Ir 1/10 -> full | Ir growth | D1 misses 1/10 -> full | "
          "D1 growth | LL misses 1/10 -> full | LL growth |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in INPUTS:
        cells = []
        for events, unit in ((["Ir"], 1e6), (["D1mr", "D1mw"], 1e3),
                             (["ILmr", "DLmr", "DLmw"], 1e3)):
            small, full = (total(counts[(name, size)], events) for size in SIZES)
            suffix = " M" if unit == 1e6 else " k"
            cells += [f"{small / unit:,.1f} -> {full / unit:,.1f}{suffix}", growth(small, full)]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("\nIr by the object that ran them (self cost), 1/10 -> full:\n")
    print("| input | aorta | SQLite | C/C++ runtime | other |")
    print("|---|---:|---:|---:|---:|")
    for name in INPUTS:
        cells = []
        for group in ("aorta", "SQLite", "C/C++ runtime", "other"):
            small, full = (counts[(name, size)].get(group, {}).get("Ir", 0) for size in SIZES)
            cells.append(f"{small / 1e6:,.1f} M -> {full / 1e6:,.1f} M ({growth(small, full)})"
                         if full else "-")
        print(f"| {name} | " + " | ".join(cells) + " |")


def print_times(samples):
    fixed = samples[("fixed", "")]
    fixed_cpu, fixed_wall = min(s[0] for s in fixed), min(s[1] for s in fixed)
    print(f"Fixed cost (`aorta --version`, min of {len(fixed)}): {fixed_cpu * 1e3:.1f} ms CPU, "
          f"{fixed_wall * 1e3:.1f} ms wall; median {statistics.median(s[0] for s in fixed) * 1e3:.1f}"
          " ms CPU. Times in ms; growth raw / net of the fixed cost.\n")
    print("| input (full size) | CPU min 1/10 | CPU min full | CPU median 1/10 | "
          "CPU median full | CPU growth, min | CPU growth, median | wall min 1/10 | "
          "wall min full | wall growth, min |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")

    def ratio(small, full, fixed_part):
        return (f"{growth(max(small, 1e-4), full)} / "
                f"{growth(max(small - fixed_part, 1e-4), full - fixed_part)}")

    for name in INPUTS:
        cpu = {size: [s[0] for s in samples[(name, size)]] for size in SIZES}
        wall = {size: [s[1] for s in samples[(name, size)]] for size in SIZES}
        lo = {size: min(cpu[size]) for size in SIZES}
        mid = {size: statistics.median(cpu[size]) for size in SIZES}
        wall_lo = {size: min(wall[size]) for size in SIZES}
        print(f"| {name} | {lo['1/10'] * 1e3:.1f} | {lo['full'] * 1e3:.1f} | "
              f"{mid['1/10'] * 1e3:.1f} | {mid['full'] * 1e3:.1f} | "
              f"{ratio(lo['1/10'], lo['full'], fixed_cpu)} | "
              f"{ratio(mid['1/10'], mid['full'], fixed_cpu)} | "
              f"{wall_lo['1/10'] * 1e3:.1f} | {wall_lo['full'] * 1e3:.1f} | "
              f"{ratio(wall_lo['1/10'], wall_lo['full'], fixed_wall)} |")


def main():
    generate()
    started = time.monotonic()
    samples, statuses = time_all()
    timing_s = time.monotonic() - started
    counts = {} if args.no_callgrind else callgrind_all(statuses)
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; {args.runs} timed runs per "
          f"size ({timing_s:.0f} s), callgrind {time.monotonic() - started - timing_s:.0f} s "
          f"with --jobs {args.jobs}; grown: {grow or 'none'}\n")
    if counts:
        print(f"Callgrind, cache geometry {' '.join(CACHE)}:\n")
        print_counts(counts)
        print()
    print_times(samples)
    shutil.rmtree(args.dir, ignore_errors=True)


main()
