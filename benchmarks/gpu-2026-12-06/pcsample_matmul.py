"""A Triton bf16 matmul with a K loop, under Proton PC sampling started by the payload itself
(the env route: aorta's AORTA_PROTON_* bundle). More source lines and stall kinds than a GELU."""
import os
import sys

import triton.profiler as proton  # isort: skip  # noqa: I001  (Proton before torch)
import triton
import triton.language as tl
import torch


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.bfloat16))


def main():
    M = N = K = 2048
    dev = torch.device("cuda")
    a = torch.randn(M, K, device=dev, dtype=torch.bfloat16)
    b = torch.randn(K, N, device=dev, dtype=torch.bfloat16)
    c = torch.empty(M, N, device=dev, dtype=torch.bfloat16)
    grid = (M // 128, N // 128)
    proton.start(os.environ["AORTA_PROTON_NAME"], context="shadow", data="tree",
                 backend=os.environ.get("AORTA_PROTON_BACKEND"),
                 mode=os.environ.get("AORTA_PROTON_MODE"))
    for _ in range(20):
        matmul_kernel[grid](a, b, c, M, N, K, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64)
    torch.cuda.synchronize()
    proton.finalize()
    err = (c.float() - (a.float() @ b.float())).abs().max().item()
    print(f"matmul: max_abs_err={err:.3e}")
    return 0 if err < 2.0 else 1


if __name__ == "__main__":
    rc = main()
    if rc:
        sys.exit(rc)
