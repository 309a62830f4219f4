#!/usr/bin/env bash
# Round 15, call 3: the proton/nvidia-pcsampling example through aorta after the PC-sample check
# forms landed (its recipe's line-share check), and aorta check on that capture with stall checks.
set -u
here=$PWD/.gpu/aorta
aorta=$here/aorta
# libpq's own dependencies (Debian 12's) only where the image lacks them, so the payload, which
# inherits the variable, keeps the image's libssl and friends.
mkdir -p /tmp/libmissing
for pass in 1 2 3; do  # a library found on one pass can name missing ones of its own
  for name in $(LD_LIBRARY_PATH=$here/lib:/tmp/libmissing ldd $aorta | awk '/not found/{print $1}'); do
    ln -sf $here/libx/$name /tmp/libmissing/$name
  done
done
export LD_LIBRARY_PATH=$here/lib:/tmp/libmissing
LD_LIBRARY_PATH=$LD_LIBRARY_PATH ldd $aorta | grep -c "not found"
ls /tmp/libmissing
ex=examples/profiling/proton/nvidia-pcsampling
{ nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader; python3 -c 'import torch,triton;print("torch",torch.__version__,"triton",triton.__version__)'; } | tee "$OUT/machine.txt"
for run in 1 2 3; do
  $aorta sweep run --recipe $ex/recipe.yaml --output /tmp/pc-$run -- python3 $ex/matmul.py --size 2048 --iters 20 2>&1 | tail -4
  echo "run $run rc=${PIPESTATUS[0]}"
  $aorta check /tmp/pc-$run/trial_0 --check 'samples(^matmul_kernel$, matmul\.py:63$) / samples(^matmul_kernel$) > 0' \
    --check 'samples(^matmul_kernel$, matmul\.py:60$) / samples(^matmul_kernel$) > 0' \
    --check 'stalls(^matmul_kernel$, long_scoreboard) / stalls(^matmul_kernel$, .) > 0' 2>&1 | grep -E "check|rc"
done
$aorta view /tmp/pc-1/trial_0/proton -m samples,stalled,time/ms 2>&1 | head -14
cp /tmp/pc-1/trial_0/result.json "$OUT/run1-result.json"
