"""Issue 39's GPU goal, round four: a ~25 us GEMM timed by Proton's trace, in processes that fall
into timing modes, run by aorta's proton collector (mode: env).

Two sources of the GEMM, chosen by $H39_SOURCE:
- natural: the issue's payload: 30 bf16 GEMMs of 8192^2, then $H39_LAUNCHES launches of a
  2048 x 2048 x K bf16 torch GEMM (cuBLAS). Whether its processes show modes in kernel time is
  what the mode check measures.
- tiles: a Triton GEMM (the tutorial's grouped matmul) whose tile configuration each process draws
  at random: $H39_TILES_FAST with odds 1 - $H39_SLOW_ODDS, else $H39_TILES_SLOW (each
  "BM,BN,BK,warps,stages"). That is what an autotuner does when two configurations tie where it
  measures them (a near-tie broken by noise, a cache of results that differs per host): the same
  kernel name, two speeds, one per process. The modes are induced by the draw, on purpose.
K comes from $GEMM_K (cells differ by it).

Runs in parallel with other processes of the same experiment: everything that launches GPU work
(from the first tensor to proton.finalize) holds an exclusive lock on
$H39_GPU_LOCK, so no two processes ever share the GPU while measuring; imports and context
creation run outside it. One JSON line per process goes to $H39_POOL: source, K, tiles drawn,
seconds waited for and held the lock.
"""
import fcntl
import json
import os
import random
import sys
import time

import torch

ENVIRONMENT_EXIT = 2  # the recipe's environment exit code: this host cannot run the payload


def tile_config(text):
    bm, bn, bk, warps, stages = (int(v) for v in text.split(","))
    return {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "num_warps": warps, "num_stages": stages}


def draw_tiles():
    slow = random.SystemRandom().random() < float(os.environ.get("H39_SLOW_ODDS", "0.5"))
    name = "slow" if slow else "fast"
    return name, os.environ["H39_TILES_SLOW" if slow else "H39_TILES_FAST"]


def take_gpu_lock():
    path = os.environ.get("H39_GPU_LOCK", "")
    if not path:
        return None, 0.0
    handle = os.open(path, os.O_CREAT | os.O_RDWR, 0o644)
    started = time.perf_counter()
    fcntl.flock(handle, fcntl.LOCK_EX)
    return handle, time.perf_counter() - started


def proton_session():
    """The session aorta asks for (mode: env), or $H39_PROTON outside aorta, or none."""
    name = os.environ.get("AORTA_PROTON_NAME") or os.environ.get("H39_PROTON", "")
    if not name:
        return None
    import triton.profiler as proton
    proton.start(name, context=os.environ.get("AORTA_PROTON_CONTEXT", "shadow"),
                 data=os.environ.get("AORTA_PROTON_DATA", "trace"))
    return proton


def natural_gemm(k):
    dev = torch.device("cuda")
    torch.manual_seed(0)
    big = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)
    for _ in range(int(os.environ.get("H39_HEAVY", "30"))):
        big = (big @ big).clamp_(-1, 1)
    a = torch.randn(2048, k, device=dev, dtype=torch.bfloat16)
    b = torch.randn(k, 2048, device=dev, dtype=torch.bfloat16)
    return lambda: a @ b


def tiles_gemm(k, config):
    from tiles_kernel import launch_matmul
    dev = torch.device("cuda")
    torch.manual_seed(0)
    a = torch.randn(2048, k, device=dev, dtype=torch.bfloat16)
    b = torch.randn(k, 2048, device=dev, dtype=torch.bfloat16)
    c = torch.empty(2048, 2048, device=dev, dtype=torch.bfloat16)
    launch_matmul(a, b, c, config)  # compiles or loads the kernel before the session starts
    torch.cuda.synchronize()
    return lambda: launch_matmul(a, b, c, config)


def main():
    if not torch.cuda.is_available():
        print("modes_proton: no CUDA device", file=sys.stderr)
        return ENVIRONMENT_EXIT
    source = os.environ.get("H39_SOURCE", "natural")
    k = int(os.environ.get("GEMM_K", "2240"))
    launches = int(os.environ.get("H39_LAUNCHES", "20"))
    tiles_name, tiles = draw_tiles() if source == "tiles" else ("", "")
    torch.empty(1, device="cuda")  # the context, outside the lock
    lock, waited = take_gpu_lock()
    held_from = time.perf_counter()
    if source == "tiles":
        gemm = tiles_gemm(k, tile_config(tiles))
    else:
        gemm = natural_gemm(k)
    proton = proton_session()
    for _ in range(launches):
        gemm()
    torch.cuda.synchronize()
    if proton is not None:
        proton.finalize(output_format=os.environ.get("AORTA_PROTON_FORMAT", "") or "chrome_trace")
    held = time.perf_counter() - held_from
    pool = os.environ.get("H39_POOL", "")
    if pool:
        line = {"source": source, "k": k, "tiles": tiles_name, "config": tiles,
                "cell": os.environ.get("H39_CELL", ""), "waited_s": round(waited, 3),
                "held_s": round(held, 3), "trial": os.environ.get("AORTA_PROTON_NAME", "")}
        with open(pool, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(line) + "\n")
    if lock is not None:
        os.close(lock)  # the context's teardown needs no lock: it launches no kernel
    return 0


if __name__ == "__main__":
    sys.exit(main())
