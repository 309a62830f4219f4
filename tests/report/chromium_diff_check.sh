#!/usr/bin/env bash
# The differential flame graph of `aorta diff A B --html FILE` (issue 43) as a browser shows it:
# rendered in headless Chromium, the screenshot must not be blank, the page must log nothing to the
# console (it has no script), and the rendered DOM must hold a red (slower or new) and a blue
# (faster or gone) box and the frame named by EXPECTED. Exit 77 (skipped) without Chromium.
#
# usage: chromium_diff_check.sh AORTA WORK A B EXPECTED
set -euo pipefail
aorta=$1
work=$2
a=$3
b=$4
expected=$5

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [[ -z $browser ]]; then
  echo "SKIPPED: no Chromium on PATH (Debian: apt-get install chromium; ci/install-deps.sh does)"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
"$aorta" diff "$a" "$b" --html "$work/diff.html" > "$work/diff.txt"
timeout 90 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --user-data-dir="$work/profile" --no-first-run --disable-extensions \
  --window-size=1280,600 --enable-logging=stderr --v=0 \
  --screenshot="$work/diff.png" "file://$work/diff.html" 2>"$work/chromium.log" || {
  cat "$work/chromium.log"
  echo "FAILED: Chromium exited non-zero"
  exit 1
}
if grep -E ':CONSOLE[:(]' "$work/chromium.log"; then
  echo "FAILED: the page logged the console messages above"
  exit 1
fi
timeout 90 "$browser" --headless --no-sandbox --disable-gpu \
  --user-data-dir="$work/profile-dom" --no-first-run --disable-extensions \
  --dump-dom "file://$work/diff.html" > "$work/dom.html" 2>>"$work/chromium.log"
for pattern in 'fill:rgb\(230,' 'fill:rgb\([0-9]+,[0-9]+,235\)' "<title>$expected"; do
  if ! grep -Eq "$pattern" "$work/dom.html"; then
    echo "FAILED: the rendered flame graph lacks: $pattern"
    exit 1
  fi
done
python3 "$(dirname "$0")/png_not_blank.py" "$work/diff.png"
echo "flame graph rendered: $work/diff.png"
