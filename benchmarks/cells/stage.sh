#!/usr/bin/env bash
# Copies what cells_bench.sh needs into DIR (default /work/main/.gpu/cells, ignored by git, which
# the device tool carries): a stripped aorta, the Debian libraries the GPU image lacks, the
# proton-ab payload and recipe, and the script itself as run.sh.
# usage: benchmarks/cells/stage.sh BUILD_DIR [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
dir=${2:-/work/main/.gpu/cells}
rm -rf "$dir"
mkdir -p "$dir/lib"
strip -o "$dir/aorta" "$build/harness/aorta"
cp /usr/lib/x86_64-linux-gnu/libfmt.so.9* /usr/lib/x86_64-linux-gnu/libyaml-cpp.so.0.7* \
  /usr/lib/x86_64-linux-gnu/libre2.so.9* /usr/lib/x86_64-linux-gnu/libsqlite3.so.0* "$dir/lib/"
cp "$root/examples/cells/proton-ab/gemm_ab.py" "$dir/"
cp "$root/benchmarks/cells/cells_bench.sh" "$dir/run.sh"
du -sh "$dir"
