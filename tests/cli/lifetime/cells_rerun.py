#!/usr/bin/env python3
"""A cells run into an output directory that holds an earlier run's verdicts, interrupted by a
real signal (issue 39, item 3): `aorta report` must not show the earlier run's cell checks or
confound verdicts over this run's trials. The process helpers and the Case are lifetime.py's.

    cells_rerun.py --aorta PATH --work DIR CASE     (AORTA_CELLS_WORK: the cells example payload)
"""
import json
import os
import shutil
import signal
import subprocess

from lifetime import PATIENCE, fail, main, read_pid, sleeper, wait_for, write_recipe


def report(c):
    process = subprocess.run([c.aorta, "report", c.output], capture_output=True, text=True,
                             timeout=PATIENCE)
    print(process.stdout, process.stderr)
    return process


def case_interrupted_rerun_keeps_no_earlier_verdicts(c, signal_number):
    if shutil.which("valgrind") is None:
        print("valgrind is not installed")
        raise SystemExit(77)
    recipe = write_recipe(c.path("r.yaml"), """trials: 2
collect: [callgrind]
mitigations:
  base: {env: {CELLS_STEPS: 32}}
  heavy: {env: {CELLS_STEPS: 36}}
mitigation_axis: [base, heavy]
check:
  - "ir(^work)@heavy / ir(^work)@base < 2"
""")
    first = c.start(recipe, [os.environ["AORTA_CELLS_WORK"]])
    if c.finish(first) != 0:
        fail("the first run did not pass")
    earlier = report(c)
    if "1 cell check(s) (1 passed, 0 failed)" not in earlier.stdout:
        fail("the first run's report does not keep its passed cell check (the test is void)")

    pidfile = c.path("payload.pid")
    second = c.start(recipe, sleeper(pidfile))
    wait_for(lambda: read_pid(pidfile), "the second run's payload to start")
    second.send_signal(signal_number)
    rc = c.finish(second)
    if rc != 128 + signal_number:
        fail(f"the second run exited {rc}, expected {128 + signal_number}")

    later = report(c)
    if "cell check(s)" in later.stdout:
        fail("the report shows a cell check although the run that wrote the trials judged none")
    if "the cells run is incomplete (interrupted by SIG" not in later.stdout:
        fail("the report does not say the cells run is incomplete")
    # The sweep's matrix.json, and the report's report.json that carries its keys over.
    for name in ("matrix.json", "report.json"):
        with open(os.path.join(c.output, name)) as f:
            matrix = json.load(f)
        if matrix.get("checks") or matrix.get("confound"):
            fail(f"{name} keeps verdicts: {matrix.get('checks')} {matrix.get('confound')}")
        if "interrupted by" not in matrix.get("incomplete", ""):
            fail(f"{name} is not marked incomplete: {matrix.get('incomplete')}")
    # Only this run's trials: the earlier run's trial directories went when it started.
    trials = [name for cell in ("base", "heavy") if os.path.isdir(os.path.join(c.output, cell))
              for name in os.listdir(os.path.join(c.output, cell))]
    if len(trials) > 1:
        fail(f"trials of the earlier run remain beside the interrupted one: {trials}")


CASES = {
    "cells_interrupted_rerun_sigint":
        lambda c: case_interrupted_rerun_keeps_no_earlier_verdicts(c, signal.SIGINT),
}


if __name__ == "__main__":
    main(CASES)
