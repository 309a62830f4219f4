#!/usr/bin/env bash
# Renders a real report.html in headless Chromium: the screenshot must not be blank and the page
# must log nothing to the console (it has no script; any message is a broken page or a blocked
# external asset). Exit 77 (skipped) when Chromium is not installed.
#
# usage: chromium_check.sh AORTA WORK RESULTS... [-- EXTRA_RESULT_DIR]
#   every */trial_*/result.json below each RESULTS directory is copied into WORK/results, then
#   `aorta report WORK/results` writes the page that is rendered.
set -euo pipefail
aorta=$1
work=$2
shift 2

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [[ -z $browser ]]; then
  echo "SKIPPED: no Chromium on PATH (Debian: apt-get install chromium; ci/install-deps.sh does)"
  exit 77
fi

rm -rf "$work"
mkdir -p "$work/results"
for results in "$@"; do
  (cd "$results" && find . -path '*/trial_*/result.json' -print0 |
    xargs -0 -r cp --parents -t "$work/results")
done
"$aorta" report "$work/results"

page="$work/results/report.html"
shot="$work/report.png"
log="$work/chromium.log"
# A fresh profile each time, so no state of an earlier run (or of the user) leaks in.
timeout 90 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --user-data-dir="$work/profile" --no-first-run --disable-extensions \
  --window-size=1280,1800 --enable-logging=stderr --v=0 \
  --screenshot="$shot" "file://$page" 2>"$log" || {
  cat "$log"
  echo "FAILED: Chromium exited non-zero"
  exit 1
}
if grep -E ':CONSOLE[:(]' "$log"; then
  echo "FAILED: the page logged the console messages above"
  exit 1
fi
python3 "$(dirname "$0")/png_not_blank.py" "$shot"
echo "report rendered: $shot"
