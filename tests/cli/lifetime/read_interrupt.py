#!/usr/bin/env python3
"""`aorta check` interrupted by a real signal while it reads a rocpd database whose dispatch view
never ends (issue 18, item 5): it must end at once with 128 + the signal and print no verdict.
The process helpers and the Case are lifetime.py's.

    read_interrupt.py --aorta PATH --work DIR CASE
"""
import os
import signal
import sqlite3
import subprocess
import sys
import time

from lifetime import PATIENCE, STARTED, fail, main, wait_for


def endless_rocpd(folder):
    """A rocpd database (tests/fixtures/rocpd/make_rocpd.py, direct layout) whose dispatch view is
    an endless recursive query: reading it never ends by itself (issue 18, item 5)."""
    os.makedirs(folder)
    path = os.path.join(folder, "aorta_results.db")
    generator = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures",
                             "rocpd", "make_rocpd.py")
    subprocess.run([sys.executable, generator, path, "--layout", "direct"], check=True)
    db = sqlite3.connect(path)
    db.executescript(
        "DROP VIEW rocpd_kernel_dispatch;"
        "CREATE VIEW rocpd_kernel_dispatch AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
        "SELECT i + 1 FROM n) SELECT i AS id, 1 AS agent_id, 1 AS kernel_id, i AS start, "
        "i + 1 AS \"end\" FROM n;")
    db.close()
    return path


def has_open(pid, path):
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
        return any(os.path.realpath(os.readlink(f"/proc/{pid}/fd/{fd}")) == path for fd in fds)
    except OSError:
        return False


def catches(pid, signal_number):
    """Whether `pid` has a handler for `signal_number` (SigCgt in /proc/PID/status)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            caught = next(line for line in f if line.startswith("SigCgt:")).split()[1]
    except (OSError, StopIteration):
        return False
    return bool(int(caught, 16) >> (signal_number - 1) & 1)


def case_check_interrupted_reading_rocpd(c, signal_number, during_the_scan=False):
    database = os.path.realpath(endless_rocpd(c.path("capture")))
    if during_the_scan:  # many files to list before the database is opened
        for folder in range(20):
            os.makedirs(c.path(f"capture/other_{folder}"))
            for index in range(1000):
                open(c.path(f"capture/other_{folder}/f{index}.txt"), "w").close()

    def default_interrupts():  # one inherited as ignored (a background job) would hide the case
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(number, signal.SIG_DFL)

    aorta = subprocess.Popen([c.aorta, "check", "--json", "--collector", "rocprof",
                              c.path("capture")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             preexec_fn=default_interrupts)
    STARTED.append(aorta.pid)
    if during_the_scan:
        # As soon as aorta catches it: the command has begun and is listing the capture's files.
        give_up = time.monotonic() + PATIENCE
        while not catches(aorta.pid, signal_number) and time.monotonic() < give_up:
            time.sleep(0.001)
        print(f"database open when the signal was sent: {has_open(aorta.pid, database)}")
    else:
        wait_for(lambda: has_open(aorta.pid, database), "aorta to open the database")
    sent = time.monotonic()
    aorta.send_signal(signal_number)
    try:
        out, err = aorta.communicate(timeout=PATIENCE)
    except subprocess.TimeoutExpired:
        aorta.kill()
        fail("aorta did not end")
    took = time.monotonic() - sent
    print(out.decode(errors="replace"), err.decode(errors="replace"))
    # The read's own time limit is 60 s: an exit within 10 s is the interrupt, not the limit.
    if took > 10:
        fail(f"aorta ended {took:.1f} s after the signal")
    if aorta.returncode != 128 + signal_number:
        fail(f"exit {aorta.returncode}, expected {128 + signal_number}")
    if out.strip():
        fail("a verdict was printed for a read that was interrupted")
    if f"interrupted by {signal.Signals(signal_number).name}" not in err.decode():
        fail("stderr does not say which signal interrupted the read")


CASES = {
    "check_sigint_reading_rocpd": lambda c: case_check_interrupted_reading_rocpd(c, signal.SIGINT),
    "check_sigterm_reading_rocpd":
        lambda c: case_check_interrupted_reading_rocpd(c, signal.SIGTERM),
    # A signal before the database is opened counts for its read: one baseline per command.
    "check_sigint_during_the_scan":
        lambda c: case_check_interrupted_reading_rocpd(c, signal.SIGINT, during_the_scan=True),
}


if __name__ == "__main__":
    main(CASES)
