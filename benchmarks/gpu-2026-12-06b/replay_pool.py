#!/usr/bin/env python3
"""Judges real GPU processes (pool.jsonl from run.sh) through `aorta sweep run`, offline.

The pool holds rounds of three processes run in a shuffled order on one GPU: base (K=2240), twin
(K=2240) and head (K=2464, +10% work). Each window of TRIALS consecutive rounds is one cells run:
A/A = (base, twin), +10% = (base, head). Each trial's payload (replay_payload.py) copies the
recorded process's per-launch times, written as Google Benchmark JSON, so aorta reads them with
its gbench reader (warm-up rule included) and judges them with its confound judge.

usage: replay_pool.py AORTA POOL_JSONL OUT_JSON [--trials 10] [--threshold 1.05]
"""
import argparse
import collections
import json
import os
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


def run_window(aorta, work, kind, rounds, trials, threshold, seed):
    replay = os.path.join(work, "replay")
    for cell, source in (("base", "base"), ("head", "twin" if kind == "aa" else "head")):
        os.makedirs(os.path.join(replay, cell), exist_ok=True)
        for t, rnd in enumerate(rounds):
            with open(os.path.join(replay, cell, f"trial_{t}.json"), "w") as f:
                json.dump(gbench(rnd[source]), f)
    recipe = os.path.join(work, "recipe.yaml")
    with open(recipe, "w") as f:
        f.write("schema_version: 1\nmode: probe\nticket: GPU-POOL-REPLAY\n"
                f"trials: {trials}\ntimeout_per_trial: 60\ncollect: [gbench]\n"
                "mitigations:\n  base: {env: {REPLAY_CELL: base}}\n  head: {env: {REPLAY_CELL: head}}\n"
                "mitigation_axis: [base, head]\n"
                f"confound: {{baseline_cell: base, threshold: {threshold}}}\n")
    out = os.path.join(work, "out")
    env = dict(os.environ, REPLAY_DIR=replay)
    subprocess.run([aorta, "sweep", "run", "--recipe", recipe, "--output", out, "--seed", str(seed),
                    "--", sys.executable, os.path.join(HERE, "replay_payload.py")],
                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    with open(os.path.join(out, "matrix.json")) as f:
        rows = json.load(f)["confound"]["rows"]
    row = next(r for r in rows if r["quantity"].startswith("time_ms("))
    subprocess.run(["rm", "-rf", replay, out], check=True)
    return {"kind": kind, "verdict": row["verdict"], "ratio": row["ratio"],
            "p_value": row["p_value"], "multimodal": row["modes"] is not None,
            "evidence": row["evidence"]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("aorta")
    parser.add_argument("pool")
    parser.add_argument("out")
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--threshold", type=float, default=1.05)
    args = parser.parse_args()
    by_round = collections.defaultdict(dict)
    for line in open(args.pool):
        rec = json.loads(line)
        if rec.get("phase") == "pool":
            by_round[rec["round"]][rec["cell"]] = rec["us"]
    rounds = [by_round[r] for r in sorted(by_round) if len(by_round[r]) == 3]
    windows = [rounds[i:i + args.trials] for i in range(0, len(rounds) - args.trials + 1, args.trials)]
    results = []
    with tempfile.TemporaryDirectory() as work:
        for w, window in enumerate(windows):
            for kind in ("aa", "ten"):
                result = run_window(args.aorta, work, kind, window, args.trials, args.threshold, w)
                result["window"] = w
                results.append(result)
                print(json.dumps(result), flush=True)
    summary = {k: {"runs": sum(r["kind"] == k for r in results),
                   "slower": sum(r["kind"] == k and r["verdict"] == "SLOWER" for r in results),
                   "multimodal": sum(r["kind"] == k and r["multimodal"] for r in results)}
               for k in ("aa", "ten")}
    print(json.dumps(summary))
    with open(args.out, "w") as f:
        json.dump({"trials": args.trials, "rounds": len(rounds), "summary": summary,
                   "runs": results}, f, indent=1)


if __name__ == "__main__":
    main()
