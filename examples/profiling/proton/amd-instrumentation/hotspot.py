"""One deliberately unbalanced Triton kernel with two named Proton scopes, `cheap` and `expensive`.

`cheap` is one multiply; `expensive` is --steps unrolled erf iterations. Proton's instrumentation
backend records cycles per scope, so the capture shows where inside the kernel the time went.

Profiling: with --backend, or when aorta's AORTA_PROTON_* bundle is in the environment (recipe
`mode: env`), the payload starts the Proton session itself. Every launch happens inside the
session: the backend rewrites the kernel's IR, and a warm-up launch taken before proton.start()
would put an uninstrumented binary in Triton's cache for the profiled launches to reuse.

Exit codes: 0 PASS, 1 wrong result, 2 this environment cannot run it (no torch/triton, no GPU),
64 usage error.
"""

import argparse
import os
import sys

try:
    # Proton before torch, always: on Triton 3.8.0 the reverse order hangs the process at exit.
    import triton.profiler as proton  # isort: skip  # noqa: I001
    import triton.profiler.language as pl  # isort: skip  # noqa: I001
    import triton
    import triton.language as tl
    import torch
except ImportError as exc:
    print(f"hotspot: cannot import {exc.name!r} ({exc}); this payload needs torch and triton",
          file=sys.stderr)
    sys.exit(2)

PREFIX = "hotspot"
MAX_STEPS = 64  # loop_steps is a constexpr, unrolled at compile time: bigger means slower compiles
TOLERANCE = 1e-6

# Triton-DSL kernels are not instrumented unless asked (newer Tritons enable only Gluon by default);
# older Tritons have no switch and instrument the Triton DSL already.
if hasattr(pl, "enable_semantic"):
    pl.enable_semantic("triton")


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


def step_count(text):
    value = positive_int(text)
    if value > MAX_STEPS:
        raise argparse.ArgumentTypeError(
            f"at most {MAX_STEPS} (the loop is unrolled at compile time), got {value}")
    return value


@triton.jit
def unbalanced_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr,
                      LOOP_STEPS: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    pl.enter_scope("cheap")
    y = x * 2.0
    pl.exit_scope("cheap")
    pl.enter_scope("expensive")
    for _ in tl.static_range(LOOP_STEPS):
        y = tl.erf(y)
    pl.exit_scope("expensive")
    tl.store(out_ptr + offsets, y, mask=mask)


def parse_args(argv):
    parser = UsageParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=positive_int, default=1 << 16, help="elements (1<<16)")
    parser.add_argument("--steps", type=step_count, default=8,
                        help=f"erf iterations in the expensive scope, 1..{MAX_STEPS} (8)")
    parser.add_argument("--iters", type=positive_int, default=5, help="kernel launches (5)")
    parser.add_argument("--backend", choices=["instrumentation", "roctracer", "cupti"],
                        help="start a Proton session with this backend (standalone capture)")
    return parser.parse_args(argv)


def session_arguments(args):
    """proton.start() arguments from --backend or aorta's env bundle; None means do not profile."""
    directory = os.environ.get("AORTA_PROTON_DIR")
    name = os.environ.get("AORTA_PROTON_NAME")
    if name is None and directory is not None:
        name = os.path.join(directory, "proton")
    if name is None and args.backend is None:
        return None
    return {
        "name": name or PREFIX,
        "context": os.environ.get("AORTA_PROTON_CONTEXT", "shadow"),
        "data": os.environ.get("AORTA_PROTON_DATA", "tree"),
        # None lets Proton pick; aorta exports the variable only for a pinned backend.
        "backend": args.backend or os.environ.get("AORTA_PROTON_BACKEND"),
        "mode": os.environ.get("AORTA_PROTON_MODE"),
        "hook": os.environ.get("AORTA_PROTON_HOOK"),
    }


def main(argv=None):
    args = parse_args(argv)
    if not torch.cuda.is_available():
        print(f"{PREFIX}: no GPU visible to torch; refusing to run on CPU", file=sys.stderr)
        return 2
    device = torch.device("cuda")
    print(f"{PREFIX}: device={torch.cuda.get_device_name(device)}")
    print(f"{PREFIX}: size={args.size} steps={args.steps} iters={args.iters}")

    generator = torch.Generator(device=device).manual_seed(1234)
    x = torch.randn(args.size, device=device, generator=generator)
    out = torch.empty_like(x)
    block_size = 1024
    grid = (triton.cdiv(args.size, block_size),)

    session = session_arguments(args)
    if session is not None:
        name = session.pop("name")
        proton.start(name, **session)
    try:
        for _ in range(args.iters):
            unbalanced_kernel[grid](x, out, args.size, BLOCK_SIZE=block_size,
                                    LOOP_STEPS=args.steps)
        torch.cuda.synchronize(device)
    finally:
        if session is not None:
            proton.finalize()

    expected = x * 2.0
    for _ in range(args.steps):
        expected = torch.erf(expected)
    max_abs_err = (out - expected).abs().max().item()
    print(f"{PREFIX}: max_abs_err={max_abs_err:.3e}")
    # Written as `not <=` so that a NaN fails.
    if not max_abs_err <= TOLERANCE:
        print(f"{PREFIX}: FAIL (max_abs_err above {TOLERANCE:g})")
        return 1
    print(f"{PREFIX}: PASS")
    return 0


if __name__ == "__main__":
    # No SystemExit(0) on success: a Proton CLI wrapper would then skip finalize().
    rc = main()
    if rc:
        sys.exit(rc)
