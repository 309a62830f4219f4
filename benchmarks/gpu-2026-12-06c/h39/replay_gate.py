#!/usr/bin/env python3
"""Judges recorded GPU processes (pool.jsonl of h39.sh) through the regression gate, offline.

The cells phase of h39.sh ran rounds of three processes on one GPU: base (K=2240), twin (K=2240)
and head (K=2464, +10% work); pool.jsonl has each process's per-launch CUDA-event times and its
trial path (`out`). Each window of TRIALS rounds gives one unchanged gate (base trials as the
baseline, twin trials as the new run) and one +10% gate (base against head): each side is an
`aorta sweep run` whose payload (replay_trial.py) writes the recorded launches as Google
Benchmark JSON, and `aorta compare BASE_OUT NEW_OUT --json` judges them (default gate, `time
+5%`). Every process is used once.

usage: replay_gate.py AORTA POOL_JSONL OUT_JSON [--trials 5]
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def gbench(times_us):
    rows = [{"name": "BM_gemm_bf16/manual_time", "run_type": "iteration",
             "repetitions": len(times_us), "repetition_index": i, "threads": 1, "iterations": 1,
             "real_time": t, "cpu_time": t, "time_unit": "us"} for i, t in enumerate(times_us)]
    return {"context": {"num_cpus": 1, "mhz_per_cpu": 0, "json_schema_version": 1},
            "benchmarks": rows}


def side(aorta, work, name, processes):
    replay = os.path.join(work, "replay-" + name)
    os.makedirs(replay, exist_ok=True)
    for t, us in enumerate(processes):
        with open(os.path.join(replay, f"trial_{t}.json"), "w") as f:
            json.dump(gbench(us), f)
    recipe = os.path.join(work, "recipe.yaml")
    with open(recipe, "w") as f:
        f.write("schema_version: 1\nmode: probe\nticket: GPU-GATE-REPLAY\n"
                f"trials: {len(processes)}\ntimeout_per_trial: 60\ncollect: [gbench]\n")
    out = os.path.join(work, "out-" + name, "gemm")  # compare pairs tests by directory name
    subprocess.run([aorta, "sweep", "run", "--recipe", recipe, "--output", out, "--", sys.executable,
                    os.path.join(HERE, "replay_trial.py")], env=dict(os.environ, REPLAY_DIR=replay),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return out


def judge(aorta, work, kind, base, fresh):
    base_out = side(aorta, work, "base", base)
    new_out = side(aorta, work, "new", fresh)
    answer = subprocess.run([aorta, "compare", base_out, new_out, "--json"], capture_output=True,
                            text=True, check=False)
    if not answer.stdout.strip():
        raise SystemExit(f"compare said nothing: {answer.stderr[-2000:]}")
    rows = json.loads(answer.stdout)["rows"]
    row = next(r for r in rows if r["quantity"].startswith("time_ms("))
    subprocess.run(["rm", "-rf", work + "/replay-base", work + "/replay-new", work + "/out-base",
                    work + "/out-new"], check=True)
    return {"kind": kind, "verdict": row["verdict"], "delta": row["delta"],
            "p_value": row["p_value"], "multimodal": "modes" in row, "evidence": row["evidence"]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("aorta")
    parser.add_argument("pool")
    parser.add_argument("out")
    parser.add_argument("--trials", type=int, default=5)
    args = parser.parse_args()
    by_round = collections.defaultdict(dict)
    for line in open(args.pool):
        rec = json.loads(line)
        found = re.search(r"/(base|twin|head)/trial_(\d+)/", rec.get("out", ""))
        if rec.get("phase") == "cells" and found:
            by_round[int(found.group(2))][found.group(1)] = rec["us"]
    rounds = [by_round[r] for r in sorted(by_round) if len(by_round[r]) == 3]
    windows = [rounds[i:i + args.trials] for i in range(0, len(rounds) - args.trials + 1, args.trials)]
    results = []
    with tempfile.TemporaryDirectory() as work:
        for w, window in enumerate(windows):
            for kind, other in (("aa", "twin"), ("ten", "head")):
                result = judge(args.aorta, work, kind, [r["base"] for r in window],
                               [r[other] for r in window])
                result["window"] = w
                results.append(result)
                print(json.dumps(result), flush=True)
    summary = {k: {"gates": sum(r["kind"] == k for r in results),
                   "slower": sum(r["kind"] == k and r["verdict"] == "SLOWER" for r in results),
                   "multimodal": sum(r["kind"] == k and r["multimodal"] for r in results)}
               for k in ("aa", "ten")}
    print(json.dumps(summary))
    with open(args.out, "w") as f:
        json.dump({"trials": args.trials, "rounds": len(rounds), "summary": summary,
                   "gates": results}, f, indent=1)


if __name__ == "__main__":
    main()
