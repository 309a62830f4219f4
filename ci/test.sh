#!/usr/bin/env bash
# The whole test suite: deps, configure (warnings as errors), build, every CTest test.
set -euo pipefail
cd "$(dirname "$0")/.."

bash ci/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake --preset ci
cmake --build --preset ci --parallel "$jobs"
ctest --preset ci --parallel "$jobs"
