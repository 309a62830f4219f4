#!/usr/bin/env python3
"""Fault cases of `aorta sweep run` that need a real process tree and real signals (issue 10):
interrupts, SIGKILL of aorta, a closed stdout, escaped daemons, two runs into one directory,
a payload hung after a complete capture. read_interrupt.py holds `aorta check` interrupted while
it reads, and uses this file's helpers.

    lifetime.py --aorta PATH --work DIR CASE

Each case starts the real aorta binary on real payloads, waits for states by polling (never a
fixed sleep as a stand-in for "it has started"), and asserts the exit code, result.json and that
no payload process survives. Exit 0 = pass, 77 = skipped (a tool is missing), else failure.
"""
import argparse
import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import time

PATIENCE = 60.0  # seconds; generous for a loaded 2-core machine

# Everything this driver started or saw started, ended when it exits: a failing case (or an aorta
# that orphans its payload, which is what some cases test) must not leave processes behind.
STARTED = []


@atexit.register
def end_leftovers():
    for pid in STARTED:
        if not is_dead(pid):
            print(f"note: ending leftover process {pid}", file=sys.stderr)
            for target in (-pid, pid):  # its group, if it leads one, then itself
                try:
                    os.kill(target, signal.SIGKILL)
                except OSError:
                    pass


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def wait_for(predicate, what, limit=PATIENCE):
    give_up = time.monotonic() + limit
    while time.monotonic() < give_up:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    fail(f"timed out after {limit:.0f} s waiting for {what}")


def read_pid(path):
    try:
        with open(path) as f:
            text = f.read().strip()
    except OSError:
        return 0
    if not text.isdigit():
        return 0
    if int(text) not in STARTED:
        STARTED.append(int(text))
    return int(text)


def is_dead(pid):
    """Gone, or a zombie nobody reaped yet."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True


def assert_dies(pid, what):
    wait_for(lambda: is_dead(pid), f"{what} (pid {pid}) to die")


def write_recipe(path, text):
    with open(path, "w") as f:
        f.write("schema_version: 1\n" + text)
    return path


def result_of(output, trial=0):
    path = os.path.join(output, f"trial_{trial}", "result.json")
    if not os.path.exists(path):
        fail(f"no {path}")
    with open(path) as f:
        return json.load(f)


class Case:
    def __init__(self, aorta, work, name):
        self.aorta = aorta
        self.dir = os.path.join(work, name)
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.output = os.path.join(self.dir, "out")

    def path(self, name):
        return os.path.join(self.dir, name)

    def start(self, recipe, command, output=None, **popen):
        argv = [self.aorta, "sweep", "run", "--recipe", recipe, "--output",
                output or self.output, "--", *command]
        popen.setdefault("stdout", open(self.path("aorta.out"), "wb"))
        popen.setdefault("stderr", subprocess.STDOUT)
        process = subprocess.Popen(argv, **popen)
        STARTED.append(process.pid)
        return process

    def finish(self, process):
        try:
            rc = process.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            process.kill()
            fail("aorta did not end")
        print(open(self.path("aorta.out"), errors="replace").read() if os.path.exists(self.path("aorta.out")) else "")
        return rc


def sleeper(pidfile, seconds=300, ignore_term=False):
    trap = "trap '' TERM INT HUP; " if ignore_term else ""
    return ["/bin/sh", "-c", f'{trap}echo $$ > "$1"; sleep {seconds} & wait; sleep {seconds}',
            "sh", pidfile]


def case_interrupt(c, signal_number):
    recipe = write_recipe(c.path("r.yaml"), "trials: 3\n")
    pidfile = c.path("payload.pid")
    aorta = c.start(recipe, sleeper(pidfile))
    payload = wait_for(lambda: read_pid(pidfile), "the payload to start")
    aorta.send_signal(signal_number)
    rc = c.finish(aorta)
    if rc != 128 + signal_number:
        fail(f"exit {rc}, expected {128 + signal_number}")
    record = result_of(c.output)
    if record["interrupted_by"] != signal_number or record["verdict"] != "error":
        fail(f"result.json: interrupted_by {record['interrupted_by']}, verdict {record['verdict']}")
    if "the run stopped" not in record["reason"]:
        fail(f"reason: {record['reason']}")
    if os.path.exists(os.path.join(c.output, "trial_1")):
        fail("trial_1 ran after the interrupt")
    assert_dies(payload, "the payload")


def case_ignored_term_is_killed_after_grace(c):
    recipe = write_recipe(c.path("r.yaml"), "trials: 2\n")
    pidfile = c.path("payload.pid")
    aorta = c.start(recipe, sleeper(pidfile, ignore_term=True))
    payload = wait_for(lambda: read_pid(pidfile), "the payload to start")
    aorta.send_signal(signal.SIGTERM)
    rc = c.finish(aorta)
    if rc != 143:
        fail(f"exit {rc}, expected 143")
    record = result_of(c.output)
    if "killed by SIGKILL after the 5 s grace" not in record["reason"]:
        fail(f"reason: {record['reason']}")
    assert_dies(payload, "the payload")


def case_second_signal_kills_at_once(c):
    recipe = write_recipe(c.path("r.yaml"), "")
    pidfile, got = c.path("payload.pid"), c.path("got_term")
    # Survives SIGTERM, but notes that it arrived: then the second signal goes out.
    script = 'trap \'echo term >> "$2"\' TERM; echo $$ > "$1"; while :; do sleep 1; done'
    aorta = c.start(recipe, ["/bin/sh", "-c", script, "sh", pidfile, got])
    payload = wait_for(lambda: read_pid(pidfile), "the payload to start")
    aorta.send_signal(signal.SIGTERM)
    wait_for(lambda: os.path.exists(got), "the payload to see the forwarded SIGTERM")
    aorta.send_signal(signal.SIGINT)
    rc = c.finish(aorta)
    if rc != 143:
        fail(f"exit {rc}, expected 143 (the first signal)")
    record = result_of(c.output)
    # Ended by the second signal's SIGKILL, not by the grace running out.
    if "it ended by SIGKILL" not in record["reason"]:
        fail(f"reason: {record['reason']}")
    assert_dies(payload, "the payload")


def case_sigkill_of_aorta(c):
    recipe = write_recipe(c.path("r.yaml"), "")
    leader_file, background_file = c.path("leader.pid"), c.path("background.pid")
    script = 'sleep 300 & echo $! > "$2"; echo $$ > "$1"; wait'
    aorta = c.start(recipe, ["/bin/sh", "-c", script, "sh", leader_file, background_file])
    leader = wait_for(lambda: read_pid(leader_file), "the payload to start")
    background = wait_for(lambda: read_pid(background_file), "the background process")
    aorta.kill()
    aorta.wait()
    assert_dies(leader, "the payload's leader")
    assert_dies(background, "the payload's background process")


def case_closed_stdout(c):
    recipe = write_recipe(c.path("r.yaml"), "")
    go = c.path("go")
    script = f'while [ ! -e "{go}" ]; do sleep 0.05; done; ' \
             'i=0; while [ $i -lt 3000 ]; do echo "line $i"; i=$((i+1)); done'
    aorta = c.start(recipe, ["/bin/sh", "-c", script], stdout=subprocess.PIPE,
                    stderr=open(c.path("aorta.err"), "wb"))
    first = aorta.stdout.readline()  # `| head -1`
    aorta.stdout.close()
    open(go, "w").close()
    try:
        rc = aorta.wait(timeout=PATIENCE)
    except subprocess.TimeoutExpired:
        aorta.kill()
        fail("aorta did not end")
    print(first.decode(errors="replace"), open(c.path("aorta.err")).read())
    if rc != 0:
        fail(f"exit {rc}, expected 0 (141 is death by SIGPIPE)")
    if result_of(c.output)["verdict"] != "pass":
        fail("verdict is not pass")
    with open(os.path.join(c.output, "trial_0", "stdout.log")) as f:
        lines = f.read().splitlines()
    if len(lines) != 3000 or lines[-1] != "line 2999":
        fail(f"stdout.log has {len(lines)} lines, expected 3000")


def case_escaped_daemon(c):
    recipe = write_recipe(c.path("r.yaml"), "")
    pidfile = c.path("daemon.pid")
    # The daemon writes its pid only once it has its own session, and the payload exits only
    # after that: the group kill can no longer reach it, whatever the machine's load.
    script = ('setsid sh -c \'echo $$ > "$0"; exec sleep 303\' "$1" </dev/null >/dev/null 2>&1 & '
              'while [ ! -s "$1" ]; do sleep 0.05; done')
    rc = c.finish(c.start(recipe, ["/bin/sh", "-c", script, "sh", pidfile]))
    daemon = read_pid(pidfile)
    if rc != 0:
        fail(f"exit {rc}, expected 0 (an escaped daemon is reported, not a failure)")
    record = result_of(c.output)
    # The command is read when the daemon is found: the shell may not have exec'd `sleep` yet.
    if not any(e.startswith(f"pid {daemon}: ") and "sleep 303" in e
               for e in record["escaped_processes"]):
        fail(f"escaped_processes: {record['escaped_processes']}")
    if "escaped the payload's process group" not in open(c.path("aorta.out")).read():
        fail("no warning in the output")
    assert_dies(daemon, "the escaped daemon")


def case_second_run_is_refused(c):
    recipe = write_recipe(c.path("r.yaml"), "")
    go, started = c.path("go"), c.path("started")
    script = f': > "{started}"; while [ ! -e "{go}" ]; do sleep 0.05; done; echo first'
    first = c.start(recipe, ["/bin/sh", "-c", script])
    wait_for(lambda: os.path.exists(started), "the first run's payload")
    second = subprocess.run([c.aorta, "sweep", "run", "--recipe", recipe, "--output", c.output,
                             "--", "/bin/sh", "-c", "echo second; exit 3"],
                            capture_output=True, text=True, timeout=PATIENCE)
    print(second.stdout, second.stderr)
    if second.returncode != 1:
        fail(f"second run: exit {second.returncode}, expected 1")
    if f"in use by another aorta run (pid {first.pid}" not in second.stderr \
            or c.output not in second.stderr:
        fail("the refusal does not name the owner's pid and the directory")
    open(go, "w").close()
    if c.finish(first) != 0:
        fail("the first run did not pass")
    with open(os.path.join(c.output, "trial_0", "stdout.log")) as f:
        if f.read() != "first\n":
            fail("the first run's log was disturbed")


def case_usage_refusal_before_the_lock(c):
    """A usage refusal (64) comes before the directory's lock: it was 1, "in use", beside a run."""
    cells = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                         "examples", "cells", "callgrind-ab", "recipe.yaml")
    refused = [c.aorta, "sweep", "run", "--recipe", cells, "--baseline", c.path("baselines"),
               "--output", c.output, "--", "/bin/true"]
    recipe = write_recipe(c.path("r.yaml"), "")
    go, started = c.path("go"), c.path("started")
    script = f': > "{started}"; while [ ! -e "{go}" ]; do sleep 0.05; done; echo first'
    first = c.start(recipe, ["/bin/sh", "-c", script])
    wait_for(lambda: os.path.exists(started), "the first run's payload")
    second = subprocess.run(refused, capture_output=True, text=True, timeout=PATIENCE)
    print(second.stdout, second.stderr)
    if second.returncode != 64 or "--baseline with a recipe that has cells" not in second.stderr:
        fail(f"refused run beside a running one: exit {second.returncode}, expected 64")
    if os.path.exists(os.path.join(c.output, "result.json")):
        fail("the refusal was recorded in the directory another run holds")
    open(go, "w").close()
    if c.finish(first) != 0:
        fail("the first run did not pass")
    # Alone, the refusal is recorded as every refusal at run time is (first_hour.refusal_recorded).
    alone = subprocess.run(refused[:-4] + ["--output", c.path("alone"), "--", "/bin/true"],
                           capture_output=True, text=True, timeout=PATIENCE)
    with open(os.path.join(c.path("alone"), "result.json")) as f:
        if alone.returncode != 64 or json.load(f)["verdict"] != "error":
            fail(f"refused run alone: exit {alone.returncode}, expected 64 and its record")


def case_dead_owner_does_not_block(c):
    recipe = write_recipe(c.path("r.yaml"), "")
    os.makedirs(c.output)
    with open(os.path.join(c.output, ".aorta.lock"), "w") as f:
        f.write("999999\n")  # a crashed run's file: no process holds its lock
    if c.finish(c.start(recipe, ["/bin/true"])) != 0:
        fail("a stale lock file blocked the run")


def case_hang_after_capture(c):
    if shutil.which("valgrind") is None:
        print("valgrind not installed")
        sys.exit(77)
    recipe = write_recipe(c.path("r.yaml"),
                          "capture_exit_grace: 2\ncollect: [callgrind]\n"
                          "check:\n  - ir(_dl_start) > 0\n")
    pidfile = c.path("payload.pid")
    capture = os.path.join(c.output, "trial_0", "callgrind", "callgrind.out.inner")
    # A complete, valid capture where aorta expects it (a real callgrind of /bin/true), then a
    # payload that never exits: the shape of Proton's deadlock at exit (ROCm/aorta#434).
    script = (f'valgrind --tool=callgrind --callgrind-out-file="{capture}" /bin/true 2>/dev/null; '
              f'echo $$ > "{pidfile}"; exec sleep 300')
    rc = c.finish(c.start(recipe, ["/bin/sh", "-c", script]))
    record = result_of(c.output)
    if rc != 1:
        fail(f"exit {rc}, expected 1")
    if not record["hung_after_capture"] or record["timed_out"]:
        fail(f"hung_after_capture {record['hung_after_capture']}, timed_out {record['timed_out']}")
    if not record["reason"].startswith("payload hung after a complete capture"):
        fail(f"reason: {record['reason']}")
    if not record["checks"] or not record["checks"][0]["passed"]:
        fail(f"checks were not evaluated on the capture: {record['checks']}")
    if "payload hung after a complete capture" not in open(c.path("aorta.out")).read():
        fail("the output does not say it")
    if read_pid(pidfile):
        assert_dies(read_pid(pidfile), "the hung payload")


CASES = {
    "interrupt_sigint": lambda c: case_interrupt(c, signal.SIGINT),
    "interrupt_sigterm": lambda c: case_interrupt(c, signal.SIGTERM),
    "interrupt_sighup": lambda c: case_interrupt(c, signal.SIGHUP),
    "ignored_term_is_killed_after_grace": case_ignored_term_is_killed_after_grace,
    "second_signal_kills_at_once": case_second_signal_kills_at_once,
    "sigkill_of_aorta": case_sigkill_of_aorta,
    "closed_stdout": case_closed_stdout,
    "escaped_daemon": case_escaped_daemon,
    "second_run_is_refused": case_second_run_is_refused,
    "dead_owner_does_not_block": case_dead_owner_does_not_block,
    "usage_refusal_before_the_lock": case_usage_refusal_before_the_lock,
    "hang_after_capture": case_hang_after_capture,
}


def main(cases=CASES):
    parser = argparse.ArgumentParser()
    parser.add_argument("--aorta", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("case", choices=sorted(cases))
    args = parser.parse_args()
    cases[args.case](Case(os.path.abspath(args.aorta), os.path.abspath(args.work), args.case))
    print(f"PASS: {args.case}")


if __name__ == "__main__":
    main()
