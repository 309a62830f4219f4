"""Exact-erf GELU in Triton, launched --iters times for Proton's rocprofiler backend (PC sampling).

Profiling: with --backend, or when aorta's AORTA_PROTON_* bundle is in the environment (recipe
`mode: env`), the payload starts the Proton session itself. Before that it asks whether this
Triton can do what was asked, and answers with exit 2 ("this environment cannot run it") and a
message naming the fix when it cannot: the backend is missing, the backend refuses the mode, a
profiler library cannot be loaded, or Proton refuses the device-selection variables. Any other
failure is re-raised: a confident wrong diagnosis costs more than a traceback.

Exit codes: 0 PASS, 1 wrong result, 2 this environment cannot run it, 64 usage error.
"""

import argparse
import os
import sys

try:
    # Proton (and libproton) before torch, always. Loading libproton configures rocprofiler-sdk,
    # which must happen before HSA is up; and on Triton 3.8.0 the reverse order hangs at exit.
    import triton.profiler as proton  # isort: skip  # noqa: I001
    from triton._C.libproton import proton as libproton  # isort: skip  # noqa: I001
    import triton
    import triton.language as tl
    import torch
except ImportError as exc:
    print(f"gelu: cannot import {exc.name!r} ({exc}); this payload needs torch and triton",
          file=sys.stderr)
    sys.exit(2)

PREFIX = "gelu"
TOLERANCE = 1e-6
BLOCK_SIZE = 1024
# What a Triton without libproton.get_available_profilers (3.7.x and earlier) offers.
PRE_REGISTRY_BACKENDS = ["cupti", "instrumentation", "roctracer"]
# Proton's --mode values for whole-kernel backends (the same table aorta's schema enforces).
BACKEND_MODES = {
    "rocprofiler": ["pcsampling", "periodic_flushing"],
    "roctracer": ["periodic_flushing"],
    "cupti": ["pcsampling", "periodic_flushing"],
}


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
def gelu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476)), mask=mask)


def parse_args(argv):
    parser = UsageParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=positive_int, default=1 << 22, help="elements (1<<22)")
    parser.add_argument("--iters", type=positive_int, default=50, help="kernel launches (50)")
    parser.add_argument("--backend", choices=sorted(BACKEND_MODES),
                        help="start a Proton session with this backend (standalone capture)")
    parser.add_argument("--backend-mode", choices=["pcsampling", "periodic_flushing"],
                        help="Proton mode for --backend")
    args = parser.parse_args(argv)
    if args.backend_mode is not None:
        if args.backend is None:
            parser.error("--backend-mode requires --backend")
        if args.backend_mode not in BACKEND_MODES[args.backend]:
            parser.error(f"--backend {args.backend} accepts --backend-mode "
                         f"{' or '.join(BACKEND_MODES[args.backend])}, not {args.backend_mode}")
    return args


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
        "mode": args.backend_mode or os.environ.get("AORTA_PROTON_MODE"),
        "hook": os.environ.get("AORTA_PROTON_HOOK"),
    }


def backend_unavailable(backend):
    """A message when this Triton's Proton cannot offer `backend`, else None."""
    registry = getattr(libproton, "get_available_profilers", None)
    if registry is None:
        if backend in PRE_REGISTRY_BACKENDS:
            return None
        return (f"{PREFIX}: Triton {triton.__version__} has no libproton.get_available_profilers, "
                f"so its Proton predates the backend registry and cannot offer {backend!r} (it has "
                f"only {PRE_REGISTRY_BACKENDS}). Use a Triton with the {backend} backend "
                f"(rocprofiler: 3.8.0 or newer), or --backend roctracer.")
    available = sorted(str(name) for name in registry())
    if backend in available:
        return None
    return (f"{PREFIX}: this Triton's Proton ({triton.__version__}) offers {available}, not "
            f"{backend!r}. Use a Triton built with that backend, or pick one of those.")


def explain_start_failure(session, error):
    """Exit-2 lines for the start() failures whose cause and fix are known, else None."""
    text = str(error)
    refused = (f"{PREFIX}: Proton refused backend={session['backend']!r} with "
               f"mode={session['mode']!r}: {text}")
    if "unsupported mode" in text:
        return [refused,
                f"{PREFIX}: the backend exists on this Triton but does not support that mode. AMD "
                "pcsampling landed after the 3.8.0 tag, so it needs an upstream `main` build; "
                "`periodic_flushing` works on 3.8.0."]
    if "Could not load" in text:
        return [f"{PREFIX}: Proton could not start: {text}",
                f"{PREFIX}: Proton dlopens the unversioned library name; ROCm from Python wheels "
                "ships only versioned sonames. Put a directory of unversioned symlinks on "
                "$LD_LIBRARY_PATH, or use an image with a system ROCm install."]
    if "VISIBLE_DEVICES" in text:
        return [refused,
                f"{PREFIX}: Proton on AMD rejects HIP_VISIBLE_DEVICES and CUDA_VISIBLE_DEVICES for "
                "this backend; unset them and pin the GPU with ROCR_VISIBLE_DEVICES (aorta's "
                "collector does this translation for you)."]
    return None


def main(argv=None):
    args = parse_args(argv)
    if not torch.cuda.is_available():
        print(f"{PREFIX}: no GPU visible to torch; refusing to run on CPU", file=sys.stderr)
        return 2
    device = torch.device("cuda")
    print(f"{PREFIX}: device={torch.cuda.get_device_name(device)}")
    print(f"{PREFIX}: size={args.size} iters={args.iters} triton={triton.__version__}")

    session = session_arguments(args)
    if session is not None and session["backend"] is not None:
        message = backend_unavailable(session["backend"])
        if message is not None:
            print(message, file=sys.stderr)
            return 2

    generator = torch.Generator(device=device).manual_seed(1234)
    x = torch.randn(args.size, device=device, generator=generator)
    out = torch.empty_like(x)
    grid = (triton.cdiv(args.size, BLOCK_SIZE),)

    if session is not None:
        name = session.pop("name")
        try:
            proton.start(name, **session)
        except Exception as error:  # noqa: BLE001 - classified below, unknown ones re-raised
            lines = explain_start_failure(session, error)
            if lines is None:
                raise
            print("\n".join(lines), file=sys.stderr)
            return 2
    try:
        for _ in range(args.iters):
            gelu_kernel[grid](x, out, args.size, BLOCK_SIZE=BLOCK_SIZE)
        torch.cuda.synchronize(device)
    finally:
        if session is not None:
            proton.finalize()

    max_abs_err = (out - torch.nn.functional.gelu(x)).abs().max().item()
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
