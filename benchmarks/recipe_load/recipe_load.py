#!/usr/bin/env python3
"""Time and peak RSS of `aorta validate` and `aorta sweep run --dry-run` on generated recipes with
10^3, 10^4 and 10^5 mitigations and cells (issue 46: loading was quadratic, every cell copied the
whole recipe). Each shape is written to a temporary directory, then aorta runs once per size; the
peak RSS is the child's ru_maxrss (os.wait4). A run past --timeout is killed and reported as such.

Usage: recipe_load.py AORTA [--sizes 1000,10000,100000] [--shapes a,b] [--commands validate,dry_run]
                      [--timeout 900]
Prints one CSV row per (shape, size): shape,size,command,exit,seconds,peak_rss_mib,recipe_bytes
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def defined_mitigations(n):
    """n mitigations defined in the recipe, two of them on the axis: 2 cells."""
    lines = ["schema_version: 1", "collect: []", "mitigation_axis: [none, m0]", "mitigations:"]
    lines += [f"  m{i}: {{env: {{MODE: v{i}}}}}" for i in range(n)]
    return "\n".join(lines) + "\n", None


def mitigations_file(n):
    """n mitigations in a --mitigations-file, two of them on the axis: 2 cells."""
    recipe = "schema_version: 1\ncollect: []\nmitigation_axis: [none, m0]\n"
    defs = {f"m{i}": {"env": {"MODE": f"v{i}"}} for i in range(n)}
    return recipe, json.dumps(defs, separators=(",", ":"))


def axis_cells(n):
    """n mitigations, every one on the axis: n + 1 cells (refused past max_cells)."""
    names = ", ".join(f"m{i}" for i in range(n))
    lines = ["schema_version: 1", "collect: []", f"mitigation_axis: [none, {names}]",
             "mitigations:"]
    lines += [f"  m{i}: {{env: {{MODE: v{i}}}}}" for i in range(n)]
    return "\n".join(lines) + "\n", None


def diagnostics_defined(n):
    """n diagnostics defined (no collector each), two of them on the axis: 2 cells."""
    lines = ["schema_version: 1", "collect: []", "diagnostic_axis: [none, d0]", "diagnostics:"]
    lines += [f"  d{i}: []" for i in range(n)]
    return "\n".join(lines) + "\n", None


SHAPES = {"defined": defined_mitigations, "mitigations_file": mitigations_file,
          "axis_cells": axis_cells, "diagnostics": diagnostics_defined}


def run(argv, timeout):
    start = time.monotonic()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid != 0:
            break
        if time.monotonic() > deadline:
            child.kill()
            pid, status, usage = os.wait4(child.pid, 0)
            return "timeout", time.monotonic() - start, usage.ru_maxrss / 1024, ""
        time.sleep(0.01)
    seconds = time.monotonic() - start
    err = child.stderr.read().decode(errors="replace").strip().splitlines()
    return os.waitstatus_to_exitcode(status), seconds, usage.ru_maxrss / 1024, (err[-1] if err else "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("aorta")
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--commands", default="validate,dry_run")
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args()
    print("shape,size,command,exit,seconds,peak_rss_mib,recipe_bytes,last_stderr_line")
    with tempfile.TemporaryDirectory() as scratch:
        for shape in args.shapes.split(","):
            for size in (int(s) for s in args.sizes.split(",")):
                recipe_text, mitigations = SHAPES[shape](size)
                recipe = os.path.join(scratch, f"{shape}_{size}.yaml")
                with open(recipe, "w") as f:
                    f.write(recipe_text)
                extra = []
                if mitigations is not None:
                    extra_path = os.path.join(scratch, f"{shape}_{size}.json")
                    with open(extra_path, "w") as f:
                        f.write(mitigations)
                    extra = ["--mitigations-file", extra_path]
                commands = {
                    "validate": [args.aorta, "validate", recipe] + extra,
                    "dry_run": [args.aorta, "sweep", "run", "--recipe", recipe, *extra,
                                "--output", os.path.join(scratch, "out"), "--dry-run",
                                "--seed", "1", "--", "/bin/true"],
                }
                size_bytes = os.path.getsize(recipe) + (os.path.getsize(extra[1]) if extra else 0)
                for name in args.commands.split(","):
                    argv = commands[name]
                    code, seconds, rss, line = run(argv, args.timeout)
                    print(f"{shape},{size},{name},{code},{seconds:.2f},{rss:.1f},{size_bytes},"
                          f"\"{line[:160]}\"", flush=True)


if __name__ == "__main__":
    sys.exit(main())
