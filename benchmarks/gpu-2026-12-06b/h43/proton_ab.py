"""Proton A/B payload of issue 43: a bf16 GEMM with a work knob and a background-load knob.

AB_EXTRA_LAUNCHES=N adds N launches of the same GEMM (the cell that does more work).
AB_CONTEND=1 runs the same fp32 load GEMMs on a side stream *while* the bf16 GEMMs run, instead of
after them: both cells launch the same kernels the same number of times, only the contention (the
stand-in for clocks or another tenant) differs.

Exit codes: 0 PASS, 2 no torch/GPU, 64 usage error.
"""

import os
import sys

try:
    import triton.profiler  # isort: skip  # noqa: I001, F401  (Proton before torch)
    import torch
except ImportError as exc:
    print(f"proton_ab: cannot import {exc.name!r}", file=sys.stderr)
    sys.exit(2)


def knob(name, default, limit):
    text = os.environ.get(name, str(default))
    if not text.isdigit() or int(text) > limit:
        print(f"proton_ab: {name} must be 0..{limit}, got {text!r}", file=sys.stderr)
        sys.exit(64)
    return int(text)


def main():
    extra = knob("AB_EXTRA_LAUNCHES", 0, 1000)
    contend = knob("AB_CONTEND", 0, 1) == 1
    iters = knob("AB_ITERS", 40, 10000)
    if not torch.cuda.is_available():
        print("proton_ab: no GPU visible to torch", file=sys.stderr)
        return 2
    torch.backends.cuda.matmul.allow_tf32 = False
    gen = torch.Generator(device="cuda").manual_seed(43)
    a = torch.rand(2048, 2048, device="cuda", generator=gen, dtype=torch.bfloat16)
    b = torch.rand(2048, 2048, device="cuda", generator=gen, dtype=torch.bfloat16)
    out = torch.empty(2048, 2048, device="cuda", dtype=torch.bfloat16)
    big = torch.rand(4096, 4096, device="cuda", generator=gen)
    big_out = torch.empty_like(big)
    torch.cuda.synchronize()
    side = torch.cuda.Stream()

    def load():
        with torch.cuda.stream(side):
            for _ in range(4):
                torch.mm(big, big, out=big_out)

    if contend:
        load()
    for _ in range(iters + extra):
        torch.mm(a, b, out=out)
    if not contend:
        torch.cuda.synchronize()
        load()
    torch.cuda.synchronize()
    print(f"proton_ab: {iters + extra} bf16 GEMMs, load {'during' if contend else 'after'}; "
          f"checksum {float(out.float().sum()):.3e}")
    return 0


if __name__ == "__main__":
    # No SystemExit(0) on success: Triton 3.6.0's Proton CLI would then skip finalize() and write
    # no .hatchet (the first GPU call of this script lost both Proton runs to it).
    rc = main()
    if rc:
        sys.exit(rc)
