"""Three Triton kernels in sequence — scale, bias + exact GELU, row sum — under a Proton session.

An unprofiled correctness pass runs first (it also absorbs Triton's JIT compiles), then the
profiled loop launches each kernel exactly --iters times, so the capture's kernel count is
predictable: 3 x iters (60 by default).

Profiling: with --backend, or when aorta's AORTA_PROTON_* bundle is in the environment (recipe
`mode: env`), the payload starts the Proton session itself, after torch has brought the GPU
runtime up — which is what Proton's roctracer backend needs to record anything.

Exit codes: 0 PASS, 1 wrong result, 2 this environment cannot run it (no torch/triton, no GPU),
64 usage error.
"""

import argparse
import math
import os
import sys

try:
    # Proton before torch, always: on Triton 3.8.0 the reverse order hangs the process at exit.
    import triton.profiler as proton  # isort: skip  # noqa: I001
    import triton
    import triton.language as tl
    import torch
except ImportError as exc:
    print(f"pipeline: cannot import {exc.name!r} ({exc}); this payload needs torch and triton",
          file=sys.stderr)
    sys.exit(2)

PREFIX = "pipeline"
AMD_BACKENDS = ("roctracer", "rocprofiler")
TOLERANCE = 1e-5
ELEMENTWISE_BLOCK = 1024


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
def scale_kernel(x_ptr, out_ptr, n_elements, scale, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x * scale, mask=mask)


@triton.jit
def bias_gelu_kernel(x_ptr, bias_ptr, out_ptr, n_elements, n_cols, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    v = tl.load(x_ptr + offsets, mask=mask) + tl.load(bias_ptr + offsets % n_cols, mask=mask)
    tl.store(out_ptr + offsets, 0.5 * v * (1.0 + tl.erf(v * 0.7071067811865476)), mask=mask)


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_cols, row_stride, BLOCK_COLS: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_COLS)
    x = tl.load(x_ptr + row * row_stride + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


def parse_args(argv):
    parser = UsageParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=positive_int, default=4096, help="matrix rows (4096)")
    parser.add_argument("--cols", type=positive_int, default=1024, help="matrix columns (1024)")
    parser.add_argument("--iters", type=positive_int, default=20,
                        help="profiled launches of each kernel (20)")
    parser.add_argument("--backend", choices=["roctracer", "cupti"],
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


class Pipeline:
    """Inputs, intermediates and launch geometry, allocated once so the profiled loop only launches."""

    def __init__(self, rows, cols, device):
        generator = torch.Generator(device=device).manual_seed(1234)
        self.rows, self.cols = rows, cols
        self.scale = 1.0 / math.sqrt(cols)
        self.x = torch.randn(rows, cols, device=device, generator=generator)
        self.bias = torch.randn(cols, device=device, generator=generator)
        self.scaled = torch.empty_like(self.x)
        self.activated = torch.empty_like(self.x)
        self.sums = torch.empty(rows, device=device)
        self.n_elements = rows * cols
        self.grid = (triton.cdiv(self.n_elements, ELEMENTWISE_BLOCK),)
        self.block_cols = triton.next_power_of_2(cols)

    def launch(self):
        scale_kernel[self.grid](self.x, self.scaled, self.n_elements, self.scale,
                                BLOCK_SIZE=ELEMENTWISE_BLOCK)
        bias_gelu_kernel[self.grid](self.scaled, self.bias, self.activated, self.n_elements,
                                    self.cols, BLOCK_SIZE=ELEMENTWISE_BLOCK)
        row_sum_kernel[(self.rows,)](self.activated, self.sums, self.cols, self.activated.stride(0),
                                     BLOCK_COLS=self.block_cols)

    def max_rel_err(self):
        reference = torch.nn.functional.gelu(self.x * self.scale + self.bias).sum(dim=1)
        denominator = reference.abs().clamp(min=1.0)
        return ((self.sums - reference).abs() / denominator).max().item()


def check(label, error):
    print(f"{PREFIX}: {label}_max_rel_err={error:.3e}")
    # Written as `not <=` so that a NaN fails.
    if not error <= TOLERANCE:
        print(f"{PREFIX}: FAIL ({label} relative error above {TOLERANCE:g})")
        return False
    return True


def main(argv=None):
    args = parse_args(argv)
    if not torch.cuda.is_available():
        print(f"{PREFIX}: no GPU visible to torch; refusing to run on CPU", file=sys.stderr)
        return 2
    device = torch.device("cuda")
    session = session_arguments(args)
    if session is not None and session["backend"] in AMD_BACKENDS and torch.version.hip is None:
        # Proton's AMD backends cannot attach to a CUDA device: this host cannot run this recipe.
        print(f"{PREFIX}: backend {session['backend']!r} is an AMD (ROCm) backend and this torch "
              f"is built for CUDA ({torch.cuda.get_device_name(device)}); on NVIDIA use "
              f"recipe.cupti.yaml, the same payload with backend cupti", file=sys.stderr)
        return 2
    print(f"{PREFIX}: device={torch.cuda.get_device_name(device)}")
    print(f"{PREFIX}: rows={args.rows} cols={args.cols} iters={args.iters}")
    pipeline = Pipeline(args.rows, args.cols, device)

    pipeline.launch()
    torch.cuda.synchronize(device)
    if not check("warmup", pipeline.max_rel_err()):
        return 1

    if session is not None:
        name = session.pop("name")
        proton.start(name, **session)
    try:
        for _ in range(args.iters):
            pipeline.launch()
        torch.cuda.synchronize(device)
    finally:
        if session is not None:
            proton.finalize()

    if not check("profiled", pipeline.max_rel_err()):
        return 1
    print(f"{PREFIX}: PASS")
    return 0


if __name__ == "__main__":
    # No SystemExit(0) on success: a Proton CLI wrapper would then skip finalize().
    rc = main()
    if rc:
        sys.exit(rc)
