"""Repeated `a @ b` in PyTorch: the vendor GEMM kernels (hipBLASLt / rocBLAS, or cuBLAS) it picks.

--warmup untimed products, then --iters timed ones; 8 sampled off-diagonal entries are checked
against float32 dot products with a per-dtype relative-error ceiling, plus an all-finite check.
No Triton and no Proton here: rocprofv3 wraps the whole process from outside.

Exit codes: 0 PASS, 1 wrong result, 2 this environment cannot run it (no torch, no GPU),
64 usage error.
"""

import argparse
import sys

try:
    import torch
except ImportError as exc:
    print(f"matmul: cannot import {exc.name!r} ({exc}); this payload needs torch", file=sys.stderr)
    sys.exit(2)

PREFIX = "matmul"
SAMPLES = 8
# Relative-error ceilings per dtype: the accumulation order of a vendor GEMM is not ours to fix.
CEILINGS = {"float32": 1e-3, "float16": 2e-2, "bfloat16": 5e-2}


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


def non_negative_int(text):
    value = int(text, 0)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be zero or more, got {text}")
    return value


def parse_args(argv):
    parser = UsageParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=positive_int, default=2048, help="square extent (2048)")
    parser.add_argument("--iters", type=positive_int, default=20, help="timed products (20)")
    parser.add_argument("--warmup", type=non_negative_int, default=3, help="untimed products (3)")
    parser.add_argument("--dtype", choices=sorted(CEILINGS), default="float16",
                        help="element type (float16)")
    parser.add_argument("--device", default="cuda", help="torch device (cuda)")
    return parser.parse_args(argv)


def sampled_max_rel_err(a, b, c, size):
    generator = torch.Generator().manual_seed(4321)
    worst = 0.0
    for _ in range(SAMPLES):
        row = int(torch.randint(size, (1,), generator=generator))
        # Off the diagonal, so a kernel that only gets i == j right cannot pass.
        col = (row + 1 + int(torch.randint(size - 1, (1,), generator=generator))) % size \
            if size > 1 else row
        reference = torch.dot(a[row].float(), b[:, col].float()).item()
        got = c[row, col].float().item()
        worst = max(worst, abs(got - reference) / max(abs(reference), 1.0))
    return worst


def main(argv=None):
    args = parse_args(argv)
    device = torch.device(args.device)
    if device.type != "cuda" or not torch.cuda.is_available():
        print(f"{PREFIX}: no GPU visible to torch; refusing to run on CPU", file=sys.stderr)
        return 2
    dtype = getattr(torch, args.dtype)
    print(f"{PREFIX}: device={torch.cuda.get_device_name(device)} dtype={args.dtype}")
    print(f"{PREFIX}: size={args.size} iters={args.iters} warmup={args.warmup}")

    generator = torch.Generator(device=device).manual_seed(1234)
    a = torch.randn(args.size, args.size, device=device, generator=generator).to(dtype)
    b = torch.randn(args.size, args.size, device=device, generator=generator).to(dtype)
    for _ in range(args.warmup):
        a @ b
    torch.cuda.synchronize(device)

    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(args.iters):
        c = a @ b
    stop.record()
    stop.synchronize()
    mean_ms = start.elapsed_time(stop) / args.iters
    print(f"{PREFIX}: mean_kernel_ms={mean_ms:.4f}")
    print(f"{PREFIX}: gflops={2.0 * args.size ** 3 / (mean_ms * 1e6):.1f}")

    finite = bool(torch.isfinite(c).all().item())
    max_rel_err = sampled_max_rel_err(a.cpu(), b.cpu(), c.cpu(), args.size)
    print(f"{PREFIX}: max_rel_err={max_rel_err:.3e}")
    ceiling = CEILINGS[args.dtype]
    if not finite:
        print(f"{PREFIX}: FAIL (non-finite values in the product)")
        return 1
    # Written as `not <=` so that a NaN fails.
    if not max_rel_err <= ceiling:
        print(f"{PREFIX}: FAIL (max_rel_err above {ceiling:g} for {args.dtype})")
        return 1
    print(f"{PREFIX}: PASS")
    return 0


if __name__ == "__main__":
    rc = main()
    if rc:
        sys.exit(rc)
