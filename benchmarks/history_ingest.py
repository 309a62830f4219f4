#!/usr/bin/env python3
"""`aorta history add` ingest speed beside the sqlite3 CLI doing the same inserts, and one long
series read with its change-point pass (docs/history.md, benchmarks/README.md "history").

  python3 benchmarks/history_ingest.py --aorta build/ci/harness/aorta [--tests 500 --trials 10
      --metrics 100] [--commits 1000] [--workdir /tmp/aorta-history-bench]

1. Writes one sweep tree (tests x trials result.json files, `metrics` numeric metrics each, plus
   the wall_seconds sample aorta adds), then times `aorta history add` into a new store: reading
   and parsing every result.json and inserting every sample in one transaction.
2. Writes the same rows as SQL (the schema aorta created, one transaction, prepared by the CLI's
   own parser), and times `sqlite3 FILE < inserts.sql` into a fresh copy of the empty schema: the
   same inserts without aorta's JSON reading.
3. Adds a `--commits`-long series of one test (3 trials a commit, a +2% step at the middle) with
   Python's sqlite3 straight into a store aorta created, then times `aorta history changes
   --test long` (the series read and its change-point pass, process start included) and `aorta
   history show`.
   Beside them, the `sqlite3` CLI runs the same series read (the query aorta's store runs) on
   the same file; the ratios are printed.
4. With --disk-samples N (10,000,000 for the issue's figure): adds N samples with `aorta history
   add`, a million at a time (1,000 result.json files of 999 metrics plus wall_seconds, a new
   commit each), and prints the store's size on disk and bytes per sample.
5. With --postgresql: starts a throw-away PostgreSQL server in a temporary directory (the helper
   of tests/history/postgresql_cli_test.py: initdb, a unix socket, fsync off) and times the same
   `history add` into it, and `history changes` / `show` of the same long series copied into it,
   beside the SQLite figures of steps 1 and 3; psql's bare read of the series is the anchor.
The best of --repeat runs is printed for each, as JSON lines: wall seconds, and the CPU seconds
(user + system) of the command, which a machine shared with other jobs inflates less.
"""
import argparse
import csv
import json
import random
import resource
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path


def timed(argv, stdin=None):
    """Wall seconds of the command; its CPU seconds (user + system) go to timed.cpu."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdin=stdin, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    timed.cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall


def write_sweep(root, tests, trials, metrics, prefix="test"):
    rng = random.Random(1)
    for test in range(tests):
        for trial in range(trials):
            directory = root / f"{prefix}{test:04d}" / f"trial_{trial}"
            directory.mkdir(parents=True)
            values = {f"m{m:03d}_time_ms": 1.0 + rng.random() for m in range(metrics)}
            (directory / "result.json").write_text(json.dumps({
                "schema": "aorta-result", "schema_version": 1, "trial_index": trial,
                "verdict": "pass", "started_at": "2026-12-01T00:00:00Z", "wall_seconds": 1.0,
                "versions": {"aorta": "0.1.0", "gpu": "NVIDIA H100, 580.1", "gpu_uuid": "GPU-b"},
                "metrics": values}))


def sql_literal(text):
    return "'" + text.replace("'", "''") + "'"


def inserts_sql(store, path):
    """The rows aorta wrote, as the INSERT statements a script would send."""
    db = sqlite3.connect(store)
    with open(path, "w") as out:
        out.write("BEGIN IMMEDIATE;\n")
        for table in ("runs", "trials", "quantities", "series", "samples"):
            columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            for row in db.execute(f"SELECT * FROM {table}"):
                values = ", ".join(sql_literal(v) if isinstance(v, str) else repr(v) for v in row)
                out.write(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({values});\n")
        out.write("COMMIT;\n")
    samples = db.execute("SELECT count(*) FROM samples").fetchone()[0]
    db.close()
    return samples


def import_csv(store, work):
    """The rows aorta wrote as one CSV file a table, and the sqlite3 CLI's commands importing them
    (`.import --csv`: one prepared INSERT bound per row, the CLI's fastest bulk path)."""
    db = sqlite3.connect(store)
    commands = ["BEGIN IMMEDIATE;"]
    for table in ("runs", "trials", "quantities", "series", "samples"):
        path = work / f"{table}.csv"
        with open(path, "w", newline="") as out:
            writer = csv.writer(out)
            for row in db.execute(f"SELECT * FROM {table}"):
                writer.writerow(repr(v) if isinstance(v, float) else v for v in row)
        commands.append(f".import --csv {path} {table}")
    commands.append("COMMIT;")
    db.close()
    script = work / "import.sql"
    script.write_text("\n".join(commands) + "\n")
    return script


def long_series(aorta, work, commits):
    store = work / "long.sqlite"
    seed_dir = work / "seed" / "long" / "trial_0"
    seed_dir.mkdir(parents=True)
    (seed_dir / "result.json").write_text(json.dumps({
        "schema": "aorta-result", "schema_version": 1, "verdict": "pass",
        "metrics": {"x_time_ms": 1.0}}))
    subprocess.run([aorta, "history", "add", str(work / "seed"), "--commit", "seed", "--time",
                    "2020-01-01", "--history", str(store)], check=True, stdout=subprocess.DEVNULL)
    db = sqlite3.connect(store)
    quantity = db.execute("SELECT id FROM quantities WHERE name = 'x_time_ms'").fetchone()[0]
    rng = random.Random(2)
    for c in range(commits):
        cursor = db.execute(
            "INSERT INTO runs (run_key, test, commit_id, branch, time, time_unix, card_uuid, "
            "card_model, card_driver, tool_versions, recipe_path, recipe_digest, aorta_version, "
            "source, added_at) VALUES (?, 'long', ?, 'main', '', ?, '', '', '', '{}', '', '', "
            "'', '', '')", (f"k{c}", f"c{c:05d}", 1600000000 + c * 3600))
        level = 1.02 if c >= commits // 2 else 1.0
        for t in range(3):
            db.execute("INSERT INTO trials VALUES (?, ?, 'pass', 1, '')", (cursor.lastrowid, t))
            db.execute("INSERT INTO samples VALUES (?, ?, ?, ?)",
                       (quantity, cursor.lastrowid, t, level * (1 + rng.gauss(0, 0.01))))
    db.commit()
    db.close()
    return store


SERIES_QUERY = (
    "SELECT r.commit_id, r.branch, r.time, r.time_unix, s.value FROM runs r "
    "JOIN samples s ON s.run = r.id JOIN trials t ON t.run = s.run AND t.trial_index = "
    "s.trial_index WHERE r.test = 'long' AND r.card_uuid = '' AND t.measured = 1 AND s.quantity = "
    "(SELECT id FROM quantities WHERE name = 'x_time_ms' AND unit = 'ms') "
    "ORDER BY r.time_unix, r.commit_id, r.id, s.trial_index;")


def on_disk(options, work):
    """--disk-samples through `aorta history add`, a million samples (one commit) at a time."""
    store = work / "disk.sqlite"
    chunks = (options.disk_samples + 999_999) // 1_000_000
    started, cpu = time.perf_counter(), 0.0
    for chunk in range(chunks):
        root = work / "disk-chunk"
        shutil.rmtree(root, ignore_errors=True)
        write_sweep(root, 100, 10, 999, prefix=f"c{chunk:03d}t")
        timed([options.aorta, "history", "add", str(root), "--commit", f"d{chunk}", "--time",
               f"2026-01-01T{chunk % 24:02d}:00:00Z", "--history", str(store)])
        cpu += timed.cpu
    shutil.rmtree(work / "disk-chunk", ignore_errors=True)
    samples = chunks * 1_000_000
    size = store.stat().st_size
    print(json.dumps({"what": "on disk", "samples": samples, "store_bytes": size,
                      "bytes_per_sample": round(size / samples, 1),
                      "add_wall_s": round(time.perf_counter() - started, 1),
                      "add_cpu_s": round(cpu, 1)}))


def copy_long_series(aorta, sqlite_store, server, database, work):
    """The long series of `sqlite_store` into a new PostgreSQL store: aorta creates the schema by
    adding the same seed (run 1, quantity 1), psql inserts the other rows with their ids."""
    server.sql("postgres", f"CREATE DATABASE {database}")
    subprocess.run([aorta, "history", "add", str(work / "seed"), "--commit", "seed", "--time",
                    "2020-01-01", "--history", server.url(database)], check=True,
                   stdout=subprocess.DEVNULL)
    db = sqlite3.connect(sqlite_store)
    script = work / f"{database}.sql"
    with open(script, "w") as out:
        out.write("BEGIN;\n")
        for table, where, overriding in (("runs", "id > 1", " OVERRIDING SYSTEM VALUE"),
                                         ("trials", "run > 1", ""), ("samples", "run > 1", "")):
            columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            for row in db.execute(f"SELECT * FROM {table} WHERE {where}"):
                values = ", ".join(sql_literal(v) if isinstance(v, str) else repr(v) for v in row)
                out.write(f"INSERT INTO {table} ({', '.join(columns)}){overriding} "
                          f"VALUES ({values});\n")
        out.write("COMMIT;\n")
    db.close()
    subprocess.run([str(server.binaries / "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d",
                    server.url(database), "-f", str(script)], check=True,
                   stdout=subprocess.DEVNULL)


def best_of(repeat, argv):
    wall, cpu = [], []
    for _ in range(repeat):
        wall.append(timed(argv))
        cpu.append(timed.cpu)
    return round(min(wall), 3), round(min(cpu), 3)


def postgresql(options, work, sweep, samples, long_store):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "history"))
    from postgresql_cli_test import Server, server_binaries
    binaries = server_binaries()
    if binaries is None:
        print(json.dumps({"what": "postgresql", "skipped": "no server binaries"}))
        return
    server = Server(binaries)
    try:
        server.start()
        figures = {"what": "postgresql", "samples": samples}
        walls, cpus = [], []
        for attempt in range(options.repeat):
            server.sql("postgres", f"CREATE DATABASE ingest{attempt}")
            walls.append(timed([options.aorta, "history", "add", str(sweep), "--commit", "c1",
                                "--time", "2026-01-01", "--history",
                                server.url(f"ingest{attempt}")]))
            cpus.append(timed.cpu)
        figures["aorta_history_add_s"] = round(min(walls), 3)
        figures["aorta_samples_per_s"] = round(samples / min(walls))
        figures["aorta_cpu_s"] = round(min(cpus), 3)
        copy_long_series(options.aorta, long_store, server, "long", work)
        url = server.url("long")
        for command in ("changes", "show"):
            argv = [options.aorta, "history", command] + (
                ["--test", "long"] if command == "changes" else ["long"]) + ["--history", url]
            figures[f"history_{command}_s"], figures[f"history_{command}_cpu_s"] = best_of(
                options.repeat, argv)
        figures["history_changes_full_pass_s"], figures["history_changes_full_pass_cpu_s"] = \
            best_of(options.repeat, [options.aorta, "history", "changes", "--test", "long",
                                     "--full-pass", "--history", url])
        figures["psql_series_read_s"], figures["psql_series_read_cpu_s"] = best_of(
            options.repeat, [str(binaries / "psql"), "-X", "-At", "-d", url, "-c", SERIES_QUERY])
        print(json.dumps(figures))
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--aorta", required=True)
    parser.add_argument("--sqlite3", default="sqlite3")
    parser.add_argument("--workdir", default="/tmp/aorta-history-bench")
    parser.add_argument("--tests", type=int, default=500)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--metrics", type=int, default=100)
    parser.add_argument("--commits", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--disk-samples", type=int, default=0)
    parser.add_argument("--postgresql", action="store_true",
                        help="also time a throw-away PostgreSQL server (its binaries installed)")
    options = parser.parse_args()
    work = Path(options.workdir)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    sweep = work / "sweep"
    write_sweep(sweep, options.tests, options.trials, options.metrics)
    empty = work / "empty.sqlite"
    subprocess.run([options.aorta, "history", "add", str(sweep / "test0000"), "--commit", "x",
                    "--time", "2026-01-01", "--history", str(empty)], check=True,
                   stdout=subprocess.DEVNULL)
    db = sqlite3.connect(empty)  # keep the schema only: the rows go in with the timed runs
    schema = [row[0] for row in db.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")]
    db.close()
    empty.unlink()
    best = {}  # what -> (wall, cpu), the best of the repeats

    def keep(what, wall):
        old = best.get(what, (wall, timed.cpu))
        best[what] = (min(old[0], wall), min(old[1], timed.cpu))

    def fresh_schema(target):
        db = sqlite3.connect(target)
        for statement in schema:
            db.execute(statement)
        db.commit()
        db.close()

    samples = 0
    for attempt in range(options.repeat):
        store = work / f"aorta{attempt}.sqlite"
        add = [options.aorta, "history", "add", str(sweep), "--commit", "c1", "--time",
               "2026-01-01", "--history", str(store)]
        keep("aorta", timed(add))
        # The same add again: every run is in the store, so this is the reading and parsing of
        # every result.json (and a lookup a run) without the inserts.
        keep("aorta_read_only", timed(add))
        if attempt == 0:
            samples = inserts_sql(store, work / "inserts.sql")
            import_script = import_csv(store, work)
        target = work / f"cli{attempt}.sqlite"
        fresh_schema(target)
        with open(work / "inserts.sql") as sql:
            keep("sqlite3_inserts", timed([options.sqlite3, str(target)], stdin=sql))
        target = work / f"import{attempt}.sqlite"
        fresh_schema(target)
        with open(import_script) as commands:
            keep("sqlite3_import", timed([options.sqlite3, str(target)], stdin=commands))
    wall, cpu = best["aorta"]
    figures = {"what": "ingest", "samples": samples, "result_files": options.tests * options.trials,
               "aorta_history_add_s": round(wall, 3), "aorta_samples_per_s": round(samples / wall),
               "aorta_cpu_s": round(cpu, 3), "aorta_samples_per_cpu_s": round(samples / cpu),
               "aorta_read_and_parse_only_cpu_s": round(best["aorta_read_only"][1], 3),
               "store_bytes": (work / "aorta0.sqlite").stat().st_size}
    for anchor in ("sqlite3_inserts", "sqlite3_import"):
        figures[f"{anchor}_s"] = round(best[anchor][0], 3)
        figures[f"{anchor}_cpu_s"] = round(best[anchor][1], 3)
        # Above 1: aorta is faster than the anchor.
        figures[f"{anchor}_over_aorta_wall"] = round(best[anchor][0] / wall, 2)
        figures[f"{anchor}_over_aorta_cpu"] = round(best[anchor][1] / cpu, 2)
    print(json.dumps(figures))
    store = long_series(options.aorta, work, options.commits)
    figures = {"what": "one series", "commits": options.commits, "samples": options.commits * 3}
    # The first pass saves the detector's state; the timed `changes` and `show` reuse it, and
    # `--full-pass` is the cost without it.
    for command in ("changes", "show"):
        argv = [options.aorta, "history", command] + (
            ["--test", "long"] if command == "changes" else ["long"]) + ["--history", str(store)]
        figures[f"history_{command}_s"], figures[f"history_{command}_cpu_s"] = best_of(
            options.repeat, argv)
    figures["history_changes_full_pass_s"], figures["history_changes_full_pass_cpu_s"] = best_of(
        options.repeat, [options.aorta, "history", "changes", "--test", "long", "--full-pass",
                         "--history", str(store)])
    wall, cpu = [], []
    for _ in range(options.repeat):
        wall.append(timed([options.sqlite3, "-readonly", str(store), SERIES_QUERY]))
        cpu.append(timed.cpu)
    figures["sqlite3_cli_series_read_s"] = round(min(wall), 3)
    figures["sqlite3_cli_series_read_cpu_s"] = round(min(cpu), 3)
    figures["show_over_sqlite3_read"] = round(figures["history_show_s"] / min(wall), 2)
    figures["changes_over_sqlite3_read"] = round(figures["history_changes_s"] / min(wall), 2)
    print(json.dumps(figures))
    if options.postgresql:
        postgresql(options, work, sweep, samples, store)
    if options.disk_samples:
        on_disk(options, work)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
