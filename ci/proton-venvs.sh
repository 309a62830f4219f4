#!/usr/bin/env bash
# Makes one virtualenv per Triton version with that release's wheel from PyPI (no GPU needed to
# install or import it), for tests/proton_cli, which checks aorta's proton wraps against each
# release's real Proton CLI. Prints the interpreters, ';'-separated, on stdout; progress and
# problems on stderr. A version that cannot be installed is reported and left out.
# usage: ci/proton-venvs.sh DIR VERSION...
set -uo pipefail
# Absolute, since the interpreters are used from other working directories (CTest's).
root=$(realpath -m "$1")
shift
pythons=()
for version in "$@"; do
  venv="$root/triton-$version"
  python="$venv/bin/python"
  installed=$("$python" -c 'import importlib.metadata as m; print(m.version("triton"))' 2>/dev/null)
  if [[ "$installed" != "$version" ]]; then
    echo "proton-venvs: installing triton==$version into $venv" >&2
    rm -rf "$venv"
    if ! { python3 -m venv "$venv" && "$python" -m pip install -q --disable-pip-version-check \
        "triton==$version"; } >&2; then
      echo "proton-venvs: WARNING: could not install triton==$version; its Proton CLI will not" \
           "be checked" >&2
      continue
    fi
  fi
  pythons+=("$python")
done
(IFS=';'; echo "${pythons[*]}")
