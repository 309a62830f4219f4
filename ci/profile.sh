#!/usr/bin/env bash
# The main job: every profiled test (`ctest -L profiling`), then the aggregate report.
# Tests whose profiler or GPU is missing report Skipped with the reason; pass
# -DAORTA_REQUIRE_PROFILER=ON through AORTA_CMAKE_ARGS to make such skips failures.
set -euo pipefail
cd "$(dirname "$0")/.."

bash ci/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
build=${AORTA_BUILD_DIR:-build/ci}
# shellcheck disable=SC2086 # AORTA_CMAKE_ARGS is a list of -D flags on purpose
cmake --preset ci -B "$build" ${AORTA_CMAKE_ARGS:-}
# Only what the profiled tests run (aorta and the example payloads), not the whole test suite.
cmake --build "$build" --parallel "$jobs" --target aorta_profiled_tests

status=0
ctest --test-dir "$build" -L profiling --output-on-failure --no-tests=ignore \
  --parallel "$jobs" || status=$?

echo
echo "profile: ctest -L profiling exited $status"
if [[ -d "$build/aorta-results" ]]; then
  "$build/harness/aorta" report "$build/aorta-results" || status=$?
  echo "profile: report: $build/aorta-results/report.html (perf.md and report.json beside it)"
fi
exit "$status"
