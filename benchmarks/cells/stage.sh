#!/usr/bin/env bash
# Copies what cells_bench.sh needs into DIR (default /work/main/.gpu/cells, ignored by git, which
# the device tool carries): a stripped aorta, the Debian libraries the GPU image lacks, the
# proton-ab payload and recipe, and the script itself as run.sh.
# usage: benchmarks/cells/stage.sh BUILD_DIR [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
dir=${2:-/work/main/.gpu/cells}
source "$root/benchmarks/stage_aorta.sh"
stage_aorta "$build" "$dir" 'libsqlite3.so.0*'
cp "$root/examples/cells/proton-ab/gemm_ab.py" "$dir/"
cp "$root/benchmarks/cells/cells_bench.sh" "$dir/run.sh"
du -sh "$dir"
