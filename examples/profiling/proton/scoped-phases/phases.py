"""Two phases of an inference step under Proton scopes: `prefill` (large cuBLAS gemms) and
`decode` (small ones), checked against a float64 reference.

Both phases run torch.matmul, so their kernels have near-identical cuBLAS names: only the scope
tells them apart, which is what scope-addressed checks (`time_ms(under(prefill))`) are for.

Exit codes: 0 PASS, 1 wrong result, 2 this environment cannot run it (no torch/triton, no GPU),
64 usage error.
"""

import argparse
import sys

try:
    # Proton before torch, always: on Triton 3.8.0 the reverse order hangs the process at exit.
    import triton.profiler as proton  # isort: skip  # noqa: I001
    import torch
except ImportError as exc:
    print(f"phases: cannot import {exc.name!r} ({exc}); this payload needs torch and triton",
          file=sys.stderr)
    sys.exit(2)

PREFIX = "phases"
# Relative to the largest reference value; TF32 is off, so fp32 gemms stay well inside it.
TOLERANCE = 1e-3


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


def parse_args(argv):
    parser = UsageParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prefill-size", type=positive_int, default=4096,
                        help="n of the n x n x n prefill gemms (default 4096)")
    parser.add_argument("--decode-size", type=positive_int, default=256,
                        help="n of the n x n x n decode gemms (default 256)")
    parser.add_argument("--iters", type=positive_int, default=10,
                        help="gemms per phase (default 10)")
    return parser.parse_args(argv)


def run_phase(name, size, iters, device):
    generator = torch.Generator(device=device).manual_seed(size)
    a = torch.randn(size, size, device=device, generator=generator)
    b = torch.randn(size, size, device=device, generator=generator)
    with proton.scope(name):
        for _ in range(iters):
            out = torch.matmul(a, b)
        torch.cuda.synchronize(device)
    reference = a.double() @ b.double()
    return ((out.double() - reference).abs().max() / reference.abs().max()).item()


def main(argv=None):
    args = parse_args(argv)
    if not torch.cuda.is_available():
        print(f"{PREFIX}: no GPU visible to torch; refusing to run on CPU", file=sys.stderr)
        return 2
    device = torch.device("cuda")
    torch.backends.cuda.matmul.allow_tf32 = False
    print(f"{PREFIX}: device={torch.cuda.get_device_name(device)}")
    print(f"{PREFIX}: prefill={args.prefill_size} decode={args.decode_size} iters={args.iters}")
    ok = True
    for name, size in (("prefill", args.prefill_size), ("decode", args.decode_size)):
        error = run_phase(name, size, args.iters, device)
        print(f"{PREFIX}: {name}_max_rel_err={error:.3e}")
        # Written as `not <=` so that a NaN fails.
        if not error <= TOLERANCE:
            print(f"{PREFIX}: FAIL ({name} relative error above {TOLERANCE:g})")
            ok = False
    if not ok:
        return 1
    print(f"{PREFIX}: PASS")
    return 0


if __name__ == "__main__":
    # No SystemExit(0) on success: a Proton CLI wrapper would then skip finalize().
    rc = main()
    if rc:
        sys.exit(rc)
