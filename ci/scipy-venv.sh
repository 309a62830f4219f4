#!/usr/bin/env bash
# Makes a virtualenv with SciPy from PyPI, the independent implementation tests/stats checks
# aorta's Mann-Whitney U against. Prints the interpreter on stdout (nothing when SciPy could not be
# installed: the test then reports Skipped with the reason); progress and problems on stderr.
# usage: ci/scipy-venv.sh DIR
set -uo pipefail
venv=$(realpath -m "$1")
python="$venv/bin/python"
if ! "$python" -c 'import scipy.stats' 2>/dev/null; then
  echo "scipy-venv: installing scipy into $venv" >&2
  rm -rf "$venv"
  if ! { python3 -m venv "$venv" && "$python" -m pip install -q --disable-pip-version-check \
      scipy; } >&2; then
    echo "scipy-venv: WARNING: could not install scipy; the statistics cross-check is skipped" >&2
    exit 0
  fi
fi
echo "$python"
