"""Per-launch CUDA-event times of one bf16 GEMM after heavy work, one process per call.

Round 15, issue 39 item 9 (multi-modal timing across processes): 30 large bf16 GEMMs, then
--launches launches of an M x N x K bf16 GEMM, each timed by its own pair of CUDA events. Prints
one JSON line: {"k": K, "times_us": [...]} so a driver can collect many processes' samples.
"""
import argparse
import json
import sys

import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--m", type=int, default=2048)
    parser.add_argument("--n", type=int, default=2048)
    parser.add_argument("--k", type=int, default=2240)
    parser.add_argument("--launches", type=int, default=20)
    parser.add_argument("--heavy", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    dev = torch.device("cuda")
    big = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)
    for _ in range(args.heavy):
        big = (big @ big).clamp_(-1, 1)
    a = torch.randn(args.m, args.k, device=dev, dtype=torch.bfloat16)
    b = torch.randn(args.k, args.n, device=dev, dtype=torch.bfloat16)
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(args.launches)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(args.launches)]
    for i in range(args.launches):
        starts[i].record()
        c = a @ b
        ends[i].record()
    torch.cuda.synchronize()
    times = [s.elapsed_time(e) * 1000.0 for s, e in zip(starts, ends)]
    print(json.dumps({"k": args.k, "times_us": times, "check": float(c.float().abs().sum())}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
