#!/usr/bin/env bash
# report.html's PC-sample bars (issue 45) for the result.json that aorta_pc_sample_result wrote
# from the real H100 matmul capture (tests/fixtures/h100-pcsampling/matmul-example-env.hatchet).
# The expected text is the capture's own arithmetic: line 63 holds 49,779 of matmul_kernel's
# 179,777 samples (27.7%), its largest stall reason is dispatch_stall (11,135), and the kernel's
# most stalled reason, long_scoreboard (21,255 + 2,128 + 5,641 + 288 = 29,312), takes the first
# colour.
# usage: pc_sample_bars_check.sh AORTA RESULTS
set -euo pipefail
aorta=$1
results=$2
"$aorta" report "$results" >/dev/null
page="$results/report.html"
status=0
for expected in \
  'PC samples per line of <code>matmul_kernel</code> (179777 samples' \
  '<title>matmul.py:63: 49779 samples, 27.7%</title>' \
  '<title>dispatch_stall: 11135</title>' \
  'color:#0072b2">&#9632;</span> long_scoreboard'; do
  if ! grep -qF -- "$expected" "$page"; then
    echo "FAILED: report.html lacks: $expected"
    status=1
  fi
done
[[ $status -eq 0 ]] && echo "report.html has the PC-sample bars: $page"
exit $status
