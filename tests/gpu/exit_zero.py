"""A Proton payload that ends with sys.exit(0): the sharp edge aorta must catch.

Under `python -m triton.profiler.proton` on Triton 3.6.0 a SystemExit(0) skips Proton's finalize(),
so no .hatchet is written and the process still exits 0 (seen on an H200). aorta must fail the
trial as an empty capture and name this cause, never pass it.
"""

import sys

import triton.profiler  # isort: skip  # noqa: I001, F401
import torch

if not torch.cuda.is_available():
    print("exit_zero: no GPU visible to torch; refusing to run on CPU", file=sys.stderr)
    sys.exit(2)

x = torch.ones(1 << 20, device="cuda")
print("exit_zero: sum", (x + x).sum().item())
sys.exit(0)
