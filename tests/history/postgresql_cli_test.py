#!/usr/bin/env python3
"""`aorta history` against a real PostgreSQL server (docs/history.md, "PostgreSQL store").

Starts a throw-away server from the installed PostgreSQL binaries (initdb and pg_ctl, found under
/usr/lib/postgresql/*/bin or in $AORTA_POSTGRESQL_BIN) in a temporary directory, as an unprivileged
user (`nobody` through runuser when run as root, since postgres refuses root), listening only on a
unix socket in that directory. Then runs the SQLite store's CLI tests against it:
  - eight concurrent `history add` processes, twice: 40 runs and 240 samples, counted with psql;
  - eight adds at once creating the same 300 new quantities;
  - `history changes --json` reads back what an SQLite store of the same adds reads, and
    `history show` the commits (through a postgres:// URL);
  - the change-point detector's state is saved in the server and reused by the next process,
    with the answers of a --full-pass (history_cli_test.py's incremental test); a user who may
    only read gets the same changes and a warning that the state was not saved;
  - an add killed inside its transaction leaves the store as it was;
  - UPDATE, DELETE and TRUNCATE of recorded rows are refused by the store's triggers;
  - a store of another schema version and a database that is not a store are refused, unchanged;
  - a server that cannot be reached is named in the message, the URL's password never.
The server is stopped (pg_ctl stop -m immediate) and the directory removed even on failure.
Exits 77 (skipped) only when the server binaries are absent.
"""
import argparse
import glob
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from history_cli_test import (aorta, concurrent, expect_refusal, incremental,  # noqa: E402
                              iso_hour, sweeps, write_trial)

SKIP = 77


def server_binaries():
    candidates = [os.environ.get("AORTA_POSTGRESQL_BIN", "")]
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for directory in candidates:
        if directory and all(os.access(Path(directory) / tool, os.X_OK)
                             for tool in ("initdb", "pg_ctl", "psql")):
            return Path(directory)
    return None


class Server:
    """A PostgreSQL cluster in a fresh directory, reachable only through its unix socket."""

    def __init__(self, binaries):
        self.binaries = binaries
        # Under /tmp, not $TMPDIR: a unix socket's path must stay under 108 bytes.
        self.root = Path(tempfile.mkdtemp(prefix="aorta-pg-", dir="/tmp"))
        self.as_user = []
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.root, nobody.pw_uid, nobody.pw_gid)
            self.as_user = ["runuser", "-u", "nobody", "--"]
        self.data = self.root / "data"
        self.started = False

    def tool(self, name, *args, check=True):
        run = subprocess.run([*self.as_user, str(self.binaries / name), *args], cwd=self.root,
                             capture_output=True, text=True)
        if check and run.returncode != 0:
            sys.exit(f"FAIL: {name} {' '.join(args)} exited {run.returncode}:\n{run.stdout}"
                     f"{run.stderr}")
        return run

    def start(self):
        self.tool("initdb", "-D", str(self.data), "-U", "aorta", "-A", "trust", "--no-sync",
                  "-E", "UTF8", "--locale=C")
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"listen_addresses = ''\nunix_socket_directories = '{self.root}'\n"
                       "fsync = off\nmax_connections = 40\n")
        self.started = True
        started = self.tool("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-w",
                            "-t", "30", "start", check=False)
        if started.returncode != 0:
            log = (self.root / "log").read_text() if (self.root / "log").exists() else ""
            sys.exit(f"FAIL: pg_ctl start exited {started.returncode}:\n{started.stderr}\n{log}")

    def stop(self):
        if self.started:
            self.tool("pg_ctl", "-D", str(self.data), "stop", "-m", "immediate", check=False)
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database, scheme="postgresql"):
        return f"{scheme}:///{database}?host={self.root}&user=aorta"

    def sql(self, database, statement, check=True):
        run = subprocess.run([str(self.binaries / "psql"), "-X", "-At", "-v", "ON_ERROR_STOP=1",
                              "-d", self.url(database), "-c", statement],
                             capture_output=True, text=True)
        if check and run.returncode != 0:
            sys.exit(f"FAIL: psql {statement!r}: {run.stderr}")
        return run


def changes(options, store):
    return json.loads(aorta(options.aorta, "history", "changes", "--json", "--history",
                            str(store)).stdout)


def read_back(options, server, work):
    """The PostgreSQL store answers as an SQLite store of the same adds does."""
    url = server.url("aorta")
    report = changes(options, url)
    if report["series"] != 10 or report["points"] != 80:
        sys.exit(f"FAIL: changes read {report['series']} series and {report['points']} points; "
                 "expected 10 series (5 tests x 2 quantities) of 8 commits each")
    if report["store"] != f"postgresql://aorta@{server.root}/aorta":
        sys.exit(f"FAIL: the report names the store as {report['store']!r}")
    sqlite_store = work / "same.sqlite"
    for i in range(8):  # the adds of concurrent(), one after another
        aorta(options.aorta, "history", "add", str(work / f"sweep{i}"), "--commit", f"r{i}",
              "--time", iso_hour(i), "--history", str(sqlite_store))
    sqlite_report = changes(options, sqlite_store)
    for key in ("series", "points", "changes"):
        if report[key] != sqlite_report[key]:
            sys.exit(f"FAIL: PostgreSQL and SQLite stores of the same adds differ in {key}:\n"
                     f"{report[key]}\n{sqlite_report[key]}")
    shown = aorta(options.aorta, "history", "show", "test0", "x_gpu_time_ms", "--history",
                  url.replace("postgresql://", "postgres://", 1)).stdout
    for commit in [f"r{i}" for i in range(8)]:
        if commit not in shown:
            sys.exit(f"FAIL: history show lacks commit {commit}:\n{shown}")


def read_only_user(options, server):
    """A database user who may only read: the changes stand, the state is not saved, and stderr
    says so (a CI job reading a fleet's store with a read-only login)."""
    server.sql("incremental", "CREATE ROLE reader LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA "
                              "public TO reader")
    url = server.url("incremental").replace("user=aorta", "user=reader")
    run = aorta(options.aorta, "history", "changes", "--json", "--full-pass", "--history", url)
    report = json.loads(run.stdout)
    owner = json.loads(aorta(options.aorta, "history", "changes", "--json", "--history",
                             server.url("incremental")).stdout)
    if report["detector_state"]["saved"] or "was not saved" not in run.stderr or \
            report["changes"] != owner["changes"]:
        sys.exit(f"FAIL: a read-only user: {report['detector_state']}, stderr {run.stderr!r}; "
                 "want the same changes, saved false and a warning")


def contending_adds(options, server, work):
    """Eight adds at once, each creating the same 300 new quantities: each waits on the others'
    uncommitted rows of the quantities' unique key and must then find the row, not lose it."""
    names = [f"contended{q:03d}_time_ms" for q in range(300)]
    roots = []
    for i in range(8):
        root = work / f"contend{i}"
        write_trial(root / "contend" / "trial_0", 0, 1.0,
                    {"metrics": {name: float(i) for name in names}})
        roots.append(root)
    before = counts(server)
    processes = [subprocess.Popen([options.aorta, "history", "add", str(root), "--commit",
                                   f"k{i}", "--time", iso_hour(20 + i), "--history",
                                   server.url("aorta")],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                 for i, root in enumerate(roots)]
    for process in processes:
        output = process.communicate()[0]
        if process.returncode != 0:
            sys.exit(f"FAIL: a contending add exited {process.returncode}: {output}")
    expected = (before[0] + 8, before[1] + 8 * 301)
    if counts(server) != expected:
        sys.exit(f"FAIL: contending adds left {counts(server)} (runs, samples); want {expected}")


def append_only(server):
    for statement in ("UPDATE samples SET value = 0", "DELETE FROM runs", "TRUNCATE samples",
                      "DELETE FROM trials"):
        run = server.sql("aorta", statement, check=False)
        if run.returncode == 0 or "append-only" not in run.stderr:
            sys.exit(f"FAIL: {statement!r} was not refused as append-only: {run.stderr}")


def interrupted_add(options, server, work):
    big = work / "big"
    for test in range(10):  # 200,000 samples: the transaction lasts long enough to be hit
        for t in range(5):
            write_trial(big / f"test{test}" / f"trial_{t}", t, 1.0,
                        {"metrics": {f"m{m}_time_ms": m + t / 10 for m in range(3999)}})
    before = counts(server)
    process = subprocess.Popen([options.aorta, "history", "add", str(big), "--commit", "big",
                                "--time", iso_hour(9), "--history", server.url("aorta")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    busy = ("SELECT count(*) FROM pg_stat_activity WHERE datname = 'aorta' AND xact_start IS NOT "
            "NULL AND pid <> pg_backend_pid() AND query LIKE 'INSERT INTO samples%'")
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        if server.sql("aorta", busy).stdout.strip() != "0":
            break
    if process.poll() is not None:
        sys.exit("FAIL: the add finished before a kill could land inside its transaction")
    process.send_signal(signal.SIGKILL)
    process.wait()
    if counts(server) != before:
        sys.exit(f"FAIL: a killed add left {counts(server)} (runs, samples); before {before}")
    aorta(options.aorta, "history", "add", str(big), "--commit", "big", "--time", iso_hour(9),
          "--history", server.url("aorta"))
    if counts(server) != (before[0] + 10, before[1] + 200000):
        sys.exit(f"FAIL: the add after the killed one left {counts(server)}")


def counts(server):
    rows = server.sql("aorta", "SELECT (SELECT count(*) FROM runs) || ' ' || "
                               "(SELECT count(*) FROM samples)").stdout.split()
    return int(rows[0]), int(rows[1])


def refusals(options, server, work):
    good = sweeps(work / "refusals", 1, 1, 1)[0]
    server.sql("postgres", "CREATE DATABASE other")
    server.sql("other", "CREATE TABLE notes (line text); INSERT INTO notes VALUES ('mine')")
    expect_refusal(options, ["history", "add", str(good), "--commit", "x", "--history",
                             server.url("other")], 1, ["not an aorta history store"])
    if server.sql("other", "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
                  ).stdout.strip() != "1":
        sys.exit("FAIL: a database that is not a store was changed")
    server.sql("postgres", "CREATE DATABASE future")
    aorta(options.aorta, "history", "add", str(good), "--commit", "x", "--history",
          server.url("future"))
    server.sql("future", "UPDATE schema_version SET version = 99")
    for command in (["add", str(good), "--commit", "y"], ["changes"]):
        expect_refusal(options, ["history", *command, "--history", server.url("future")], 1,
                       ["schema version 99", "left the store untouched"])
    if server.sql("future", "SELECT count(*) FROM runs").stdout.strip() != "1":
        sys.exit("FAIL: a store of another schema version was written")
    secret = f"postgresql://aorta:s3cret-pw@/aorta?host={server.root}/absent"
    run = aorta(options.aorta, "history", "changes", "--history", secret, check=False)
    output = run.stdout + run.stderr
    if run.returncode != 1 or "s3cret-pw" in output or f"{server.root}/absent" not in output:
        sys.exit(f"FAIL: an unreachable server: exit {run.returncode} (want 1), the socket "
                 f"directory named and the password never:\n{output}")


def baseline_from_history(options, server, work):
    """--baseline history[:BRANCH] reading this server: history_baseline_test.py with --store."""
    server.sql("postgres", "CREATE DATABASE baseline")
    script = Path(__file__).with_name("history_baseline_test.py")
    run = subprocess.run([sys.executable, str(script), "--aorta", options.aorta, "--payload",
                          options.payload, "--recipe", options.recipe, "--workdir",
                          str(work / "baseline"), "--store", server.url("baseline")],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"FAIL: history_baseline_test.py against PostgreSQL:\n{run.stdout}{run.stderr}")
    print(run.stdout.strip())


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--aorta", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--payload", help="the cpu-hotspot example, for history_baseline_test.py")
    parser.add_argument("--recipe", help="its recipe.yaml")
    options = parser.parse_args()
    binaries = server_binaries()
    if binaries is None:
        print("SKIP: no PostgreSQL server binaries (initdb, pg_ctl, psql) under "
              "/usr/lib/postgresql/*/bin or $AORTA_POSTGRESQL_BIN; ci/install-deps.sh installs "
              "Debian's postgresql package")
        sys.exit(SKIP)
    server = Server(binaries)
    try:
        server.start()
        server.sql("postgres", "CREATE DATABASE aorta")
        url = server.url("aorta")
        concurrent(options, url, lambda _: counts(server))
        work = Path(options.workdir)
        read_back(options, server, work)
        server.sql("postgres", "CREATE DATABASE incremental")
        incremental(argparse.Namespace(aorta=options.aorta, workdir=str(work / "incremental")),
                    server.url("incremental"))
        read_only_user(options, server)
        contending_adds(options, server, work)
        append_only(server)
        interrupted_add(options, server, work)
        refusals(options, server, work)
        if options.payload:
            baseline_from_history(options, server, work)
    finally:
        server.stop()
    print("postgresql: 8 concurrent adds x 2 rounds lost and doubled nothing; changes and show "
          "read it back; the detector's state saved and reused; a killed add left nothing; append-only, foreign and future stores and "
          "an unreachable server refused" + (
              "; --baseline history read it" if options.payload else ""))


if __name__ == "__main__":
    main()
