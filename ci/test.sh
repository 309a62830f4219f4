#!/usr/bin/env bash
# The whole test suite: deps, configure (warnings as errors), build, every CTest test.
set -euo pipefail
cd "$(dirname "$0")/.."

bash ci/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
# Real Proton CLIs of several Triton releases (PyPI wheels, no GPU needed), for tests/proton_cli.
triton_versions=(3.5.1 3.6.0 3.8.0 3.9.0)
proton_pythons=$(bash ci/proton-venvs.sh build/triton "${triton_versions[@]}")
if [[ -z "$proton_pythons" ]]; then
  echo "test: WARNING: no Triton could be installed; the Proton CLI compatibility tests do not run"
fi
# SciPy from PyPI, the independent implementation tests/stats checks the gate's statistics against.
scipy_python=$(bash ci/scipy-venv.sh build/scipy)
cmake --preset ci "-DAORTA_PROTON_CLI_PYTHONS=$proton_pythons" "-DAORTA_SCIPY_PYTHON=$scipy_python"
cmake --build --preset ci --parallel "$jobs"
ctest --preset ci --parallel "$jobs"

# The same suite once more under AddressSanitizer and UndefinedBehaviorSanitizer (the CLI end-to-end
# tests included; profiling and packaging tests are left to the build above, so the asan preset
# builds no examples: their tests are profiling tests, which never run here).
cmake --preset asan
cmake --build --preset asan --parallel "$jobs"
ctest --preset asan --parallel "$jobs"

# Every libFuzzer target over its seed corpus, then 15 s of fuzzing each: regressions of the
# readers and parsers (tests/fuzz/README.md; `ci/fuzz.sh --long SECONDS` runs them long).
bash ci/fuzz.sh
