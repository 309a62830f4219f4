#!/usr/bin/env bash
# Issue 43 (branch h43): verdicts that explain themselves, on the GPU. Runs from the root of a copy
# of /work/main with AORTA (this branch's aorta) and OUT_DIR set by the coordinator's prologue;
# payloads in .gpu/h43 (copies in benchmarks/gpu-2026-12-06b/h43). Three cells runs, each's
# terminal output, matrix.json and matrix.md kept:
#   1. ncu_grow: ncu metrics: work, sgemm_tiled N 512 -> 576 (more instructions and bytes), 5 rounds;
#   2. proton_grow: Proton, one bf16 GEMM launched 40 -> 44 times (more work), 5 rounds;
#   3. proton_contend: Proton, the same kernels and counts, an fp32 load on a side stream during
#      the GEMMs instead of after them (only the conditions change), 5 rounds.
# 10 ncu + 20 Python processes (5-6 s each with torch and Proton on the H200): more than 120 s, so a
# run is skipped after H43_LAST_START s (80), and every result is written as soon as it exists.
# By default the two Proton runs only (the second call), about 120 s.
set -u
HERE=$PWD/.gpu/h43
START=$(date +%s)
elapsed() { echo $(( $(date +%s) - START )); }
echo "h43: start $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 \
  | tee "$OUT_DIR/gpu.txt"
"$AORTA" --version 2>&1 | head -1
run_ab() {  # NAME RECIPE COMMAND...
  local name=$1 recipe=$2
  shift 2
  if [ "$(elapsed)" -gt "${H43_LAST_START:-80}" ]; then echo "$name: skipped, $(elapsed) s spent"; return; fi
  local out=/tmp/h43-$name
  rm -rf "$out"
  echo "== $name ($(elapsed) s)"
  "$AORTA" sweep run --recipe "$HERE/$recipe" --output "$out" --seed 43 -- "$@" \
    > "$OUT_DIR/$name.txt" 2>&1
  echo "$name rc=$? ($(elapsed) s)"
  grep -E "^aorta: (summary|confound|FAILED)" "$OUT_DIR/$name.txt"
  cp "$out/matrix.json" "$OUT_DIR/$name-matrix.json" 2>/dev/null
  cp "$out/matrix.md" "$OUT_DIR/$name-matrix.md" 2>/dev/null
}
# H43_RUNS: the runs to do. The second call leaves out ncu_grow, whose first call's results are
# kept (benchmarks/gpu-2026-12-06b/h43/README.md); "ncu_grow proton_grow proton_contend" does all.
for run in ${H43_RUNS:-proton_grow proton_contend}; do
  case $run in
    ncu_grow) run_ab ncu_grow ncu_grow.yaml "$HERE/cuda_gemm" ;;
    proton_grow)
      run_ab proton_grow proton_grow.yaml python3 "$HERE/proton_ab.py"
      # The cells run as report.html shows it (issue 43 item 5): half a second.
      "$AORTA" report /tmp/h43-proton_grow > "$OUT_DIR/report.txt" 2>&1
      echo "report rc=$? ($(elapsed) s)"
      for f in /tmp/h43-proton_grow/report.html /tmp/h43-proton_grow/perf.md; do
        [ -e "$f" ] && [ "$(stat -c %s "$f")" -lt 2000000 ] && cp "$f" "$OUT_DIR/"
      done
      ;;
    proton_contend) run_ab proton_contend proton_contend.yaml python3 "$HERE/proton_ab.py" ;;
  esac
done
echo "h43: done at $(elapsed) s"
