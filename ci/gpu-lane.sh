#!/usr/bin/env bash
# The GPU lane: every profiled test (`ctest -L profiling`) spread over this machine's GPUs through a
# CTest resource spec, then the aggregate report.
#
# usage: ci/gpu-lane.sh [BUILD_DIR]
#   BUILD_DIR  a build tree to test (default build/gpu). When it has not been configured yet, it
#              is configured with AORTA_REQUIRE_PROFILER=ON, so that a GPU lane can never go green
#              by skipping everything, and AORTA_LANE_PLATFORMS set to this machine's GPU vendor
#              (or $AORTA_LANE_PLATFORMS), so that tests for another platform (rocprof on NVIDIA,
#              callgrind where valgrind is not the point) report Skipped as not applicable
#              instead of failing; then built.
# A build made elsewhere works too when it sits at the same absolute path (CTest files name it).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/gpu}

# The GPU vendors this machine has, as AORTA_LANE_PLATFORMS words.
detect_platforms() {
  local found=()
  if [[ -e /proc/driver/nvidia/version || -e /dev/nvidiactl ]]; then found+=(nvidia); fi
  if [[ -e /dev/kfd ]]; then found+=(amd); fi
  local IFS=,
  echo "${found[*]}"
}

if [[ ! -f "$build/CTestTestfile.cmake" ]]; then
  platforms=${AORTA_LANE_PLATFORMS:-$(detect_platforms)}
  if [[ -z "$platforms" ]]; then
    echo "gpu-lane: no NVIDIA or AMD GPU driver found; set AORTA_LANE_PLATFORMS to say what this lane covers" >&2
    exit 2
  fi
  bash ci/install-deps.sh
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DAORTA_REQUIRE_PROFILER=ON \
    "-DAORTA_LANE_PLATFORMS=$platforms" \
    -DAORTA_BUILD_TESTS=OFF -DAORTA_BUILD_BENCHMARKS=OFF
  cmake --build "$build" --parallel "$(nproc 2>/dev/null || echo 2)"
fi

echo "gpu-lane: $(grep -E '^AORTA_(REQUIRE_PROFILER|LANE_PLATFORMS):' "$build/CMakeCache.txt" | tr '\n' ' ')"

spec=$(mktemp --suffix=.json)
trap 'rm -f "$spec"' EXIT
bash ci/make-resource-spec.sh "$spec"
gpus=$(grep -o '"id"' "$spec" | wc -l)
echo "gpu-lane: $gpus GPU(s) in the resource spec"

status=0
ctest --test-dir "$build" -L profiling --output-on-failure --resource-spec-file "$spec" \
  --parallel "$((gpus > 0 ? gpus : 1))" || status=$?
if [[ -d "$build/aorta-results" ]]; then
  echo "gpu-lane: report in $build/aorta-results (perf.md, report.json, report.html)"
fi
exit "$status"
