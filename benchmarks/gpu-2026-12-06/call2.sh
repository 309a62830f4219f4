#!/usr/bin/env bash
# Round 15, call 2: the proton/nvidia-pcsampling example through aorta (sweep run, mode: env) and
# the same recipe switched to mode: cli, which must fail naming the dropped --mode.
set -u
here=$PWD/.gpu/aorta
export LD_LIBRARY_PATH=$here/lib
aorta=$here/aorta
ex=examples/profiling/proton/nvidia-pcsampling
{ nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader; python3 -c 'import torch,triton;print("torch",torch.__version__,"triton",triton.__version__)'; } | tee "$OUT/machine.txt"
$aorta sweep run --recipe $ex/recipe.yaml --output /tmp/pc-env -- python3 $ex/matmul.py --size 2048 --iters 20 2>&1 | tail -25; echo "env rc=${PIPESTATUS[0]}"
sed 's/mode: "env"/mode: "cli"/' $ex/recipe.yaml > /tmp/recipe.cli.yaml
$aorta sweep run --recipe /tmp/recipe.cli.yaml --output /tmp/pc-cli -- python3 $ex/matmul.py --size 2048 --iters 20 2>&1 | tail -12
echo "cli rc=${PIPESTATUS[0]}"
$aorta view /tmp/pc-env/trial_0/proton 2>&1 | head -20
cp /tmp/pc-env/trial_0/result.json "$OUT/env-result.json"
cp /tmp/pc-env/trial_0/proton/proton.hatchet "$OUT/env-matmul.hatchet"
cp /tmp/pc-cli/trial_0/result.json "$OUT/cli-result.json"
