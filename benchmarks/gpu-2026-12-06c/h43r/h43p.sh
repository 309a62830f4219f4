#!/usr/bin/env bash
# Issue 43 (coordinator, call 4): a Proton A/B where only the GPU time changes (a busy neighbour
# process, switched on per loaded trial). Limit 150 s.
set -u
HERE=$PWD/.gpu/h43p
START=$(date +%s)
elapsed() { echo $(( $(date +%s) - START )); }
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm --format=csv,noheader 2>&1 | tee "$OUT_DIR/gpu.txt"
chmod +x "$HERE/corun" "$HERE/corun_daemon.sh"
rm -f /tmp/h43r-go /tmp/h43r-ready
bash "$HERE/corun_daemon.sh" /tmp/h43r-go /tmp/h43r-ready &
daemon=$!
trap 'rm -f /tmp/h43r-go; sleep 0.5; kill $daemon 2>/dev/null; cp /tmp/h43r-go.history "$OUT_DIR/corun-history.txt" 2>/dev/null' EXIT
for mode in 0 1; do AB_CORUN=$mode timeout 60 python3 "$HERE/gemm_corun.py" 2>&1 | tail -2 | tee -a "$OUT_DIR/raw.txt"; done
echo "== raw done ($(elapsed) s)"
out=/tmp/h43p-cells
rm -rf "$out"
timeout $(( 140 - $(elapsed) )) "$AORTA" sweep run --recipe "$HERE/proton_corun.yaml" --output "$out" --seed 43 -- \
  python3 "$HERE/gemm_corun.py" > "$OUT_DIR/cells.txt" 2>&1
echo "cells rc=$? ($(elapsed) s)"
grep -E "^aorta: (summary|confound|FAILED|SKIPPED)" "$OUT_DIR/cells.txt"
cp "$out/matrix.json" "$out/matrix.md" "$OUT_DIR/" 2>/dev/null
"$AORTA" report "$out" > "$OUT_DIR/report.txt" 2>&1
[ -e "$out/report.html" ] && [ "$(stat -c %s "$out/report.html")" -lt 2000000 ] && cp "$out/report.html" "$OUT_DIR/"
echo "h43p: done at $(elapsed) s"
