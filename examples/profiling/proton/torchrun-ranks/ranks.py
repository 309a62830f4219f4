"""Per-rank Triton work under torchrun: rank r launches add_kernel (r + 1) * --launches times.

Started by `torchrun --nproc-per-node 2 ranks.py`, rank 0 makes --launches launches and rank 1
twice as many, so a per-rank capture has exact answers (10 and 20 by default) and the ranks'
imbalance is exactly 2. --heavy-rank R doubles rank R's share again: the imbalance check then
fails. By default every rank uses GPU 0 (no NCCL, no process group): per-rank capture needs
neither. --gpu-per-rank puts rank r on GPU LOCAL_RANK, and --allreduce then also sums every rank's
result over NCCL (torch.distributed) and checks the sum, as a real data-parallel job would.

Profiling: under aorta's `proton: {mode: env}` the payload starts Proton itself from the
AORTA_PROTON_* variables, which `aorta rank-exec` has already made per-rank; under `mode: cli` and
ncu it runs unprofiled code and the profiler wraps it.

Exit codes: 0 PASS, 1 wrong result, 2 this environment cannot run it (no torch/triton, no GPU),
64 usage error.
"""

import argparse
import os
import sys

try:
    # Proton before torch, always: on Triton 3.8.0 the reverse order hangs the process at exit.
    import triton.profiler as proton  # isort: skip  # noqa: I001
    import triton
    import triton.language as tl
    import torch
except ImportError as exc:
    print(f"ranks: cannot import {exc.name!r} ({exc}); this payload needs torch and triton",
          file=sys.stderr)
    sys.exit(2)


class UsageParser(argparse.ArgumentParser):
    """argparse exits 2 on a usage error; 2 means "environment cannot run this" here, so 64."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(64, f"{self.prog}: error: {message}\n")


def positive_int(text):
    value = int(text, 0)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def parse_args(argv):
    parser = UsageParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=positive_int, default=10,
                        help="rank 0's launches; rank r makes (r + 1) times as many (10)")
    parser.add_argument("--heavy-rank", type=int, default=-1,
                        help="this rank makes twice its share again (none)")
    parser.add_argument("--size", type=positive_int, default=1 << 16, help="elements (65536)")
    parser.add_argument("--gpu-per-rank", action="store_true",
                        help="rank r uses GPU LOCAL_RANK instead of GPU 0")
    parser.add_argument("--allreduce", action="store_true",
                        help="with --gpu-per-rank: all-reduce the results over NCCL and check")
    return parser.parse_args(argv)


def session():
    """proton.start() arguments from aorta's env bundle; None when not under mode: env."""
    name = os.environ.get("AORTA_PROTON_NAME")
    if name is None:
        return None
    return name, {
        "context": os.environ.get("AORTA_PROTON_CONTEXT", "shadow"),
        "data": os.environ.get("AORTA_PROTON_DATA", "tree"),
        # None lets Proton pick; aorta exports the variable only for a pinned backend.
        "backend": os.environ.get("AORTA_PROTON_BACKEND"),
        "mode": os.environ.get("AORTA_PROTON_MODE"),
        "hook": os.environ.get("AORTA_PROTON_HOOK"),
    }


def main(argv=None):
    args = parse_args(argv)
    rank = int(os.environ.get("RANK", "0"))
    if not torch.cuda.is_available():
        print(f"ranks: rank {rank}: no GPU visible to torch; refusing to run on CPU",
              file=sys.stderr)
        return 2
    if args.allreduce and not args.gpu_per_rank:
        print("ranks: --allreduce needs --gpu-per-rank (NCCL wants one GPU per rank)",
              file=sys.stderr)
        return 64
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    if args.gpu_per_rank and local_rank >= torch.cuda.device_count():
        print(f"ranks: rank {rank}: --gpu-per-rank needs GPU {local_rank}, and "
              f"{torch.cuda.device_count()} are visible", file=sys.stderr)
        return 2
    device = torch.device("cuda", local_rank if args.gpu_per_rank else 0)
    torch.cuda.set_device(device)
    launches = args.launches * (rank + 1) * (2 if rank == args.heavy_rank else 1)
    x = torch.rand(args.size, device=device)
    y = torch.rand(args.size, device=device)
    out = torch.empty_like(x)
    grid = (triton.cdiv(args.size, 1024),)

    profiled = session()
    if profiled is not None:
        proton.start(profiled[0], **profiled[1])
    try:
        for _ in range(launches):
            add_kernel[grid](x, y, out, args.size, BLOCK_SIZE=1024)
        torch.cuda.synchronize(device)
    finally:
        if profiled is not None:
            proton.finalize()

    if args.allreduce:
        import torch.distributed as dist
        dist.init_process_group("nccl", device_id=device)
        total = out.sum().reshape(1)
        expected = total.clone()
        dist.all_reduce(total)
        gathered = [torch.zeros_like(expected) for _ in range(dist.get_world_size())]
        dist.all_gather(gathered, expected)
        dist.destroy_process_group()
        if not torch.allclose(total, sum(gathered)):
            print(f"ranks: rank {rank}: FAIL all_reduce gave {total.item()}, expected "
                  f"{sum(gathered).item()}")
            return 1
        print(f"ranks: rank {rank}: NCCL all_reduce over {len(gathered)} rank(s) agrees")

    max_abs_err = (out - (x + y)).abs().max().item()
    print(f"ranks: rank {rank}: {launches} launches of add_kernel, max_abs_err={max_abs_err:.3e}")
    if not max_abs_err == 0.0:
        print(f"ranks: rank {rank}: FAIL (expected exact equality with x + y)")
        return 1
    return 0


if __name__ == "__main__":
    # No SystemExit(0) on success: Triton 3.6.0's Proton CLI would then skip finalize().
    rc = main()
    if rc:
        sys.exit(rc)
