"""Row-wise softmax as one Triton program per row, checked against torch.softmax.

A fused reduction for Proton's `context: python` attribution: the capture's tree is keyed by the
Python call path that launched each kernel. Under `python -m triton.profiler.proton` every launch
the script makes is captured; the script makes exactly --iters launches of `softmax_kernel`.

Adapted from Triton tutorial 02 (fused softmax), triton-lang/triton, MIT License.

Exit codes: 0 PASS, 1 wrong result, 2 this environment cannot run it (no torch/triton, no GPU),
64 usage error.
"""

import argparse
import sys

try:
    # Proton before torch, always: on Triton 3.8.0 the reverse order hangs the process at exit.
    import triton.profiler  # isort: skip  # noqa: I001, F401
    import triton
    import triton.language as tl
    import torch
except ImportError as exc:
    print(f"softmax: cannot import {exc.name!r} ({exc}); this payload needs torch and triton",
          file=sys.stderr)
    sys.exit(2)

PREFIX = "softmax"
TOLERANCE = 1e-6


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
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols,
                   BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_row_stride + cols, mask=mask, other=-float("inf"))
    # Subtracting the row maximum keeps exp() in range without changing the result.
    numerator = tl.exp(x - tl.max(x, axis=0))
    result = numerator / tl.sum(numerator, axis=0)
    tl.store(out_ptr + row * out_row_stride + cols, result, mask=mask)


def softmax(x, out):
    rows, cols = x.shape
    softmax_kernel[(rows,)](out, x, x.stride(0), out.stride(0), cols,
                            BLOCK_SIZE=triton.next_power_of_2(cols))


def parse_args(argv):
    parser = UsageParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=positive_int, default=4096, help="rows (4096)")
    parser.add_argument("--cols", type=positive_int, default=1024, help="columns (1024)")
    parser.add_argument("--iters", type=positive_int, default=20, help="kernel launches (20)")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    if not torch.cuda.is_available():
        print(f"{PREFIX}: no GPU visible to torch; refusing to run on CPU", file=sys.stderr)
        return 2
    device = torch.device("cuda")
    print(f"{PREFIX}: device={torch.cuda.get_device_name(device)}")
    print(f"{PREFIX}: rows={args.rows} cols={args.cols} iters={args.iters}")

    generator = torch.Generator(device=device).manual_seed(1234)
    x = torch.randn(args.rows, args.cols, device=device, generator=generator)
    out = torch.empty_like(x)
    for _ in range(args.iters):
        softmax(x, out)
    torch.cuda.synchronize(device)

    max_abs_err = (out - torch.softmax(x, dim=1)).abs().max().item()
    print(f"{PREFIX}: max_abs_err={max_abs_err:.3e}")
    # Written as `not <=` so that a NaN fails.
    if not max_abs_err <= TOLERANCE:
        print(f"{PREFIX}: FAIL (max_abs_err above {TOLERANCE:g})")
        return 1
    print(f"{PREFIX}: PASS")
    return 0


if __name__ == "__main__":
    # No SystemExit(0) on success: Triton 3.6.0's Proton CLI would then skip finalize().
    rc = main()
    if rc:
        sys.exit(rc)
