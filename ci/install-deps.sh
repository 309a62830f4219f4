#!/usr/bin/env bash
# Installs exactly the Debian packages aorta needs that are missing. Safe to run twice.
set -euo pipefail

packages=(
  cmake g++ make pkg-config git python3
  libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libfmt-dev libsqlite3-dev
  libre2-dev
  # The PostgreSQL history store (libpq) and a real server for its tests (tests/history/); the
  # server is started by the test itself in a temporary directory, its service never enabled.
  libpq-dev postgresql
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-14 libclang-rt-14-dev
  # LLVM's linker for both CI builds (AORTA_USE_LLD): an ASan test program links in a fifth of
  # the time GNU ld takes.
  lld
  valgrind
  # ci/test.sh compiles through ccache (build/ccache, kept for the next local run).
  ccache
  # Multi-rank and Slurm tests: a real mpirun (tests/cli/ranks.cmake) and a local Slurm cluster
  # started by the `slurm` test itself (tests/slurm/); their services are never enabled.
  openmpi-bin munge slurmctld slurmd slurm-client
  # Renders report.html headless in aorta.report.chromium (installs in under a minute here).
  chromium
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=()
if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
  "${missing[@]}"
