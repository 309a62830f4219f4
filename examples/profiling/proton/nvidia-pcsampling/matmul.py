"""A Triton bf16 matmul with a K loop, sampled by Proton's CUPTI PC sampling (mode: env).

The payload starts the Proton session itself from aorta's AORTA_PROTON_* bundle (recipe
`mode: env`): Triton's Proton CLI (3.6.0 measured) parses `--mode` and drops it, so the CLI route
would give kernel times and no sample. Without the bundle, --backend/--backend-mode start a
standalone session; without either, nothing is profiled and the result is only checked.

Exit codes: 0 PASS, 1 wrong result, 2 this environment cannot run it, 64 usage error.
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
    print(f"matmul: cannot import {exc.name!r} ({exc}); this payload needs torch and triton",
          file=sys.stderr)
    sys.exit(2)

PREFIX = "matmul"
BLOCK = 128
BLOCK_K = 64


class UsageParser(argparse.ArgumentParser):
    """argparse exits 2 on a usage error; 2 means "environment cannot run this" here, so 64."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(64, f"{self.prog}: error: {message}\n")


def multiple_of_block(text):
    value = int(text, 0)
    if value <= 0 or value % BLOCK:
        raise argparse.ArgumentTypeError(f"must be a positive multiple of {BLOCK}, got {text}")
    return value


def positive_int(text):
    value = int(text, 0)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.bfloat16))


def parse_args(argv):
    parser = UsageParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=multiple_of_block, default=2048, help="M = N = K (2048)")
    parser.add_argument("--iters", type=positive_int, default=20, help="kernel launches (20)")
    parser.add_argument("--backend", choices=["cupti"], help="standalone Proton session")
    parser.add_argument("--backend-mode", choices=["pcsampling"], help="mode for --backend")
    args = parser.parse_args(argv)
    if args.backend_mode is not None and args.backend is None:
        parser.error("--backend-mode requires --backend")
    return args


def session_arguments(args):
    """proton.start() arguments from aorta's env bundle or --backend; None: do not profile."""
    name = os.environ.get("AORTA_PROTON_NAME")
    if name is None and args.backend is None:
        return None
    return {
        "name": name or PREFIX,
        "context": os.environ.get("AORTA_PROTON_CONTEXT", "shadow"),
        "data": os.environ.get("AORTA_PROTON_DATA", "tree"),
        "backend": args.backend or os.environ.get("AORTA_PROTON_BACKEND"),
        "mode": args.backend_mode or os.environ.get("AORTA_PROTON_MODE"),
        "hook": os.environ.get("AORTA_PROTON_HOOK"),
    }


def main(argv=None):
    args = parse_args(argv)
    if not torch.cuda.is_available():
        print(f"{PREFIX}: no GPU visible to torch; refusing to run on CPU", file=sys.stderr)
        return 2
    device = torch.device("cuda")
    print(f"{PREFIX}: device={torch.cuda.get_device_name(device)}")
    print(f"{PREFIX}: size={args.size} iters={args.iters} triton={triton.__version__}")
    generator = torch.Generator(device=device).manual_seed(1234)
    size = args.size
    a = torch.randn(size, size, device=device, dtype=torch.bfloat16, generator=generator)
    b = torch.randn(size, size, device=device, dtype=torch.bfloat16, generator=generator)
    c = torch.empty(size, size, device=device, dtype=torch.bfloat16)
    grid = (size // BLOCK, size // BLOCK)
    session = session_arguments(args)
    if session is not None:
        proton.start(session.pop("name"), **session)
    try:
        for _ in range(args.iters):
            matmul_kernel[grid](a, b, c, size, size, size, BLOCK_M=BLOCK, BLOCK_N=BLOCK,
                                BLOCK_K=BLOCK_K)
        torch.cuda.synchronize(device)
    finally:
        if session is not None:
            proton.finalize()
    reference = a.float() @ b.float()
    # bf16 output of a K-long fp32 sum: relative to the reference's scale, as torch's own tests do.
    relative = ((c.float() - reference).abs().max() / reference.abs().max()).item()
    print(f"{PREFIX}: max_rel_err={relative:.3e}")
    if not relative <= 1e-2:  # `not <=` so that NaN fails
        print(f"{PREFIX}: FAIL (max_rel_err above 1e-2)")
        return 1
    print(f"{PREFIX}: PASS")
    return 0


if __name__ == "__main__":
    # No SystemExit(0) on success: a Proton CLI wrapper would then skip finalize().
    rc = main()
    if rc:
        sys.exit(rc)
