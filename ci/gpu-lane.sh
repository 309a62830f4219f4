#!/usr/bin/env bash
# The GPU lane: every profiled test (`ctest -L profiling`) spread over this machine's GPUs through a
# CTest resource spec, then the aggregate report.
#
# usage: ci/gpu-lane.sh [BUILD_DIR]
#   BUILD_DIR  a build tree to test (default build/gpu). When it has not been configured yet, it
#              is configured with AORTA_REQUIRE_PROFILER=ON, so that a GPU lane can never go green
#              by skipping everything, and built.
# A build made elsewhere works too when it sits at the same absolute path (CTest files name it).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/gpu}

if [[ ! -f "$build/CTestTestfile.cmake" ]]; then
  bash ci/install-deps.sh
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DAORTA_REQUIRE_PROFILER=ON \
    -DAORTA_BUILD_TESTS=OFF -DAORTA_BUILD_BENCHMARKS=OFF
  cmake --build "$build" --parallel "$(nproc 2>/dev/null || echo 2)"
fi

spec=$(mktemp --suffix=.json)
trap 'rm -f "$spec"' EXIT
bash ci/make-resource-spec.sh "$spec"
gpus=$(grep -o '"id"' "$spec" | wc -l)
echo "gpu-lane: $gpus GPU(s) in the resource spec"

status=0
ctest --test-dir "$build" -L profiling --output-on-failure --resource-spec-file "$spec" \
  --parallel "$((gpus > 0 ? gpus : 1))" || status=$?
if [[ -d "$build/aorta-results" ]]; then
  echo "gpu-lane: report in $build/aorta-results (perf.md, matrix.json, report.html)"
fi
exit "$status"
