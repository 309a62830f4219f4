#!/usr/bin/env bash
# The A/B of a cells run where people look (issue 43): runs a callgrind cells run in which head's
# expensive() does 10% more work, writes its report with `aorta report`, renders report.html in
# headless Chromium and greps the rendered page (--dump-dom) for the verdict, the summary sentence
# and the differential flame graph (expensive() a red box); the screenshot must not be blank. Exit 77 (skipped) without Chromium or valgrind.
#
# usage: chromium_ab_check.sh AORTA WORK RECIPE PAYLOAD
set -euo pipefail
aorta=$1
work=$2
recipe=$3
payload=$4

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [[ -z $browser ]]; then
  echo "SKIPPED: no Chromium on PATH (Debian: apt-get install chromium; ci/install-deps.sh does)"
  exit 77
fi
if ! command -v valgrind > /dev/null; then
  echo "SKIPPED: no valgrind on PATH for the callgrind cells run"
  exit 77
fi

rm -rf "$work"
mkdir -p "$work"
"$aorta" sweep run --recipe "$recipe" --output "$work/cells" --seed 43 -- "$payload" > "$work/run.log"
"$aorta" report "$work/cells" > "$work/report.log"
page="$work/cells/report.html"
grep -q 'A/B: cells compared' "$page" || { echo "FAILED: $page has no A/B section"; exit 1; }

timeout 90 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --user-data-dir="$work/profile" --no-first-run --disable-extensions \
  --window-size=1280,1400 --enable-logging=stderr --v=0 \
  --screenshot="$work/report.png" "file://$page" 2>"$work/chromium.log" || {
  cat "$work/chromium.log"
  echo "FAILED: Chromium exited non-zero"
  exit 1
}
timeout 90 "$browser" --headless --no-sandbox --disable-gpu \
  --user-data-dir="$work/profile-dom" --no-first-run --disable-extensions \
  --dump-dom "file://$page" > "$work/dom.html" 2>>"$work/chromium.log"
for expected in '<span class="badge fail">SLOWER</span>' \
                'head is [0-9.]+% slower than base \(total Ir, exact\) in expensive\(unsigned long\) \(\+[0-9.]+% itself\), (9[0-9]|1[0-9][0-9])% of the change \(self\), more work' \
                'Differential flame graph: head against base' \
                '<svg class="flame"' \
                '<title>expensive\(unsigned long\): A [0-9.e+]+, B [0-9.e+]+ \(\+[0-9.]+%\)</title><rect [^>]*fill:rgb\(230,'; do
  if ! grep -Eq "$expected" "$work/dom.html"; then
    echo "FAILED: the rendered page lacks: $expected"
    grep -A6 'A/B' "$work/dom.html" | head -20
    exit 1
  fi
done
python3 "$(dirname "$0")/png_not_blank.py" "$work/report.png"
echo "A/B verdict rendered: $work/report.png"
