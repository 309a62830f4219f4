#!/usr/bin/env python3
"""`aorta sweep run` with the nvbench collector's `sample_times: true`, end to end, on
fake_nvbench.py (a stand-in that writes nvbench's published --json/--jsonbin format).

The nvbench collector needs an NVIDIA device node, so without one aorta skips the run (77) and so
does this test (CTest's SKIP_RETURN_CODE). Where there is one (the GPU lane, or the GPU machine
through benchmarks/gpu-2026-12-06c/h39c/), it asserts:
  samples     the argv fake_nvbench.py saw ends in --jsonbin <trial>/nvbench/nvbench.json (no
              --json), the row's time is the mean after the warm-up rule (2.1065 ms, not
              nvbench's 2.762 ms), and result.json's versions carry nvbench_time
  no-sidecar  the trial fails (1) naming the JSON file, the state and the missing sample file
  no-summary  the trial fails (1) naming the state: no fallback to nvbench's mean
  gate        a baseline recorded from nvbench's means, gated against a run with sample_times:
              skipped (77) naming nvbench_time; with --require-baseline, failed (1)

usage: sweep_sample_times.py --aorta AORTA --work DIR [case...]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_nvbench.py")
RECIPES = os.path.join(os.path.dirname(HERE), "recipes")
SAMPLES_RECIPE = os.path.join(RECIPES, "nvbench_sample_times.yaml")
MEANS_RECIPE = os.path.join(RECIPES, "nvbench_means.yaml")
SKIP = 77


class Skip(Exception):
    pass


def run(aorta, args, expect_rc):
    proc = subprocess.run([aorta, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=120)
    print(f"$ aorta {' '.join(args)}\n{proc.stdout}(exit {proc.returncode})")
    if proc.returncode == SKIP and "needs a GPU and this machine has none" in proc.stdout:
        raise Skip(proc.stdout.strip().splitlines()[-1])
    if proc.returncode != expect_rc:
        raise AssertionError(f"exit {proc.returncode}, expected {expect_rc}")
    return proc.stdout


def expect_in(text, *needles):
    for needle in needles:
        if needle not in text:
            raise AssertionError(f"expected {needle!r} in:\n{text}")


def sweep(aorta, out, recipe, extra, expect_rc, fake_args=()):
    shutil.rmtree(out, ignore_errors=True)
    return run(aorta, ["sweep", "run", "--recipe", recipe, "--output", out, *extra, "--",
                       sys.executable, FAKE, *fake_args], expect_rc)


def case_samples(aorta, work):
    out = os.path.join(work, "samples")
    text = sweep(aorta, out, SAMPLES_RECIPE,
                 ["--check", "time_ms(^gemm/N:2048$) < 2.2", "--check",
                  "time_ms(^gemm/N:2048$) > 2.0"], 0)
    expect_in(text, "1 passed, 0 failed")
    capture = os.path.join(out, "trial_0", "nvbench")
    with open(os.path.join(capture, "argv.txt")) as seen:
        argv = seen.read().split("\n")
    json_path = os.path.join(os.path.abspath(capture), "nvbench.json")
    at = argv.index("--jsonbin")
    if argv[at + 1] != json_path or "--json" in argv:
        raise AssertionError(f"argv seen: {argv}; expected --jsonbin {json_path} and no --json")
    with open(os.path.join(out, "trial_0", "result.json")) as result:
        record = json.load(result)
    if "nvbench_time" not in record.get("versions", {}):
        raise AssertionError(f"result.json versions lack nvbench_time: {record.get('versions')}")
    expect_in("\n".join(record["notes"]), "the first 2 of its 16 samples are warm-up")
    rows = {row["name"]: row["total_ms"] for row in record["kernels"]}
    # The mean of the 14 steady float32 samples; nvbench's own mean of all 16 is 2.762 ms.
    if abs(rows.get("gemm/N:2048", 0.0) - 2.1065) > 1e-4:
        raise AssertionError(f"kernel rows {rows}: expected gemm/N:2048 at 2.1065 ms")
    checks = {check["expression"]: check["passed"] for check in record["checks"]}
    if set(checks.values()) != {True} or len(checks) != 2:
        raise AssertionError(f"checks: {checks}")


def case_no_sidecar(aorta, work):
    text = sweep(aorta, os.path.join(work, "no-sidecar"), SAMPLES_RECIPE, [], 1,
                 ["--fake-damage", "no-sidecar"])
    expect_in(text, "nvbench.json: benchmark state 'gemm/N:2048': sample times",
              "nvbench.json-bin/0.bin", "trial 0 FAILED")


def case_no_summary(aorta, work):
    text = sweep(aorta, os.path.join(work, "no-summary"), SAMPLES_RECIPE, [], 1,
                 ["--fake-damage", "no-summary"])
    expect_in(text, "benchmark state 'gemm/N:2048': no per-sample times", "trial 0 FAILED")


def case_gate(aorta, work):
    means = os.path.join(work, "gate-means", "fake")
    sweep(aorta, means, MEANS_RECIPE, ["--trials", "5"], 0)
    base = os.path.join(work, "gate-base")
    shutil.rmtree(base, ignore_errors=True)
    run(aorta, ["baseline", "record", means, "--into", base], 0)
    gated = os.path.join(work, "gate-samples", "fake")
    text = sweep(aorta, gated, SAMPLES_RECIPE, ["--trials", "5", "--baseline", base], SKIP)
    expect_in(text, "the fingerprint differs in:",
              "nvbench_time: '(absent)' vs 'sample mean after the warm-up rule (--jsonbin)' here")
    text = sweep(aorta, gated, SAMPLES_RECIPE,
                 ["--trials", "5", "--baseline", base, "--require-baseline"], 1)
    expect_in(text, "nvbench_time: '(absent)' vs")


CASES = {"samples": case_samples, "no-sidecar": case_no_sidecar, "no-summary": case_no_summary,
         "gate": case_gate}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--aorta", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("cases", nargs="*", default=list(CASES))
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    failed = 0
    for name in args.cases:
        try:
            CASES[name](args.aorta, os.path.join(args.work, name))
            print(f"CASE {name}: PASS")
        except Skip as why:
            print(f"CASE {name}: SKIPPED ({why})")
            return SKIP
        except (AssertionError, ValueError, OSError) as why:
            print(f"CASE {name}: FAIL: {why}")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
