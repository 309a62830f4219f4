"""The issue-39 payload that showed per-process modes on an H100 (benchmarks/gpu-2026-12-06,
modes_payload.py), as a Google Benchmark program for aorta's gbench collector.

30 large bf16 GEMMs, then --launches launches of a 2048 x 2048 x K bf16 GEMM, each timed by its own
pair of CUDA events: one repetition a launch in the JSON written to --benchmark_out (aorta's warm-up
rule then drops the slow first launches). K comes from $GEMM_K or --k, so cells can differ by env.

Besides the timing it records what could explain a mode (written as one JSON line appended to
$H39_POOL when set): whether the stream had drained before the timed loop (the heavy work
finished), and the host time of each loop iteration. With $H39_PROTON set to a path, the timed
launches also run under Proton (data=trace), whose chrome trace gives the kernels' own durations.
"""
import argparse
import json
import os
import sys
import time

import torch


def parse():
    parser = argparse.ArgumentParser()
    parser.add_argument("--m", type=int, default=2048)
    parser.add_argument("--n", type=int, default=2048)
    parser.add_argument("--k", type=int, default=int(os.environ.get("GEMM_K", "2240")))
    parser.add_argument("--launches", type=int, default=20)
    parser.add_argument("--heavy", type=int, default=30)
    parser.add_argument("--phase", default=os.environ.get("H39_PHASE", "cells"))
    parser.add_argument("--benchmark_out", default="")
    parser.add_argument("--benchmark_out_format", default="json")
    return parser.parse_args()


def write_gbench(path, args, times_us):
    runs = [{"name": "BM_gemm_bf16/manual_time", "family_index": 0,
             "per_family_instance_index": 0, "run_name": "BM_gemm_bf16/manual_time",
             "run_type": "iteration", "repetitions": len(times_us), "repetition_index": i,
             "threads": 1, "iterations": 1, "real_time": t, "cpu_time": t, "time_unit": "us"}
            for i, t in enumerate(times_us)]
    context = {"executable": "modes_torch.py", "num_cpus": os.cpu_count(), "mhz_per_cpu": 0,
               "library_build_type": "release", "json_schema_version": 1,
               "gemm": f"{args.m}x{args.n}x{args.k} bf16"}
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"context": context, "benchmarks": runs}, handle)


def main():
    args = parse()
    started = time.time()
    torch.manual_seed(0)
    dev = torch.device("cuda")
    big = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)
    for _ in range(args.heavy):
        big = (big @ big).clamp_(-1, 1)
    a = torch.randn(args.m, args.k, device=dev, dtype=torch.bfloat16)
    b = torch.randn(args.k, args.n, device=dev, dtype=torch.bfloat16)
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(args.launches)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(args.launches)]
    proton_path = os.environ.get("H39_PROTON", "")
    if proton_path:
        import triton.profiler as proton
        proton.start(proton_path, data="trace")
    drained_before = torch.cuda.current_stream().query()
    host_us = []
    for i in range(args.launches):
        t0 = time.perf_counter()
        starts[i].record()
        c = a @ b
        ends[i].record()
        host_us.append((time.perf_counter() - t0) * 1e6)
    torch.cuda.synchronize()
    if proton_path:
        proton.finalize(output_format="chrome_trace")
    times = [s.elapsed_time(e) * 1000.0 for s, e in zip(starts, ends)]
    if args.benchmark_out:
        write_gbench(args.benchmark_out, args, times)
    pool = os.environ.get("H39_POOL", "")
    if pool:
        line = {"phase": args.phase, "k": args.k, "us": [round(t, 3) for t in times],
                "host_us": [round(t, 1) for t in host_us], "drained_before": drained_before,
                "process_s": round(time.time() - started, 2), "out": args.benchmark_out,
                "check": float(c.float().abs().sum())}
        with open(pool, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(line) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
