"""A bf16 cuBLAS GEMM measured after heavier GPU work, with a work knob for A/B cells.

Each run: --warm fp32 GEMMs of 4096^3 (heavier work that heats the card and leaves it in a state,
as a real step before the kernel under test would), then --iters launches of one bf16 GEMM of
--m x --n x --k (2048^3 is about 25 us on an H200). The environment variable CELLS_EXTRA_LAUNCHES
adds that many launches of the same GEMM: the +5% / +10% work of an A/B cell that keeps the same
kernel (a different shape could make cuBLAS pick another kernel, which would be another row).

Exit codes: 0 PASS, 1 wrong result, 2 this environment cannot run it (no torch, no GPU),
64 usage error.
"""

import argparse
import os
import sys

try:
    # Proton before torch, always: on Triton 3.8.0 the reverse order hangs the process at exit.
    import triton.profiler  # isort: skip  # noqa: I001, F401
    import torch
except ImportError as exc:
    print(f"gemm_ab: cannot import {exc.name!r} ({exc}); this payload needs torch and triton",
          file=sys.stderr)
    sys.exit(2)

PREFIX = "gemm_ab"


class UsageParser(argparse.ArgumentParser):
    """argparse exits 2 on a usage error; 2 means "environment cannot run this" here, so 64."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(64, f"{self.prog}: error: {message}\n")


def count(text):
    value = int(text, 0)
    if value < 0 or value > 100000:
        raise argparse.ArgumentTypeError(f"must be 0..100000, got {text}")
    return value


def parse_args(argv):
    parser = UsageParser(description=__doc__.splitlines()[0])
    parser.add_argument("--m", type=count, default=2048)
    parser.add_argument("--n", type=count, default=2048)
    parser.add_argument("--k", type=count, default=2048)
    parser.add_argument("--iters", type=count, default=20, help="bf16 GEMM launches (20)")
    parser.add_argument("--warm", type=count, default=60, help="fp32 GEMMs before them (60)")
    return parser.parse_args(argv)


def extra_launches():
    text = os.environ.get("CELLS_EXTRA_LAUNCHES", "0")
    if not text.isdigit() or int(text) > 100000:
        print(f"{PREFIX}: CELLS_EXTRA_LAUNCHES must be 0..100000, got {text!r}", file=sys.stderr)
        return None
    return int(text)


def main(argv=None):
    args = parse_args(argv)
    extra = extra_launches()
    if extra is None:
        return 64
    if not torch.cuda.is_available():
        print(f"{PREFIX}: no GPU visible to torch; refusing to run on CPU", file=sys.stderr)
        return 2
    device = torch.device("cuda")
    torch.backends.cuda.matmul.allow_tf32 = False
    generator = torch.Generator(device=device).manual_seed(1234)
    big = torch.rand(4096, 4096, device=device, generator=generator)
    for _ in range(args.warm):
        big = torch.mm(big, big).clamp_(-1.0, 1.0)
    a = torch.rand(args.m, args.k, device=device, generator=generator, dtype=torch.bfloat16)
    b = torch.rand(args.k, args.n, device=device, generator=generator, dtype=torch.bfloat16)
    out = torch.empty(args.m, args.n, device=device, dtype=torch.bfloat16)
    for _ in range(args.iters + extra):
        torch.mm(a, b, out=out)
    torch.cuda.synchronize(device)
    reference = a[:64].float() @ b.float()
    err = (out[:64].float() - reference).abs().max().item() / reference.abs().max().item()
    print(f"{PREFIX}: device={torch.cuda.get_device_name(device)} gemm {args.m}x{args.n}x{args.k} "
          f"x {args.iters + extra} launches after {args.warm} fp32 GEMMs; relative error {err:.2e}")
    if not err < 2e-2:
        print(f"{PREFIX}: FAIL (bf16 GEMM disagrees with the fp32 reference)")
        return 1
    print(f"{PREFIX}: PASS")
    return 0


if __name__ == "__main__":
    # No SystemExit(0) on success: Triton 3.6.0's Proton CLI would then skip finalize().
    rc = main()
    if rc:
        sys.exit(rc)
