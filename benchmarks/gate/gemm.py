"""A bf16 cuBLAS GEMM launched --iters times, for the gate's H200 figures (issue 20).

--size 2048 is the short kernel (~25 us on an H200), --size 8192 the long one (~1.6 ms); --cols
sets N alone, so `--cols 2253` against 2048 (or 9011 against 8192) is "+10% work" with the same
kernel. Proton (cupti) captures every launch; the script makes exactly --iters GEMMs after one
unmeasured warm-up launch of the same shape (cuBLAS picks its kernel on the first call).

Exit codes: 0 done, 2 this environment cannot run it (no torch, no GPU), 64 usage error.
"""

import argparse
import sys

try:
    import triton.profiler  # isort: skip  # noqa: I001, F401  (Proton before torch)
    import torch
except ImportError as exc:
    print(f"gemm: cannot import {exc.name!r} ({exc}); this payload needs torch", file=sys.stderr)
    sys.exit(2)


class UsageParser(argparse.ArgumentParser):
    """argparse exits 2 on a usage error; 2 means "environment cannot run this" here, so 64."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(64, f"{self.prog}: error: {message}\n")


def main():
    parser = UsageParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2048, help="M = K (and N unless --cols)")
    parser.add_argument("--cols", type=int, default=0, help="N (default: --size)")
    parser.add_argument("--iters", type=int, default=20)
    args = parser.parse_args()
    if args.size <= 0 or args.cols < 0 or args.iters <= 0:
        parser.error("--size and --iters must be positive, --cols not negative")
    if not torch.cuda.is_available():
        print("gemm: no CUDA device", file=sys.stderr)
        return 2
    n = args.cols or args.size
    a = torch.randn(args.size, args.size, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(args.size, n, device="cuda", dtype=torch.bfloat16)
    torch.matmul(a, b)
    torch.cuda.synchronize()
    for _ in range(args.iters):
        c = torch.matmul(a, b)
    torch.cuda.synchronize()
    return 0 if torch.isfinite(c[0, 0]).item() else 1


if __name__ == "__main__":
    sys.exit(main())
