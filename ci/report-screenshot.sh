#!/usr/bin/env bash
# Regenerates docs/report-screenshot.png and docs/report-screenshot-details.png from a real run,
# so the README's picture shows what this aorta prints: the H200 lane's recorded results
# (tests/fixtures/h200-examples/aorta-results/, a GPU this machine may lack) with
# callgrind.cpu-hotspot replaced by a CPU run here, reported by this build's aorta and rendered
# by headless Chromium at 1280 px. The details picture opens every collapsed section.
#
# usage: ci/report-screenshot.sh [BUILD_DIR]   (default build/ci; builds aorta_profiled_tests)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/ci}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [[ -z $browser ]]; then
  echo "report-screenshot: no Chromium on PATH (Debian: apt-get install chromium)" >&2
  exit 77
fi

cmake --build "$build" --target aorta_profiled_tests --parallel "$(nproc 2>/dev/null || echo 2)"
ctest --test-dir "$build" -R '^callgrind\.cpu-hotspot$' --output-on-failure

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/results"
fixtures=tests/fixtures/h200-examples/aorta-results
for test in "$fixtures"/*/; do
  name=$(basename "$test")
  [[ $name == callgrind.cpu-hotspot ]] && continue
  (cd "$fixtures" && find "$name" -path '*/trial_*/result.json' -print0 |
    xargs -0 -r cp --parents -t "$work/results")
done
(cd "$build/aorta-results" && find callgrind.cpu-hotspot -path '*/trial_*/result.json' -print0 |
  xargs -0 -r cp --parents -t "$work/results")
"$build/harness/aorta" report "$work/results"

shoot() {  # PAGE PNG HEIGHT
  timeout 90 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$work/profile" --no-first-run --disable-extensions \
    --window-size="1280,$3" --screenshot="$2" "file://$1" >/dev/null 2>&1
  python3 tests/report/png_not_blank.py "$2"
}
shoot "$work/results/report.html" docs/report-screenshot.png 1300
# Every <details> opened, so the charts show.
sed 's/<details\([ >]\)/<details open\1/g' "$work/results/report.html" >"$work/results/details.html"
shoot "$work/results/details.html" docs/report-screenshot-details.png 2600
echo "report-screenshot: wrote docs/report-screenshot.png and docs/report-screenshot-details.png"
