"""Triton elementwise add, launched --iters times, checked exactly against torch.

The smallest Proton payload: under `python -m triton.profiler.proton` every launch the script
makes is captured, so the script makes exactly --iters launches of `add_kernel` and nothing else
with that name (no warm-up: Triton's first-launch compile dispatches no kernel). That keeps the
recipe's `count(^add_kernel$) == 20` exact.

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
    print(f"vecadd: cannot import {exc.name!r} ({exc}); this payload needs torch and triton",
          file=sys.stderr)
    sys.exit(2)

PREFIX = "vecadd"


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


def power_of_two(text):
    value = positive_int(text)
    if value & (value - 1):
        below = 1 << (value.bit_length() - 1)
        above = below << 1
        nearest = below if value - below < above - value else above
        raise argparse.ArgumentTypeError(
            f"must be a power of two (tl.arange needs one), got {value}; nearest is {nearest}")
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
    parser.add_argument("--size", type=positive_int, default=1 << 20, help="elements (1<<20)")
    parser.add_argument("--iters", type=positive_int, default=20, help="kernel launches (20)")
    parser.add_argument("--block-size", type=power_of_two, default=1024,
                        help="elements per program, a power of two (1024)")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    if not torch.cuda.is_available():
        print(f"{PREFIX}: no GPU visible to torch; refusing to run on CPU", file=sys.stderr)
        return 2
    device = torch.device("cuda")
    print(f"{PREFIX}: device={torch.cuda.get_device_name(device)}")
    print(f"{PREFIX}: size={args.size} iters={args.iters} block_size={args.block_size}")

    generator = torch.Generator(device=device).manual_seed(1234)
    x = torch.rand(args.size, device=device, generator=generator)
    y = torch.rand(args.size, device=device, generator=generator)
    out = torch.empty_like(x)
    grid = (triton.cdiv(args.size, args.block_size),)
    for _ in range(args.iters):
        add_kernel[grid](x, y, out, args.size, BLOCK_SIZE=args.block_size)
    torch.cuda.synchronize(device)

    # Float addition of two operands has one correctly rounded answer: anything but 0 is a bug.
    max_abs_err = (out - (x + y)).abs().max().item()
    print(f"{PREFIX}: max_abs_err={max_abs_err:.3e}")
    if not max_abs_err == 0.0:
        print(f"{PREFIX}: FAIL (expected exact equality with x + y)")
        return 1
    print(f"{PREFIX}: PASS")
    return 0


if __name__ == "__main__":
    # No SystemExit(0) on success: Triton 3.6.0's Proton CLI would then skip finalize().
    rc = main()
    if rc:
        sys.exit(rc)
