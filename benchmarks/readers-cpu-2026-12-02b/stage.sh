#!/usr/bin/env bash
# Stages what run.sh needs on a machine without aorta's Debian packages into DIR (default
# .gpu/anchors): the ci build's aorta (stripped), the sweep-overhead benchmark, simdjson's
# On-Demand walk, Debian's sqlite3 CLI, the shared libraries they link and pysimdjson wheels for
# the target's Python (PYTHON_VERSION, default 3.12).
# usage: stage.sh BUILD_DIR [DIR]
set -euo pipefail
build=${1:?usage: stage.sh BUILD_DIR [DIR]}
dir=${2:-.gpu/anchors}
mkdir -p "$dir"/{bin,lib,real,wheels}
install -s "$build/harness/aorta" "$dir/real/aorta"
install -s "$build/benchmarks/aorta.bench.sweep_overhead" "$dir/real/sweep_overhead"
install -s "$build/benchmarks/aorta.anchor.simdjson_walk" "$dir/real/simdjson_walk"
install /usr/bin/sqlite3 "$dir/real/sqlite3"
for lib in libfmt.so.9 libyaml-cpp.so.0.7 libre2.so.9 libsqlite3.so.0 libreadline.so.8 \
           libbenchmark.so.1debian libsimdjson.so.14; do
  cp -L "/lib/x86_64-linux-gnu/$lib" "$dir/lib/"
done
for program in aorta sqlite3 simdjson_walk sweep_overhead; do
  printf '#!/usr/bin/env bash\nhere=$(cd "$(dirname "$0")/.." && pwd)\nLD_LIBRARY_PATH=$here/lib exec "$here/real/%s" "$@"\n' \
    "$program" >"$dir/bin/$program"
  chmod +x "$dir/bin/$program"
done
python3 -m pip download -q --only-binary=:all: --no-deps --python-version "${PYTHON_VERSION:-3.12}" \
  --platform manylinux2014_x86_64 -d "$dir/wheels" pysimdjson
