#!/usr/bin/env python3
"""CLI tests of `aorta history` (docs/history.md), through the real aorta binary.

  replay      the labelled synthetic replay: seeded series with and without a planted step,
              one `history add` per commit, then `history changes --json`; scores the changes
              against the labels (recall of steps within --within commits, false changes per
              1,000 points) and, with --check, fails below the targets.
  concurrent  eight `history add` processes at once on one SQLite store lose nothing (rows
              counted with Python's own sqlite3 module), and adding the same runs again adds none.
  interrupt   an add killed mid-way leaves the store as it was: all of its runs or none.
  incremental `history changes`, `show` and `report --history` save the change-point detector's
              state in the store and the next process reuses it: the second pass tests no
              segment, a pass after new commits tests only some, and every pass prints exactly
              what a --full-pass prints; a damaged saved state costs a retest, never an answer.
  hostile     damaged and hostile result.json files are refused naming the file; the store and a
              file that is not a store are left untouched; a postgresql:// URL is refused
              when aorta was built without PostgreSQL (tests/history/postgresql_cli_test.py
              runs these tests against a real PostgreSQL server).
Python's standard library only, so it runs wherever CTest does.
"""
import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path


def write_trial(directory, trial, value, extra=None):
    if not directory.is_dir():
        directory.mkdir(parents=True)
    record = {
        "schema": "aorta-result", "schema_version": 1, "trial_index": trial,
        "verdict": "pass", "started_at": "2026-12-01T00:00:00Z", "wall_seconds": 0.0,
        "versions": {"aorta": "0.1.0", "gpu": "NVIDIA H100, 580.1", "gpu_uuid": "GPU-test"},
        "metrics": {"x_gpu_time_ms": value},
    }
    if extra:
        record.update(extra)
    (directory / "result.json").write_text(json.dumps(record))


def aorta(binary, *args, check=True):
    run = subprocess.run([binary, *args], capture_output=True, text=True)
    if check and run.returncode != 0:
        sys.exit(f"FAIL: aorta {' '.join(args)} exited {run.returncode}:\n{run.stdout}{run.stderr}")
    return run


def iso_hour(hours):
    day, hour = divmod(hours, 24)
    return f"2026-{1 + day // 28:02d}-{1 + day % 28:02d}T{hour:02d}:00:00Z"


def replay(options):
    work = Path(options.workdir)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    rng = random.Random(options.seed)
    commits = options.commits
    labels = {}  # test -> commit index of its step, or None
    for s in range(options.step_series):
        # Half the steps lie anywhere between the ends, half exactly `within` commits before the
        # last commit: found then means found within `within` commits of arriving.
        if s % 2 == 0:
            labels[f"step{s:03d}"] = rng.randint(options.within * 2, commits - options.within * 2)
        else:
            labels[f"step{s:03d}"] = commits - options.within
    for s in range(options.null_series):
        labels[f"null{s:03d}"] = None
    store = work / "history.sqlite"
    started = time.monotonic()
    commit_dir = work / "commit"  # rewritten for each commit: creating 360 directories a commit
    for c in range(commits):       # cost more than the adds
        for test, step in labels.items():
            level = 1.0 + (options.step if step is not None and c >= step else 0.0)
            for t in range(options.trials):
                write_trial(commit_dir / test / f"trial_{t}", t, level * (1.0 + rng.gauss(0.0, options.noise)))
        aorta(options.aorta, "history", "add", str(commit_dir), "--commit", f"c{c:04d}",
              "--branch", "main", "--time", iso_hour(c), "--history", str(store))
    added = time.monotonic()
    run = aorta(options.aorta, "history", "changes", "--json", "--history", str(store))
    finished = time.monotonic()
    report = json.loads(run.stdout)
    found, false = set(), 0
    for change in report["changes"]:
        test, index = change["test"], int(change["commit"][1:])
        step = labels.get(test)
        if change["quantity"] != "x_gpu_time_ms":
            false += 1  # wall_seconds is constant: any change there is false
        elif step is not None and abs(index - step) <= options.within and test not in found:
            found.add(test)
        else:
            false += 1
    steps = sum(1 for step in labels.values() if step is not None)
    points = len(labels) * commits
    recall = len(found) / steps if steps else 1.0
    false_per_1000 = false * 1000.0 / points
    late = {test for test, step in labels.items() if step == commits - options.within}
    print(json.dumps({"noise": options.noise, "step": options.step, "trials": options.trials,
                      "commits": commits, "steps": steps, "found": len(found), "recall": recall,
                      "late_steps": len(late), "late_found": len(found & late),
                      "points": points, "false_changes": false, "false_per_1000": false_per_1000,
                      "add_seconds": round(added - started, 2),
                      "changes_seconds": round(finished - added, 2)}))
    if options.check and (recall < 0.95 or false_per_1000 > 1.0):
        sys.exit(f"FAIL: recall {recall:.3f} (target >= 0.95), {false_per_1000:.2f} false "
                 "changes per 1,000 points (target <= 1)")


def count(store, table):
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
        return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def count_sqlite(store):
    return count(store, "runs"), count(store, "samples")


def sweeps(work, runs, tests, trials):
    roots = []
    for r in range(runs):
        root = work / f"sweep{r}"
        for test in range(tests):
            for t in range(trials):
                write_trial(root / f"test{test}" / f"trial_{t}", t, 1.0 + r + test / 100 + t / 1000)
        roots.append(root)
    return roots


def concurrent(options, store=None, count_rows=count_sqlite):
    """`store` is an SQLite path (the default) or a PostgreSQL URL; count_rows(store) gives
    (runs, samples) as the store's own client counts them."""
    work = Path(options.workdir)
    shutil.rmtree(work, ignore_errors=True)
    store = store or work / "history.sqlite"
    roots = sweeps(work, 8, 5, 3)
    for attempt in range(2):
        processes = [subprocess.Popen([options.aorta, "history", "add", str(root), "--commit",
                                       f"r{i}", "--time", iso_hour(i), "--history", str(store)],
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                     for i, root in enumerate(roots)]
        for process in processes:
            output = process.communicate()[0]
            if process.returncode != 0:
                sys.exit(f"FAIL: a concurrent add exited {process.returncode}: {output}")
        # 8 sweeps x 5 tests = 40 runs; 3 trials each, 2 samples a trial (the metric, wall_seconds).
        runs, samples = count_rows(store)
        if (runs, samples) != (40, 240):
            sys.exit(f"FAIL: after round {attempt + 1} the store holds {runs} runs and {samples} "
                     "samples; expected 40 and 240")
    print("concurrent: 8 processes x 2 rounds: 40 runs, 240 samples, nothing lost or doubled")


def count_after_crash(store, table):
    # A read-write connection, as the next `history add` opens it: it rolls back the journal a
    # killed writer left behind, which is SQLite's guarantee under test here.
    with sqlite3.connect(store) as db:
        return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def interrupt(options):
    work = Path(options.workdir)
    shutil.rmtree(work, ignore_errors=True)
    store = work / "history.sqlite"
    journal = work / "history.sqlite-journal"
    big = work / "big"
    for test in range(20):  # 400,000 samples: the transaction lasts long enough to be hit
        for t in range(5):
            write_trial(big / f"test{test}" / f"trial_{t}", t, 1.0,
                        {"metrics": {f"m{m}_time_ms": m + t / 10 for m in range(3999)}})
    aorta(options.aorta, "history", "add", str(sweeps(work, 1, 1, 1)[0]), "--commit", "seed",
          "--history", str(store))
    full = (21, 400000 + 2)
    hits = 0
    for attempt in range(10):
        process = subprocess.Popen([options.aorta, "history", "add", str(big), "--commit", "big",
                                    "--time", iso_hour(1), "--history", str(store)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while not journal.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(0.05 * attempt)
        process.send_signal(signal.SIGKILL)
        process.wait()
        hits += 1 if journal.exists() and journal.stat().st_size > 0 else 0
        counts = (count_after_crash(store, "runs"), count_after_crash(store, "samples"))
        if counts not in ((1, 2), full):
            sys.exit(f"FAIL: a killed add left {counts[0]} runs and {counts[1]} samples: part of it")
        if counts == full or hits >= 3:
            break
    if hits == 0:
        sys.exit("FAIL: no kill landed inside the add's transaction; the test proved nothing")
    aorta(options.aorta, "history", "add", str(big), "--commit", "big", "--time", iso_hour(1),
          "--history", str(store))
    if (count_after_crash(store, "runs"), count_after_crash(store, "samples")) != full:
        sys.exit("FAIL: the add after the killed ones did not complete the store")
    print(f"interrupt: {hits} add(s) killed inside their transaction left the store as it was")


def changes_run(options, store, *extra):
    """(the JSON report, the text report) of one `history changes` process each."""
    report = json.loads(aorta(options.aorta, "history", "changes", "--json", *extra,
                              "--history", str(store)).stdout)
    text = aorta(options.aorta, "history", "changes", *extra, "--history", str(store)).stdout
    return report, text


def add_commits(options, store, work, commits, step_at):
    rng = random.Random(7 + commits.start)
    for c in commits:
        root = work / f"commit{c}"
        for test, step in step_at.items():
            level = 1.05 if c >= step else 1.0
            for t in range(3):
                write_trial(root / test / f"trial_{t}", t, level * (1.0 + rng.gauss(0.0, 0.01)))
        aorta(options.aorta, "history", "add", str(root), "--commit", f"c{c:03d}", "--branch",
              "main", "--time", iso_hour(c), "--history", str(store))


def expect_same_changes(label, report, text, full, full_text):
    if report["changes"] != full["changes"] or text != full_text:
        sys.exit(f"FAIL: {label}: the changes differ from a --full-pass over the same store:\n"
                 f"{json.dumps(report['changes'])}\n{json.dumps(full['changes'])}\n"
                 f"{text}\n{full_text}")


def incremental(options, store=None):
    """`store` is an SQLite path (the default) or a PostgreSQL URL."""
    work = Path(options.workdir)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    store = store or work / "history.sqlite"
    add_commits(options, store, work, range(0, 30), {"a": 18, "b": 1000})
    first, _ = changes_run(options, store)
    state = first["detector_state"]
    if state["segments_reused"] != 0 or state["segments_tested"] == 0 or not state["saved"]:
        sys.exit(f"FAIL: a first pass over a new store: {state}")
    second, second_text = changes_run(options, store)
    again = second["detector_state"]
    if (again["segments_tested"], again["permutations_run"], again["series_saved"]) != (0, 0, 0) \
            or again["segments_reused"] != state["segments_tested"]:
        sys.exit(f"FAIL: a second process did not reuse the first's state: {again} after {state}")
    full, full_text = changes_run(options, store, "--full-pass")
    expect_same_changes("the reusing pass", second, second_text, full, full_text)
    if [change["commit"] for change in full["changes"]] != ["c018"]:
        sys.exit(f"FAIL: expected the planted step at c018 only: {full['changes']}")
    add_commits(options, store, work, range(30, 42), {"a": 18, "b": 33})
    grown, _ = changes_run(options, store)
    use = grown["detector_state"]
    grown_text = aorta(options.aorta, "history", "changes", "--history", str(store)).stdout
    full, full_text = changes_run(options, store, "--full-pass")
    expect_same_changes("after 12 new commits", grown, grown_text, full, full_text)
    fresh = full["detector_state"]
    if use["segments_reused"] == 0 or use["permutations_run"] >= fresh["permutations_run"]:
        sys.exit(f"FAIL: after new commits the pass reused nothing or saved no work: {use}, "
                 f"a full pass: {fresh}")
    if sorted(change["commit"] for change in full["changes"]) != ["c018", "c033"]:
        sys.exit(f"FAIL: expected the steps at c018 and c033: {full['changes']}")
    report_dir = work / "report"
    write_trial(report_dir / "a" / "trial_0", 0, 1.0)
    summary = aorta(options.aorta, "report", str(report_dir), "--history", str(store)).stdout
    # Test a's series: x_gpu_time_ms has 3 segments (the whole, either side of c018) and the
    # stepless wall_seconds 1, all decided by the passes above.
    if "change-point segments: 4 reused, 0 tested" not in summary:
        sys.exit(f"FAIL: report --history did not reuse the saved state of test a:\n{summary}")
    print(f"incremental: second process reused {again['segments_reused']} segments and tested "
          f"none; after 12 commits {use['segments_reused']} reused, {use['segments_tested']} "
          f"tested, {use['permutations_run']} permutations against {fresh['permutations_run']} "
          "for a full pass; the same changes, byte for byte")
    return full, full_text


def damaged_state(options):
    """Rows of the saved state that cannot be right are retested, not trusted."""
    full, full_text = incremental(options)
    store = Path(options.workdir) / "history.sqlite"
    with sqlite3.connect(store) as db:
        db.execute("UPDATE detector_state SET change_commit = 100000, range_last = 100000 "
                   "WHERE changed = 1")
    report, text = changes_run(options, store)
    expect_same_changes("a damaged saved state", report, text, full, full_text)
    if report["detector_state"]["segments_tested"] == 0:
        sys.exit("FAIL: rows with a change outside their segment were reused")


def expect_refusal(options, args, code, words):
    run = aorta(options.aorta, *args, check=False)
    output = run.stdout + run.stderr
    if run.returncode != code or any(word not in output for word in words):
        sys.exit(f"FAIL: aorta {' '.join(args)}: exit {run.returncode} (want {code}), output "
                 f"lacks {words}:\n{output}")


def hostile(options):
    work = Path(options.workdir)
    shutil.rmtree(work, ignore_errors=True)
    store = work / "history.sqlite"
    good = sweeps(work, 1, 1, 3)[0]
    aorta(options.aorta, "history", "add", str(good), "--commit", "a", "--history", str(store))
    before = store.read_bytes()
    cases = {
        "truncated": '{"schema": "aorta-result", "metrics": {"x": 1',
        "deep": "[" * 100000 + "]" * 100000,
        "out_of_range": '{"schema": "aorta-result", "metrics": {"x": 1e400}}',
        "wrong_type": '{"schema": "aorta-result", "trial_index": "zero"}',
    }
    for name, text in cases.items():
        damaged = work / name / "t" / "trial_0"
        damaged.mkdir(parents=True)
        (damaged / "result.json").write_text(text)
        expect_refusal(options, ["history", "add", str(work / name), "--commit", "b", "--history",
                                 str(store)], 1, [str(damaged / "result.json")])
    fifo = work / "fifo" / "t" / "trial_0"
    fifo.mkdir(parents=True)
    os.mkfifo(fifo / "result.json")
    expect_refusal(options, ["history", "add", str(work / "fifo"), "--commit", "b", "--history",
                             str(store)], 1, [str(fifo / "result.json")])
    if store.read_bytes() != before:
        sys.exit("FAIL: a refused add changed the store")
    notes = work / "notes.txt"
    notes.write_text("not a store\n" * 100)
    expect_refusal(options, ["history", "add", str(good), "--commit", "a", "--history",
                             str(notes)], 1, ["not an aorta history store"])
    if notes.read_text() != "not a store\n" * 100:
        sys.exit("FAIL: a file that is not a store was changed")
    if not options.postgresql:
        expect_refusal(options, ["history", "changes", "--history", "postgresql://ci@db/aorta"],
                       64, ["built without PostgreSQL"])
    expect_refusal(options, ["history", "add", str(good), "--commit", "--output=x", "--history",
                             str(store)], 64, ["--commit"])
    expect_refusal(options, ["history", "show", "nosuch", "--history", str(store)], 1, ["nosuch"])
    # --history and --history-commits serve --baseline history only: given alone, refused.
    for given in (["--history", str(store)], ["--history-commits", "5"]):
        expect_refusal(options, ["sweep", "run", "--recipe", "r.yaml", "--output", "o", *given,
                                 "--", "true"], 64, [given[0], "--baseline history",
                                                     "aorta history add"])
        expect_refusal(options, ["compare", str(good), str(good), *given], 64,
                       [given[0], "--baseline history", f"baseline is '{good}'"])
    print("hostile: every damaged input refused naming its file; store and foreign file untouched")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["replay", "concurrent", "interrupt", "hostile",
                                         "incremental"])
    parser.add_argument("--aorta", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--noise", type=float, default=0.01)
    parser.add_argument("--step", type=float, default=0.02)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--commits", type=int, default=60)
    parser.add_argument("--step-series", type=int, default=60)
    parser.add_argument("--null-series", type=int, default=60)
    parser.add_argument("--within", type=int, default=5)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--postgresql", type=int, default=1,
                        help="1 when aorta was built with PostgreSQL (AORTA_WITH_POSTGRESQL)")
    options = parser.parse_args()
    {"replay": replay, "concurrent": concurrent, "interrupt": interrupt, "hostile": hostile,
     "incremental": damaged_state}[options.mode](options)


if __name__ == "__main__":
    main()
