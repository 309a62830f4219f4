#!/usr/bin/env python3
"""Time and peak RSS of `aorta validate` and `aorta sweep run --dry-run` on generated recipes with
10^3, 10^4 and 10^5 mitigations and cells (issue 46: loading was quadratic, every cell copied the
whole recipe). Each shape is written to a temporary directory, then aorta runs once per size under
GNU time (/usr/bin/time), which reports the peak RSS. A run past --timeout is killed and reported
as such. Files past max_recipe_bytes (1 MiB) are refused at once (64); that is the outcome to see.

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


def name(i):
    """A short distinct name (base 36, 4 characters), so 10^5 definitions fit in the
    1 MiB a recipe or mitigations file may hold (max_recipe_bytes)."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        i, r = divmod(i, 36)
        text = digits[r] + text
        if i == 0:
            break
    return text.rjust(4, "0")


def flow(items):
    return "{" + ", ".join(items) + "}"


def defined_mitigations(n):
    """n mitigations defined in the recipe (each an A/A mitigation, {}), one on the axis: 2 cells."""
    defs = flow(f"{name(i)}: {{}}" for i in range(n))
    return f"schema_version: 1\nmitigation_axis: [none, {name(0)}]\nmitigations: {defs}\n", None


def mitigations_file(n):
    """n mitigations in a --mitigations-file, one on the axis: 2 cells."""
    recipe = f"schema_version: 1\nmitigation_axis: [none, {name(0)}]\n"
    return recipe, "{" + ",".join(f'"{name(i)}":{{}}' for i in range(n)) + "}"


def axis_cells(n):
    """n mitigations (in a --mitigations-file), every one on the axis: n + 1 cells, refused past
    max_cells (4096)."""
    axis = ", ".join(name(i) for i in range(n))
    recipe = f"schema_version: 1\nmitigation_axis: [none, {axis}]\n"
    return recipe, "{" + ",".join(f'"{name(i)}":{{}}' for i in range(n)) + "}"


def diagnostics_defined(n):
    """n diagnostics defined (no collector each), one on the axis: 2 cells."""
    defs = flow(f"{name(i)}: []" for i in range(n))
    return f"schema_version: 1\ndiagnostic_axis: [none, {name(0)}]\ndiagnostics: {defs}\n", None


SHAPES = {"defined": defined_mitigations, "mitigations_file": mitigations_file,
          "axis_cells": axis_cells, "diagnostics": diagnostics_defined}


def run(argv, timeout, scratch):
    """Exit code, seconds and peak RSS (MiB) of argv. GNU time reports the peak: a child forked
    from this Python process would count Python's own pages (ru_maxrss survives exec)."""
    rss_file = os.path.join(scratch, "rss")
    start = time.monotonic()
    try:
        done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_file, *argv],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - start, float("nan"), ""
    seconds = time.monotonic() - start
    with open(rss_file) as f:
        rss_kib = int(f.read().split()[-1])
    err = done.stderr.decode(errors="replace").strip().splitlines()
    return done.returncode, seconds, rss_kib / 1024, (err[-1] if err else "")


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
                    code, seconds, rss, line = run(argv, args.timeout, scratch)
                    print(f"{shape},{size},{name},{code},{seconds:.2f},{rss:.1f},{size_bytes},"
                          f"\"{line[:160]}\"", flush=True)


if __name__ == "__main__":
    sys.exit(main())
