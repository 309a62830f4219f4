#!/usr/bin/env python3
"""`--baseline history[:BRANCH]` (docs/history.md, "Baselines from history") through the real
aorta binary: `sweep run` and `compare` judged against a baseline read from a history store.

The store's history is written from one real callgrind run of the cpu-hotspot payload (its
result.json copied per commit, with the Ir of `expensive` scaled where the history steps), so
every Ir is known exactly: commits c01..c06 at half the Ir of `expensive`, c07..c12 at the real
Ir (a step the detector must find at c07), three later commits of main on another card at twice
the Ir, and three commits of branch `feature` at three times the Ir. The gated runs are real
callgrind runs in a throwaway git repository (branch `main`), so the commit under test is git's.

  - the baseline is c07..c12 (since the change), on no card (the run names none), and passes;
  - --history-commits 2 takes c11..c12;
  - +10% work fails, printing `aorta bisect --good c12 --bad <HEAD> --output bisect-hotspot --build BUILD ...`;
  - history:feature takes that branch's trials (and so fails);
  - an unknown branch, a test the store lacks, a missing store are failures (exit 1) naming the
    store, branch and test; `history:` and `history:-x` and a detached HEAD are usage errors (64);
  - `compare history:main NEW` judges the same way, with --json naming the commits;
  - a store whose newest run's tool versions are not JSON is refused naming the store.
With --store URL the same runs read a PostgreSQL store (tests/history/postgresql_cli_test.py).
"""
import argparse
import copy
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

EXPENSIVE = "callgrind_ir.expensive(unsigned long, unsigned long, unsigned long)"


def run(argv, cwd=None, expect=None):
    done = subprocess.run([str(a) for a in argv], capture_output=True, text=True, cwd=cwd)
    if expect is not None and done.returncode != expect:
        sys.exit(f"FAIL: {' '.join(map(str, argv))} exited {done.returncode}, expected {expect}:\n"
                 f"{done.stdout}{done.stderr}")
    return done


def expect_words(done, words, what):
    text = done.stdout + done.stderr
    for word in words:
        if word not in text:
            sys.exit(f"FAIL: {what}: '{word}' not in the output:\n{text}")


def write_history(options, work, template, store):
    """Writes one commit's copy of the template run per (commit, branch, card, scale) and adds it."""
    plan = [(f"c{i:02d}", "main", None, 0.5) for i in range(1, 7)]
    plan += [(f"c{i:02d}", "main", None, 1.0) for i in range(7, 13)]
    plan += [(f"g{i:02d}", "main", "GPU-other", 2.0) for i in range(1, 4)]
    plan += [(f"f{i:02d}", "feature", None, 3.0) for i in range(1, 4)]
    for hour, (commit, branch, card, scale) in enumerate(plan):
        record = copy.deepcopy(template)
        record["metrics"][EXPENSIVE] = int(record["metrics"][EXPENSIVE] * scale)
        record["started_at"] = f"2026-12-01T{hour:02d}:00:00Z"
        if card:
            record["versions"]["gpu_uuid"] = card
            record["versions"]["gpu"] = "NVIDIA H100, 580.1"
        trial = work / "history" / commit / "hotspot" / "trial_0"
        trial.mkdir(parents=True)
        (trial / "result.json").write_text(json.dumps(record))
        run([options.aorta, "history", "add", trial.parent, "--commit", commit, "--branch", branch,
             "--time", f"2026-12-01T{hour:02d}:00:00Z", "--history", store], expect=0)


def sweep(options, repo, output, elements, *extra, expect=0):
    return run([options.aorta, "sweep", "run", "--recipe", options.recipe, "--output", output,
                *extra, "--", options.payload, elements, 32], cwd=repo, expect=expect)


def gate_json(output):
    return json.loads((Path(output) / "gate.json").read_text())


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--aorta", required=True)
    parser.add_argument("--payload", required=True, help="the cpu-hotspot example's executable")
    parser.add_argument("--recipe", required=True, help="its recipe.yaml")
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--store", help="a postgresql:// URL (default: an SQLite file)")
    options = parser.parse_args()
    work = Path(options.workdir).resolve()
    shutil.rmtree(work, ignore_errors=True)
    repo = work / "repo"
    repo.mkdir(parents=True)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", repo]
    run(["git", "init", "-q", "-b", "main", repo], expect=0)
    (repo / "a").write_text("a\n")
    run([*git, "add", "a"], expect=0)
    run([*git, "commit", "-q", "-m", "a"], expect=0)
    head = run([*git, "rev-parse", "HEAD"], expect=0).stdout.strip()
    store = options.store or str(work / "store.sqlite")
    hist = ["--history", store]

    sweep(options, repo, work / "template" / "hotspot", 8192)
    template = json.loads((work / "template/hotspot/trial_0/result.json").read_text())
    write_history(options, work, template, store)

    same = work / "same" / "hotspot"
    done = sweep(options, repo, same, 8192, "--baseline", "history:main", *hist)
    expect_words(done, ["branch main: 6 commit(s) c07..c12 (since the change at c07",
                        "aorta: gate passed"], "the baseline since the change")
    notes = gate_json(same)["test_verdict"]["notes"]
    if not any(n.startswith("gate baseline: history ") and "c07..c12" in n for n in notes):
        sys.exit(f"FAIL: the gate's notes of the last trial do not name the history baseline: "
                 f"{notes}")
    record = gate_json(same)["history"]
    if (record["first_commit"], record["last_commit"], record["commits"], record["card"],
            record["since_change"]) != ("c07", "c12", 6, "", "c07"):
        sys.exit(f"FAIL: gate.json's history is {record}")

    newest = work / "newest" / "hotspot"
    done = sweep(options, repo, newest, 8192, "--baseline", "history:main", "--history-commits",
                 "2", *hist)
    expect_words(done, ["2 commit(s) c11..c12"], "--history-commits 2")

    slow = work / "slow" / "hotspot"
    done = sweep(options, repo, slow, 9011, "--baseline", "history", *hist, expect=1)
    hint = (f"aorta bisect --good c12 --bad {head} --output bisect-hotspot --build BUILD "
            "--recipe RECIPE -- COMMAND")
    expect_words(done, ["aorta: gate FAILED", hint], "+10% work against history")
    if gate_json(slow)["history"].get("bisect") != hint:
        sys.exit(f"FAIL: gate.json's bisect is not '{hint}'")

    done = sweep(options, repo, work / "feature" / "hotspot", 8192, "--baseline",
                 "history:feature", *hist, expect=1)
    expect_words(done, ["branch feature: 3 commit(s) f01..f03", "gate FAILED"], "history:feature")

    described = store if not options.store else "postgresql://"
    done = sweep(options, repo, work / "nosuch" / "hotspot", 8192, "--baseline", "history:nosuch",
                 *hist, expect=1)
    expect_words(done, ["test 'hotspot' on branch 'nosuch'", described,
                        "on other branches only (feature, main)"], "an unknown branch")
    # The gate's verdict is in gate.json; the trial's result.json keeps the trial's own (issue 40).
    turned = gate_json(work / "nosuch" / "hotspot")["test_verdict"]["turned_to"]
    if turned != "fail":
        sys.exit(f"FAIL: the unknown branch's gate verdict of the last trial is {turned}, not fail")
    done = sweep(options, repo, work / "other" / "elsewhere", 8192, "--baseline", "history:main",
                 *hist, expect=1)
    expect_words(done, ["test 'elsewhere'", "holds no measured trial of the test"], "unknown test")
    if not options.store:
        done = sweep(options, repo, work / "nostore" / "hotspot", 8192, "--baseline",
                     "history:main", "--history", work / "absent.sqlite", expect=1)
        expect_words(done, ["absent.sqlite does not exist"], "a missing store")
    for bad in ["history:", "history:-x"]:
        done = sweep(options, repo, work / "usage" / "hotspot", 8192, "--baseline", bad, *hist,
                     expect=64)
        expect_words(done, ["must be 1 to 256 printable characters"], bad)
    run([*git, "checkout", "-q", "--detach"], expect=0)
    done = sweep(options, repo, work / "detached" / "hotspot", 8192, "--baseline", "history",
                 *hist, expect=64)
    expect_words(done, ["--baseline history:BRANCH"], "a detached HEAD")

    done = run([options.aorta, "compare", "history:main", slow, *hist], cwd=repo, expect=1)
    expect_words(done, ["REGRESSED", "hotspot: baseline from history", "c07..c12",
                        f"aorta bisect --good c12 --bad {head}"], "compare history:main")
    done = run([options.aorta, "compare", "history:main", same, *hist, "--json"], cwd=repo,
               expect=0)
    history = json.loads(done.stdout)["history"]["hotspot"]
    if (history["first_commit"], history["last_commit"]) != ("c07", "c12"):
        sys.exit(f"FAIL: compare --json's history is {history}")
    if not options.store:
        damaged_store(options, repo, work, store, same)
    print("history baseline: since the change, capped, per branch and card; failures named; "
          "compare agrees")


def damaged_store(options, repo, work, store, same):
    """A store whose newest run's tool versions are not JSON (written behind aorta's back) is
    refused naming the store, never read as an empty fingerprint."""
    damaged = work / "damaged.sqlite"
    shutil.copy(store, damaged)
    db = sqlite3.connect(damaged)
    db.execute("INSERT INTO runs (run_key, test, commit_id, branch, time, time_unix, card_uuid, "
               "card_model, card_driver, tool_versions, recipe_path, recipe_digest, "
               "aorta_version, source, added_at) SELECT 'damaged', test, 'c99', branch, time, "
               "time_unix + 86400, card_uuid, card_model, card_driver, '{not json', recipe_path, "
               "recipe_digest, aorta_version, source, added_at FROM runs WHERE commit_id = 'c12'")
    run_id = db.execute("SELECT id FROM runs WHERE run_key = 'damaged'").fetchone()[0]
    db.execute("INSERT INTO trials SELECT ?, trial_index, verdict, measured, started_at FROM "
               "trials WHERE run = (SELECT id FROM runs WHERE commit_id = 'c12')", (run_id,))
    db.execute("INSERT INTO samples SELECT quantity, ?, trial_index, value FROM samples WHERE "
               "run = (SELECT id FROM runs WHERE commit_id = 'c12')", (run_id,))
    db.commit()
    db.close()
    done = run([options.aorta, "compare", "history:main", same, "--history", damaged], cwd=repo,
               expect=1)
    expect_words(done, [str(damaged), "the store is damaged"], "a damaged store")


if __name__ == "__main__":
    main()
