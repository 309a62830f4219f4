#!/usr/bin/env bash
# Captures the real H200 fixtures under tests/fixtures/ (run on the GPU machine through the device
# tool; see tests/fixtures/README.md). Usage: capture-fixtures.sh <payload dir> <output dir>
# The payload dir holds vecadd.py, hotspot.py and pipeline.py from examples/profiling/proton/.
set -uo pipefail
payloads=$1
out=$2
mkdir -p "$out"
# Neither Proton nor ncu creates the directory it is told to write into: Proton then writes
# nothing and still exits 0 (seen on Triton 3.6.0), ncu refuses the log file.
for d in vecadd_cupti hotspot_instrumentation pipeline_cupti vecadd_python_context exit_zero \
  ncu_vecadd ncu_vecadd_raw ncu_plus_proton ncu_plus_instrumentation; do mkdir -p "$out/$d"; done
step() { echo; echo "=== $*"; }
run() { echo "+ $*"; timeout 300 "$@"; echo "[exit $?]"; }

step versions
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
python3 -c 'import sys, triton, torch; print("python", sys.version.split()[0], "triton", triton.__version__, "torch", torch.__version__, "cuda", torch.version.cuda)'
ncu_bin=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || true)
echo "ncu: ${ncu_bin:-not found}"; [[ -n "$ncu_bin" ]] && "$ncu_bin" --version | tail -1
python3 -c 'from triton._C.libproton import proton as p; print("get_available_profilers:", getattr(p, "get_available_profilers", None) and p.get_available_profilers())'
python3 -m triton.profiler.proton --help | sed -n '1,40p'

step "proton cli, backend auto (cupti): vecadd 20 launches"
run python3 -m triton.profiler.proton -n "$out/vecadd_cupti/proton" --context shadow --data tree \
  "$payloads/vecadd.py" --size 1048576 --iters 20

step "proton env, backend instrumentation: hotspot 5 launches, 2 scopes"
AORTA_PROTON_DIR="$out/hotspot_instrumentation" AORTA_PROTON_NAME="$out/hotspot_instrumentation/proton" \
  AORTA_PROTON_CONTEXT=shadow AORTA_PROTON_DATA=tree AORTA_PROTON_BACKEND=instrumentation \
  AORTA_PROTON_MODE=default run python3 "$payloads/hotspot.py" --size 65536 --steps 8 --iters 5

step "proton env, backend cupti: pipeline 3 kernels x 20"
AORTA_PROTON_DIR="$out/pipeline_cupti" AORTA_PROTON_NAME="$out/pipeline_cupti/proton" \
  AORTA_PROTON_CONTEXT=shadow AORTA_PROTON_DATA=tree AORTA_PROTON_BACKEND=cupti \
  run python3 "$payloads/pipeline.py" --iters 20

step "proton cli, context python: vecadd"
run python3 -m triton.profiler.proton -n "$out/vecadd_python_context/proton" --context python \
  --data tree "$payloads/vecadd.py" --iters 4

step "sys.exit(0) under the proton CLI (expect exit 0 and no hatchet)"
cat > /tmp/exit_zero.py <<'PY'
import sys
import triton.profiler  # noqa: F401
import torch
x = torch.ones(1024, device="cuda"); y = (x + x).sum().item()
print("exit_zero: computed", y)
sys.exit(0)
PY
run python3 -m triton.profiler.proton -n "$out/exit_zero/proton" /tmp/exit_zero.py
ls -la "$out/exit_zero" 2>&1

if [[ -n "$ncu_bin" ]]; then
  step "ncu details csv: vecadd 3 launches"
  run "$ncu_bin" --target-processes all --clock-control none --metrics gpu__time_duration.sum \
    --csv --page details --print-units base --log-file "$out/ncu_vecadd/ncu.csv" \
    python3 "$payloads/vecadd.py" --iters 3 || true
  mkdir -p "$out/ncu_vecadd"
  step "ncu raw csv: vecadd 3 launches"
  mkdir -p "$out/ncu_vecadd_raw"
  run "$ncu_bin" --target-processes all --clock-control none --metrics gpu__time_duration.sum \
    --csv --page raw --print-units base --log-file "$out/ncu_vecadd_raw/ncu.csv" \
    python3 "$payloads/vecadd.py" --iters 3
  step "ncu + proton cupti in one process (expected to fail: cuptiSubscribe error 39)"
  run "$ncu_bin" --target-processes all --clock-control none --metrics gpu__time_duration.sum \
    --csv --log-file "$out/ncu_plus_proton/ncu.csv" python3 -m triton.profiler.proton \
    -n "$out/ncu_plus_proton/proton" "$payloads/vecadd.py" --iters 3
  ls -la "$out/ncu_plus_proton" 2>&1
  step "ncu + proton instrumentation in one process"
  mkdir -p "$out/ncu_plus_instrumentation"
  AORTA_PROTON_DIR="$out/ncu_plus_instrumentation" AORTA_PROTON_NAME="$out/ncu_plus_instrumentation/proton" \
    AORTA_PROTON_BACKEND=instrumentation AORTA_PROTON_MODE=default \
    run "$ncu_bin" --target-processes all --clock-control none --metrics gpu__time_duration.sum \
    --csv --page details --print-units base --log-file "$out/ncu_plus_instrumentation/ncu.csv" \
    python3 "$payloads/hotspot.py" --iters 2
  ls -la "$out/ncu_plus_instrumentation" 2>&1
fi

step "files"
find "$out" -type f -printf '%s\t%p\n' | sort -k2
