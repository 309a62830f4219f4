# shellcheck shell=bash
# Sourced by benchmarks/*/stage.sh: the part of staging every GPU benchmark shares.
# stage_aorta BUILD_DIR DIR [LIBRARY_GLOB...]
#   Empties DIR, writes BUILD_DIR's aorta stripped into it, and copies into DIR/lib the Debian
#   libraries aorta needs that the GPU image lacks (fmt, yaml-cpp, re2, libpq) plus each
#   LIBRARY_GLOB of /usr/lib/x86_64-linux-gnu the benchmark needs too; quote the globs so the
#   caller's shell leaves them alone.
stage_aorta() {
  local build=$1 dir=$2
  shift 2
  local libraries=/usr/lib/x86_64-linux-gnu pattern
  rm -rf "$dir"
  mkdir -p "$dir/lib"
  strip -o "$dir/aorta" "$build/harness/aorta"
  # libpq (the PostgreSQL history store) and the two LDAP libraries it needs that the GPU image
  # lacks (seen on the H200, 2026-12-06).
  for pattern in 'libfmt.so.9*' 'libyaml-cpp.so.0.7*' 'libre2.so.9*' 'libpq.so.5*' 'libldap-2.5.so.0*' \
      'liblber-2.5.so.0*' "$@"; do
    # Unquoted on purpose: the glob expands here; one that matches nothing fails the copy.
    # shellcheck disable=SC2086
    cp "$libraries"/$pattern "$dir/lib/"
  done
}
