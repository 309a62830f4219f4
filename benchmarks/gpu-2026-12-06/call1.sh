#!/usr/bin/env bash
# Round 15, call 1: (a) Proton cupti PC sampling through the env route and through the CLI route
# (the argv aorta's proton collector builds for mode: cli), on the amd-rocprofiler example's GELU
# and on a Triton matmul; (b) per-launch GEMM times across 60 processes (issue 39 item 9 data).
set -u
here=benchmarks/gpu-2026-12-06
{ nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader; python3 -c 'import torch,triton;print("torch",torch.__version__,"triton",triton.__version__)'; } | tee "$OUT/machine.txt"
gelu=examples/profiling/proton/amd-rocprofiler/gelu.py
mkdir -p /tmp/pc/env /tmp/pc/cli /tmp/pc/mm
# env route: exactly the bundle aorta's proton collector exports for mode: env
AORTA_PROTON_DIR=/tmp/pc/env AORTA_PROTON_NAME=/tmp/pc/env/proton AORTA_PROTON_CONTEXT=shadow \
AORTA_PROTON_DATA=tree AORTA_PROTON_BACKEND=cupti AORTA_PROTON_MODE=pcsampling \
  python3 $gelu --iters 50 2>&1 | tail -5; echo "env rc=$?"
# CLI route: exactly proton_cli_argv() for backend cupti, backend_mode pcsampling
python3 -m triton.profiler.proton -n /tmp/pc/cli/proton -b cupti --context shadow --data tree \
  --mode pcsampling $gelu --iters 50 2>&1 | tail -5; echo "cli rc=${PIPESTATUS[0]}"
AORTA_PROTON_DIR=/tmp/pc/mm AORTA_PROTON_NAME=/tmp/pc/mm/proton AORTA_PROTON_CONTEXT=shadow \
AORTA_PROTON_DATA=tree AORTA_PROTON_BACKEND=cupti AORTA_PROTON_MODE=pcsampling \
  python3 $here/pcsample_matmul.py 2>&1 | tail -5
ls -la /tmp/pc/*
cp /tmp/pc/env/proton.hatchet "$OUT/gelu-pcsampling-env.hatchet"
cp /tmp/pc/cli/proton.hatchet "$OUT/gelu-pcsampling-cli.hatchet"
cp /tmp/pc/mm/proton.hatchet "$OUT/matmul-pcsampling-env.hatchet"
python3 $here/modes_driver.py --processes 20 --out "$OUT/gemm-modes.json" 2>&1 | tail -3
nvidia-smi --query-gpu=temperature.gpu,clocks.sm --format=csv,noheader | tee -a "$OUT/machine.txt"
