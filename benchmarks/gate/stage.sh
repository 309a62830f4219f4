#!/usr/bin/env bash
# Copies what gate_bench.sh needs into DIR (default /work/main/.gpu/gate): a stripped aorta, the
# Debian libraries Ubuntu lacks, the Proton example payloads and recipes, the callgrind example
# for a local rehearsal (GATE_BENCH_LOCAL=1), and the script itself as run.sh.
# usage: benchmarks/gate/stage.sh BUILD_DIR [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
dir=${2:-/work/main/.gpu/gate}
source "$root/benchmarks/stage_aorta.sh"
stage_aorta "$build" "$dir"
cp "$root/examples/profiling/proton/triton-vecadd/vecadd.py" "$dir/"
cp "$root/examples/profiling/proton/triton-vecadd/recipe.yaml" "$dir/vecadd.yaml"
cp "$root/examples/profiling/proton/triton-softmax/softmax.py" "$dir/"
cp "$root/examples/profiling/proton/triton-softmax/recipe.yaml" "$dir/softmax.yaml"
cp "$root/examples/profiling/callgrind/cpu-hotspot/recipe.yaml" "$dir/callgrind.yaml"
cp "$build/examples/aorta_example_cpu_hotspot" "$dir/cpu_hotspot"
cp "$root/benchmarks/gate/gemm.py" "$dir/"
# The GEMM payload under the vecadd recipe without its check (add_kernel is not launched).
sed -e '/^check:$/,$d' "$root/examples/profiling/proton/triton-vecadd/recipe.yaml" > "$dir/gemm.yaml"
cp "$root/benchmarks/gate/gate_bench.sh" "$dir/run.sh"
cp -r "$root/benchmarks/gate/h200-2026-11-30/baselines" "$dir/baselines-2026-11-30"
du -sh "$dir"
