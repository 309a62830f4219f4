#!/usr/bin/env python3
"""End-to-end cases of `aorta bisect` (issue 42) on synthetic git repositories of a small C++
payload, built with g++ -O0 and measured under callgrind (exact Ir, one round a step).

    bisect_cases.py --aorta PATH --work DIR CASE

The repository has COMMITS commits; commit CULPRIT_INDEX (one of them, by its subject) triples
the loop of hot_loop(), every other commit changes only a comment. Exit 0 = pass, 77 = skipped
(git, g++ or valgrind missing), else failure.
"""
import argparse
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

COMMITS = 32          # commit 0 is --good; 31 candidates after it
CULPRIT_INDEX = 21
PATIENCE = 120.0
# The build leaves what it was given, so the culprit case can check it.
BUILD = ('g++ -O0 -o payload payload.cpp && printf "%s\\n" "$AORTA_BISECT_COMMIT" "$PWD" '
         '"$CCACHE_BASEDIR" > build-env.txt')

PAYLOAD = """#include <cstdio>
#include "work.h"
// revision {revision}
volatile unsigned sink;
__attribute__((noinline)) void hot_loop(int n) {{ for (int i = 0; i < n; ++i) sink += i * 3; }}
__attribute__((noinline)) void steady(int n) {{ for (int i = 0; i < n; ++i) sink ^= i; }}
int main() {{ hot_loop(hot_work); steady(20000); std::printf("%u\\n", sink); return 0; }}
"""

RECIPE = """# callgrind only: exact Ir, one round a step.
schema_version: 1
collect: [callgrind]
"""


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def git(repo, *args, check=True):
    result = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True,
                            env={**os.environ, "LC_ALL": "C"})
    if check and result.returncode != 0:
        fail(f"git {' '.join(args)}: {result.stderr}")
    return result.stdout.strip()


def make_repo(path, culprit_index, commits=COMMITS):
    """A repository of `commits` commits; returns the list of full ids, oldest first."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.email", "bisect@example.invalid")
    git(path, "config", "user.name", "bisect test")
    ids = []
    for revision in range(commits):
        work = 60000 if culprit_index is not None and revision >= culprit_index else 20000
        with open(os.path.join(path, "payload.cpp"), "w") as f:
            f.write(PAYLOAD.format(revision=revision))
        with open(os.path.join(path, "work.h"), "w") as f:
            f.write(f"constexpr int hot_work = {work};\n")
        git(path, "add", "payload.cpp", "work.h")
        subject = (f"hot_loop does three times the work (revision {revision})"
                   if revision == culprit_index else f"revision {revision}: comment only")
        git(path, "commit", "-q", "-m", subject)
        ids.append(git(path, "rev-parse", "HEAD"))
    # The user's own state, which bisect must leave as it is: a branch, an untracked file, a
    # modified tracked file and a staged change.
    git(path, "branch", "feature", ids[5])
    with open(os.path.join(path, "untracked.txt"), "w") as f:
        f.write("mine\n")
    with open(os.path.join(path, "payload.cpp"), "a") as f:
        f.write("// local edit\n")
    with open(os.path.join(path, "staged.txt"), "w") as f:
        f.write("staged\n")
    git(path, "add", "staged.txt")
    return ids


def checkout_state(repo):
    return {
        "status": git(repo, "status", "--porcelain", "--untracked-files=all"),
        "refs": git(repo, "for-each-ref", "--format=%(refname) %(objectname)"),
        "head": git(repo, "rev-parse", "HEAD"),
        "symbolic": git(repo, "symbolic-ref", "HEAD"),
        "index": git(repo, "ls-files", "--stage"),
        "diff": git(repo, "diff"),
        "cached": git(repo, "diff", "--cached"),
    }


def bisect_argv(args, repo, out, good, bad, *extra):
    return [args.aorta, "bisect", "--repo", repo, "--good", good, "--bad", bad, "--build", BUILD,
            "--recipe", args.recipe, "--output", out, *extra, "--", "./payload"]


def run(argv, expect_rc, *expect_text):
    result = subprocess.run(argv, capture_output=True, text=True, timeout=PATIENCE)
    text = result.stdout + result.stderr
    print(text)
    if result.returncode != expect_rc:
        fail(f"exit {result.returncode}, expected {expect_rc}: {' '.join(argv)}")
    for wanted in expect_text:
        if wanted not in text:
            fail(f"output lacks {wanted!r}")
    return text


def read_record(out):
    with open(os.path.join(out, "bisect.json")) as f:
        record = json.load(f)
    if record.get("schema") != "aorta-bisect" or record.get("schema_version") != 1:
        fail(f"bisect.json has schema {record.get('schema')} {record.get('schema_version')}")
    return record


def check_builds_once(record):
    built = [b["commit"] for b in record["built"]]
    if len(built) != len(set(built)):
        fail(f"a commit was built twice: {built}")
    measured = [(s["commit"], s["base"]) for s in record["steps"]]
    if len(measured) != len(set(measured)):
        fail(f"a pair of commits was measured twice: {measured}")
    # The last step confirms the culprit against its own parent (docs/bisect.md, "Method").
    last = record["steps"][-1]
    if record["culprit"] and last["commit"] == record["culprit"]["commit"] and last["verdict"] != "BAD":
        fail(f"the culprit was named though its confirmation step is {last['verdict']}")


def check_culprit(record, ids, text, culprit_index=CULPRIT_INDEX):
    culprit = record["culprit"]
    if culprit is None or culprit["commit"] != ids[culprit_index]:
        fail(f"culprit {culprit}, expected {ids[culprit_index]}")
    if "three times the work" not in culprit["subject"]:
        fail(f"culprit subject {culprit['subject']!r}")
    if not any(row["quantity"].startswith("ir(hot_loop") and row["verdict"] == "SLOWER"
               for row in culprit["moved"]):
        fail(f"hot_loop's Ir is not among what moved: {culprit['moved']}")
    if f"culprit {ids[culprit_index]}" not in text:
        fail("the culprit's full id is not on screen")
    # The culprit step's cells sentence: hot_loop leads, with its share and "more work".
    summary = culprit.get("summary", "")
    if "hot_loop" not in summary or "more work" not in summary or "% of the change" not in summary:
        fail(f"the culprit's summary does not name hot_loop's share and more work: {summary!r}")
    if f"aorta: bisect: summary (good as base, culprit as head): {summary}" not in text:
        fail("the culprit's summary sentence is not on screen")
    candidates = len(ids) - 1
    limit = math.ceil(math.log2(candidates)) + 2
    if len(record["steps"]) > limit:
        fail(f"{len(record['steps'])} steps, more than ceil(log2 {candidates}) + 2 = {limit}")
    print(f"culprit found in {len(record['steps'])} steps (limit {limit}), "
          f"{len(record['built'])} builds")


def case_culprit(args):
    repo, out = os.path.join(args.work, "repo"), os.path.join(args.work, "out")
    ids = make_repo(repo, CULPRIT_INDEX)
    shutil.rmtree(out, ignore_errors=True)
    before = checkout_state(repo)
    text = run(bisect_argv(args, repo, out, ids[0], "main"), 0, "aorta: bisect: culprit")
    record = read_record(out)
    check_culprit(record, ids, text)
    check_builds_once(record)
    # Each build ran in its commit's worktree, told its id and ccache's base directory.
    for build in record["built"]:
        worktree = os.path.join(out, "worktrees", build["commit"])
        with open(os.path.join(worktree, "build-env.txt")) as f:
            told = f.read().split("\n")
        if told[:3] != [build["commit"], worktree, os.path.join(out, "worktrees")]:
            fail(f"the build of {build['commit']} was told {told}")
    for page in ("bisect.html", "bisect.md"):
        with open(os.path.join(out, page)) as f:
            if ids[CULPRIT_INDEX] not in f.read():
                fail(f"{page} does not name the culprit")
    after = checkout_state(repo)
    for key in before:
        if before[key] != after[key]:
            fail(f"the user's checkout changed: {key}\nbefore: {before[key]}\nafter: {after[key]}")
    # --quantity watches only the rows named: steady() did not move, so nothing is blamed.
    narrowed = os.path.join(args.work, "out-steady")
    shutil.rmtree(narrowed, ignore_errors=True)
    run(bisect_argv(args, repo, narrowed, ids[0], "main", "--quantity", "ir(steady(int))"), 1,
        "does not reproduce the regression", "ir(steady(int))")
    # A finished bisect run again answers from bisect.json: nothing built or measured again.
    run(bisect_argv(args, repo, out, ids[0], "main"), 0, "resuming", "aorta: bisect: culprit")
    again = read_record(out)
    if len(again["built"]) != len(record["built"]) or len(again["steps"]) != len(record["steps"]):
        fail("the rerun built or measured again")


def case_not_reproduced(args):
    repo, out = os.path.join(args.work, "repo"), os.path.join(args.work, "out")
    ids = make_repo(repo, None)
    shutil.rmtree(out, ignore_errors=True)
    run(bisect_argv(args, repo, out, ids[0], ids[-1]), 1,
        "does not reproduce the regression", "nothing blamed")
    record = read_record(out)
    if record["culprit"] is not None or record["status"] != "not reproduced":
        fail(f"status {record['status']}, culprit {record['culprit']}")
    if len(record["steps"]) != 1 or record["steps"][0]["verdict"] != "GOOD":
        fail(f"steps {record['steps']}")


def case_interrupted(args, signal_number, expect_rc):
    # A shorter history than the other cases: the signal comes after two steps, and the resumed
    # bisect needs only a few more to end.
    repo, out = os.path.join(args.work, "repo"), os.path.join(args.work, "out")
    ids = make_repo(repo, 9, commits=14)
    shutil.rmtree(out, ignore_errors=True)
    argv = bisect_argv(args, repo, out, ids[0], "main")
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    record_file = os.path.join(out, "bisect.json")
    give_up = time.monotonic() + PATIENCE

    def steps_done():
        try:
            with open(record_file) as f:
                return len(json.load(f)["steps"])
        except (OSError, ValueError, KeyError):
            return 0
    while steps_done() < 2:
        if time.monotonic() > give_up or process.poll() is not None:
            process.kill()
            fail(f"no second step recorded: {process.communicate()[0]}")
        time.sleep(0.05)
    process.send_signal(signal_number)
    text = process.communicate(timeout=PATIENCE)[0]
    print(text)
    if process.returncode != expect_rc:
        fail(f"interrupted bisect exited {process.returncode}, expected {expect_rc}")
    first = read_record(out)
    if first["status"] != "interrupted" or first["culprit"] is not None:
        fail(f"after the signal: status {first['status']}, culprit {first['culprit']}")
    leftover = subprocess.run(["pgrep", "-f", out], capture_output=True, text=True).stdout.split()
    leftover = [pid for pid in leftover if int(pid) != os.getpid()]
    if leftover:
        fail(f"processes left running under {out}: {leftover}")
    text = run(argv, 0, "resuming", "aorta: bisect: culprit")
    record = read_record(out)
    check_culprit(record, ids, text, culprit_index=9)
    check_builds_once(record)
    if record["steps"][:len(first["steps"])] != first["steps"]:
        fail("the resumed bisect changed the steps recorded before the signal")


def case_hostile(args):
    repo, out = os.path.join(args.work, "repo"), os.path.join(args.work, "out")
    ids = make_repo(repo, CULPRIT_INDEX)
    shutil.rmtree(out, ignore_errors=True)
    before = checkout_state(repo)
    not_a_repo = tempfile.mkdtemp(prefix="aorta-bisect-not-a-repo-")
    gated = os.path.join(args.work, "gated.yaml")
    with open(gated, "w") as f:
        f.write(RECIPE + "gate: ir exact\n")
    refusals = [
        (bisect_argv(args, repo, out, "no-such-rev", "main"), ["names no commit", "Fix:"]),
        (bisect_argv(args, repo, out, "--help", "main"), ["is not a revision", "Fix:"]),
        (bisect_argv(args, repo, out, "main", ids[0]), ["is not an ancestor", "Fix:"]),
        (bisect_argv(args, repo, out, "main", "main"), ["the same commit", "Fix:"]),
        (bisect_argv(args, repo, os.path.join(repo, "bisect-out"), ids[0], "main"),
         ["inside the work tree", "Fix:"]),
        (bisect_argv(args, os.path.join(args.work, "no-such-repo"), out, ids[0], "main"),
         ["no such directory", "Fix:"]),
        (bisect_argv(args, not_a_repo, out, ids[0], "main"), ["not a git work tree", "Fix:"]),
        (bisect_argv(args, repo, out, ids[0], "main", "--gate", "alpha 0.05"),
         ["names no quantity kind", "Fix:"]),
        (bisect_argv(args, repo, out, ids[0], "main")[:-2], ["no COMMAND after '--'", "Fix:"]),
        ([gated if word == args.recipe else word
          for word in bisect_argv(args, repo, out, ids[0], "main")], ["has a gate:", "Fix:"]),
    ]
    for argv, wanted in refusals:
        run(argv, 64, *wanted)
        if os.path.exists(out) or os.path.exists(os.path.join(repo, "bisect-out")):
            fail(f"a refused bisect wrote its directory: {' '.join(argv)}")
    if checkout_state(repo) != before:
        fail("a refused bisect changed the user's checkout")
    shutil.rmtree(not_a_repo)
    if git(repo, "worktree", "list").count("\n") != 0:
        fail(f"a refused bisect added a worktree: {git(repo, 'worktree', 'list')}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--aorta", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("case")
    args = parser.parse_args()
    for tool in ("git", "g++", "valgrind"):
        if shutil.which(tool) is None:
            print(f"skipped: {tool} is not installed")
            sys.exit(77)
    # bisect sets ccache's base directory only where the user has not: this test checks its own.
    os.environ.pop("CCACHE_BASEDIR", None)
    args.work = os.path.abspath(os.path.join(args.work, args.case))
    os.makedirs(args.work, exist_ok=True)
    args.recipe = os.path.join(args.work, "callgrind.yaml")
    with open(args.recipe, "w") as f:
        f.write(RECIPE)
    cases = {
        "culprit_and_checkout_untouched": case_culprit,
        "ends_do_not_differ": case_not_reproduced,
        "sigint_then_resume": lambda a: case_interrupted(a, signal.SIGINT, 130),
        "sigterm_then_resume": lambda a: case_interrupted(a, signal.SIGTERM, 143),
        "hostile_inputs": case_hostile,
    }
    cases[args.case](args)
    print("PASS")


if __name__ == "__main__":
    main()
