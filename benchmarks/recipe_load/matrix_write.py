#!/usr/bin/env python3
"""Size of matrix.json and matrix.md, time and peak RSS of a real (not dry) `aorta sweep run` of
one wide mitigation under many diagnostics (issue 46): schema version 1 of matrix.json wrote the
mitigation's arguments and variables into every cell, and matrix.md its variables into every row.
The payload is /bin/true (one trial per cell), so the run's cost is aorta's own.

Usage: matrix_write.py AORTA [AORTA...] [--arguments 10000] [--variables 0] [--diagnostics 256]
Prints one CSV row per binary:
  binary,arguments,variables,cells,exit,seconds,peak_rss_mib,matrix_json_bytes,matrix_md_bytes
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time


def recipe(arguments, variables, diagnostics):
    args = ", ".join(f"a{i}" for i in range(arguments))
    env = ", ".join([f"V{i}: x{i}" for i in range(variables)] + ["MODE: wide"])
    axis = ", ".join(["none"] + [f"d{i}" for i in range(1, diagnostics)])
    defined = "".join(f"  d{i}: []\n" for i in range(1, diagnostics))
    return (f"schema_version: 1\nmode: probe\ncollect: []\n"
            f"mitigations:\n  wide: {{env: {{{env}}}, args: [{args}]}}\n"
            f"diagnostics:\n{defined}mitigation_axis: [none, wide]\n"
            f"diagnostic_axis: [{axis}]\n")


def run(aorta, path, work):
    out = os.path.join(tempfile.mkdtemp(dir=work), "out")
    timing = os.path.join(work, "time.txt")
    start = time.monotonic()
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", timing, aorta, "sweep", "run",
                           "--recipe", path, "--output", out, "--quiet", "--", "/bin/true"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    seconds = time.monotonic() - start
    with open(timing, encoding="utf-8") as f:
        rss_kib = int(f.read().split()[-1])
    sizes = []
    for name in ("matrix.json", "matrix.md"):
        file = os.path.join(out, name)
        sizes.append(os.path.getsize(file) if os.path.exists(file) else -1)
    subprocess.run(["rm", "-rf", out], check=False)
    return proc.returncode, seconds, rss_kib / 1024, sizes


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("aorta", nargs="+")
    parser.add_argument("--arguments", type=int, default=10000)
    parser.add_argument("--variables", type=int, default=0)
    parser.add_argument("--diagnostics", type=int, default=256)
    options = parser.parse_args()
    print("binary,arguments,variables,cells,exit,seconds,peak_rss_mib,matrix_json_bytes,"
          "matrix_md_bytes")
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "wide.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(recipe(options.arguments, options.variables, options.diagnostics))
        cells = 2 * options.diagnostics
        for aorta in options.aorta:
            code, seconds, rss, (json_bytes, md_bytes) = run(aorta, path, work)
            print(f"{aorta},{options.arguments},{options.variables},{cells},{code},"
                  f"{seconds:.2f},{rss:.0f},{json_bytes},{md_bytes}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
