#!/usr/bin/env bash
# The report inputs of benchmarks/scaling.py for two aorta binaries, alternating whole passes
# (this round's, the previous main's, this round's, ...) so a slow minute of the machine falls on
# both: stage.sh BUILD_DIR stages this round's into .gpu/anchors; the previous one is
# .gpu/before/aorta (stripped), linking the same libraries.
# usage: ab_report.sh PASSES   (run on the GPU machine from the repository root; writes $OUT)
set -u
here=$PWD/.gpu/anchors
passes=${1:-2}
inputs=many_metrics_results,many_collectors_results,many_cells_results
for pass in $(seq 1 "$passes"); do
  for which in new before; do
    binary=$here/real/aorta
    [[ $which == before ]] && binary=$PWD/.gpu/before/aorta
    echo "## pass $pass: $which ($(sha256sum "$binary" | cut -c1-12))"
    LD_LIBRARY_PATH=$here/lib python3 benchmarks/scaling.py --aorta "$binary" --runs 5 \
      --no-callgrind --only "$inputs" --dir /tmp/ab-report 2>&1
  done
done | tee "$OUT/ab_report.md"
