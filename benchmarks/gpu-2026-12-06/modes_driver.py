"""Runs modes_payload.py in --processes processes per arm, arms interleaved in a seeded shuffled
order (one process at a time on the one GPU), and writes every process's per-launch times."""
import argparse
import json
import random
import subprocess
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--processes", type=int, default=30)
parser.add_argument("--arms", default="2240,2240,2464")  # A, A' (A/A) and +10% K
parser.add_argument("--seed", type=int, default=15)
parser.add_argument("--out", required=True)
args = parser.parse_args()
arms = [int(k) for k in args.arms.split(",")]
order = [(arm, k) for arm, k in enumerate(arms) for _ in range(args.processes)]
random.Random(args.seed).shuffle(order)
records = []
t0 = time.time()
for position, (arm, k) in enumerate(order):
    run = subprocess.run([sys.executable, __file__.replace("modes_driver", "modes_payload"),
                          "--k", str(k), "--seed", str(position)],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        print(run.stderr[-2000:], file=sys.stderr)
        continue
    line = json.loads(run.stdout.strip().splitlines()[-1])
    records.append({"position": position, "arm": arm, "k": k, "times_us": line["times_us"]})
with open(args.out, "w", encoding="utf-8") as handle:
    json.dump({"gpu": __import__("torch").cuda.get_device_name(0), "seed": args.seed,
               "arms": arms, "processes_per_arm": args.processes,
               "seconds": round(time.time() - t0, 1), "records": records}, handle)
print(f"modes: {len(records)} processes in {time.time() - t0:.0f} s")
