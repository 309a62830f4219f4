"""Issue 43, GPU: the same fp32 GEMM, alone (AB_CORUN=0) or beside a busy CUDA process (AB_CORUN=1).

The neighbour is started by the calling script outside aorta and Proton (corun_daemon.sh): this
payload switches it on through a file after its own warm-up and off before it exits, so both
cells launch the same kernels with the same shapes; only the GPU time the driver gives them
differs. Exit 2 when this host cannot run it (the recipe's environment exit code).
"""
import os
import pathlib
import sys
import time

try:
    import torch
except ImportError:
    sys.exit(2)
if not torch.cuda.is_available():
    sys.exit(2)
torch.backends.cuda.matmul.allow_tf32 = False
go = pathlib.Path(os.environ.get("AB_CORUN_GO", "/tmp/h43r-go"))
ready = pathlib.Path(os.environ.get("AB_CORUN_READY", "/tmp/h43r-ready"))
loaded = os.environ.get("AB_CORUN") == "1"
n = int(os.environ.get("AB_GEMM_N", "8192"))
a = torch.randn(n, n, device="cuda")
b = torch.randn(n, n, device="cuda")
torch.mm(a, b)
torch.cuda.synchronize()


def wait_for(predicate, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return False


if loaded:
    go.touch()
    if not wait_for(ready.exists, 15):
        go.unlink(missing_ok=True)
        print("gemm_corun: no neighbour in 15 s", file=sys.stderr)
        sys.exit(2)
start = time.perf_counter()
for _ in range(20):
    c = torch.mm(a, b)
torch.cuda.synchronize()
wall = time.perf_counter() - start
if loaded:
    go.unlink(missing_ok=True)
    wait_for(lambda: not ready.exists(), 10)
print(f"gemm_corun: n={n} loaded={int(loaded)} 20 launches in {wall * 1000:.1f} ms")
