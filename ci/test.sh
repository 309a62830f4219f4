#!/usr/bin/env bash
# The whole test suite: deps, configure (warnings as errors), build, every CTest test; then the
# suite again under AddressSanitizer + UndefinedBehaviorSanitizer, and brief fuzzing. Prints how
# long each stage took and a summary at the end (the main job must stay within minutes).
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=$(nproc 2>/dev/null || echo 2)
suite_start=$SECONDS
stage_start=$SECONDS
timings=()
stage_done() {
  local took=$((SECONDS - stage_start))
  timings+=("$(printf '%-34s %4d min %02d s' "$1" $((took / 60)) $((took % 60)))")
  echo "test: ---- $1 done in ${took} s (suite at $((SECONDS - suite_start)) s)"
  stage_start=$SECONDS
}
print_timings() {
  local status=$?
  echo "test: ==== stage timings ===="
  printf 'test:   %s\n' "${timings[@]}"
  echo "test:   total $((SECONDS - suite_start)) s, exit $status"
}
trap print_timings EXIT

bash ci/install-deps.sh
stage_done "install dependencies"

# The Python environments come from PyPI (network, little CPU): they install while the CI build
# compiles, and are handed to CMake after it.
mkdir -p build/venvs
# Real Proton CLIs of several Triton releases (PyPI wheels, no GPU needed), for tests/proton_cli.
triton_versions=(3.5.1 3.6.0 3.8.0 3.9.0)
bash ci/proton-venvs.sh build/triton "${triton_versions[@]}" >build/venvs/proton.txt \
  2>build/venvs/proton.log &
proton_pid=$!
# SciPy, the independent implementation tests/stats checks the gate's statistics against.
bash ci/scipy-venv.sh build/scipy >build/venvs/scipy.txt 2>build/venvs/scipy.log &
scipy_pid=$!

# One compiler cache for the build and for the consumer test that compiles aorta again with the
# same flags (tests/cmake/consumer_tests.cmake; only with -DAORTA_UNITY_BUILD=OFF, as unity batch
# files differ per build directory); kept inside build/, never shared between clones.
# No CCACHE_BASEDIR: it would rewrite the source paths relative to each build directory, and the
# consumer's build directory sits deeper than the CI build's, so no object would be shared.
if command -v ccache >/dev/null; then
  # The sloppiness lets ccache cache the compiles that use a precompiled header.
  export CCACHE_DIR="$PWD/build/ccache" CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=pch_defines,time_macros
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
else
  echo "test: WARNING: no ccache; a local rerun compiles everything again"
  launcher=()
fi
# Build speed: the unit tests' own code unoptimized and their third-party headers precompiled
# (the harness and the CLI they test keep -O2); compiling the tests was two thirds of this build.
# The harness's headers are not precompiled here: in 15 unity batches gcc gained nothing from it.
fast_build=(-DAORTA_UNOPTIMIZED_TEST_CODE=ON -DAORTA_PRECOMPILE_TEST_HEADERS=ON -DAORTA_USE_LLD=ON)
cmake --preset ci "${launcher[@]}" "${fast_build[@]}"
cmake --build --preset ci --parallel "$jobs"
stage_done "CI build (gcc, -Werror)"

wait "$proton_pid" || true
wait "$scipy_pid" || true
cat build/venvs/proton.log build/venvs/scipy.log >&2
proton_pythons=$(cat build/venvs/proton.txt)
scipy_python=$(cat build/venvs/scipy.txt)
if [[ -z "$proton_pythons" ]]; then
  echo "test: WARNING: no Triton could be installed; the Proton CLI compatibility tests do not run"
fi
# Only test definitions read these two: configuring again rebuilds nothing.
cmake --preset ci "-DAORTA_PROTON_CLI_PYTHONS=$proton_pythons" \
  "-DAORTA_SCIPY_PYTHON=$scipy_python" >/dev/null
stage_done "Python environments (waited for)"

ctest --preset ci --parallel "$jobs"
stage_done "CI tests"

# The same suite under AddressSanitizer and UndefinedBehaviorSanitizer, built by clang with the
# libFuzzer targets in the same build (the CLI end-to-end tests included; profiling and packaging
# tests are left to the build above, so the asan preset builds no examples).
# Nothing here is cached (no launcher), so the harness, the CLI and the test and fuzz programs
# precompile their third-party headers (README.md, "Building").
cmake --preset asan "${fast_build[@]}" -DAORTA_PRECOMPILE_HARNESS_HEADERS=ON
cmake --build --preset asan --parallel "$jobs"
stage_done "ASan+UBSan build (clang, fuzzers)"
ctest --preset asan --parallel "$jobs"
stage_done "ASan+UBSan tests"

# Every libFuzzer target over its seed corpus, then a few seconds of fuzzing each: regressions of
# the readers and parsers (tests/fuzz/README.md; `ci/fuzz.sh --long SECONDS` runs them long).
FUZZ_PRESET=asan bash ci/fuzz.sh
stage_done "fuzzing"
