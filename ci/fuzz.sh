#!/usr/bin/env bash
# Builds the libFuzzer targets (cmake --preset fuzz, or the preset named by FUZZ_PRESET: CI uses
# its asan build, which holds them too) and runs them over seed corpora made from tests/fixtures
# (tests/fuzz/README.md), as many targets at once as there are cores.
#
#   ci/fuzz.sh                       CI: each target over its structured seeds (once, full size),
#                                    then over its corpus briefly (12 s; regressions)
#   ci/fuzz.sh --long SECONDS [T..]  each target (or the named ones) for SECONDS, one at a time,
#                                    at nice 10; prints target, execs, exec/s, crashes, peak RSS
#   ci/fuzz.sh --runs N [T..]        the same, N executions per target instead of a time
#
# FUZZ_PREBUILT=DIR uses the targets already built in DIR (DIR/tests/fuzz/aorta_fuzz_*) and builds
# nothing: how the long run goes to a machine with more cores. FUZZ_JOBS=N runs N long targets at
# once (default 1: their figures are per target, so they do not share a core). FUZZ_MAX_LEN=N
# (long and runs modes) caps what the mutator works on at N bytes: the structured seeds still run
# once at full size first, then fuzzing starts from their first N bytes, thousands of executions
# a second instead of tens.
#
# Findings (crash-*, leak-*, timeout-*, oom-*) land in build/fuzz/findings/<target>/; new corpus
# inputs in build/fuzz/corpus/<target>/ (kept between runs, never in the source tree).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=ci
budget=""
if [[ "${1:-}" == "--long" || "${1:-}" == "--runs" ]]; then
  mode=${1#--}
  budget=${2:?"$1 needs a number"}
  shift 2
fi
all_targets=(hatchet rocprof_csv rocprof_json ncu_csv callgrind recipe check
  chrome_trace hatchet_msgpack rocpd sanitizer_log gbench nvbench nvbench_jsonbin result_json)
targets=("$@")
((${#targets[@]})) || targets=("${all_targets[@]}")

jobs=$(nproc 2>/dev/null || echo 2)
preset=${FUZZ_PRESET:-fuzz}
if [[ -n "${FUZZ_PREBUILT:-}" ]]; then
  build=$FUZZ_PREBUILT
else
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" --parallel "$jobs"
  build=build/$preset
fi
# Seeds are the repository's own fixtures, linked rather than copied into the tree.
seed_files() {
  case "$1" in
    hatchet) find tests/fixtures -name '*.hatchet' ;;
    rocprof_csv) find tests/fixtures/rocprof -name '*.csv' ;;
    rocprof_json) find tests/fixtures/rocprof -name '*results.json' ;;
    ncu_csv) find tests/fixtures/ncu tests/fixtures/h200 -name '*.csv' ;;
    callgrind) find tests/fuzz/seeds/callgrind -type f ;;
    recipe) find tests/fixtures/recipes tests/cli/recipes examples -name '*.yaml' -o -name '*.json' \
              | grep -v -e '/build/' -e 'CMake' ;;
    check) find tests/fuzz/seeds/check -type f ;;
    chrome_trace) find tests/fixtures -name '*.chrome_trace' ;;
    hatchet_msgpack) find tests/fixtures -name '*.hatchet_msgpack' ;;
    # rocpd fixtures are generated from the published schema (tests/fixtures/rocpd/README.md).
    rocpd) for layout in direct timestamp; do
             python3 tests/fixtures/rocpd/make_rocpd.py "$build/rocpd-$layout.db" \
               --layout "$layout" >/dev/null && echo "$build/rocpd-$layout.db"
           done ;;
    sanitizer_log) find tests/fixtures/sanitizer -type f ;;
    gbench) find tests/fixtures/gbench -name '*.json' ;;
    nvbench) find tests/fixtures/nvbench -name '*.json' ;;
    # The JSON file's fields and its sample file's bytes (nvbench_jsonbin_fuzz.cpp's layout).
    nvbench_jsonbin) find tests/fuzz/seeds/nvbench_jsonbin -type f ;;
    result_json) find tests/fixtures -name 'result.json'; find tests/fuzz/seeds/result_json -type f ;;
    *) echo "fuzz: unknown target '$1'; one of: ${all_targets[*]}" >&2; exit 64 ;;
  esac
}

make_seeds() {
  local target=$1 dir=$build/seeds/$1
  rm -rf "$dir"
  mkdir -p "$dir"
  local n=0
  while IFS= read -r file; do
    n=$((n + 1))
    case "$file" in /*) ;; *) file=$PWD/$file ;; esac
    ln -s "$file" "$dir/$n-$(basename "$file")"
  done < <(seed_files "$target")
  echo "$dir"
}

# Structure-aware seeds (issue 18): deep nesting, long runs of one byte, 10^5 repeated elements,
# huge declared lengths, endless SQL views. Written beside the fixtures' seeds; their paths go to
# $build/seeds/<target>.structured.
make_structured_seeds() {
  local target=$1 dir=$build/seeds/$1
  python3 tests/fuzz/make_structured_seeds.py "$target" "$dir" >"$dir.structured"
}

# -timeout=10 and the default 2 GiB RSS limit are the issue's bar: a slow or hungry input is a
# finding, not a pass.
common=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -detect_leaks=1)

# One target: its structured seeds, then fuzzing; its row of the table goes to $build/fuzz-row-*.
fuzz_one() {
  local target=$1 status=0 rc seeds corpus findings log
  seeds=$(make_seeds "$target")
  make_structured_seeds "$target"
  corpus=$build/corpus/$target
  findings=$build/findings/$target
  mkdir -p "$corpus" "$findings"
  log=$build/fuzz-$target.log
  touch "$log.start"
  # Every structured seed once at its full size first: libFuzzer cuts corpus inputs at its
  # max_len (1 MiB by default), and the 10^5-element ones are larger.
  if [[ -s "$seeds.structured" ]]; then
    set +e
    mapfile -t structured <"$seeds.structured"
    nice -n 10 "$build/tests/fuzz/aorta_fuzz_$target" "${common[@]}" \
      -artifact_prefix="$findings/" "${structured[@]}" >"$log.structured" 2>&1
    rc=$?
    set -e
    if ((rc != 0)); then
      echo "fuzz: $target FAILED on a structured seed (exit $rc); see $log.structured" >&2
      tail -40 "$log.structured" >&2
      status=1
    fi
  fi
  case "$mode" in
    ci) limits=(-max_total_time=12) ;;
    long) limits=(-max_total_time="$budget") ;;
    runs) limits=(-runs="$budget") ;;
  esac
  if [[ "$mode" != ci && -n "${FUZZ_MAX_LEN:-}" ]]; then
    limits+=(-max_len="$FUZZ_MAX_LEN")
  fi
  echo "fuzz: $target (${limits[*]})"
  set +e
  nice -n 10 "$build/tests/fuzz/aorta_fuzz_$target" "${common[@]}" "${limits[@]}" \
    -artifact_prefix="$findings/" "$corpus" "$seeds" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  crashes=$(find "$findings" -type f -newer "$log.start" | wc -l)
  printf '%-14s %12s %10s %8s %8sMB\n' "$target" "${execs:-?}" "${speed:-?}" "$crashes" \
    "${rss:-?}" >"$build/fuzz-row-$target.txt"
  if ((rc != 0)); then
    echo "fuzz: $target FAILED (exit $rc); see $log and $findings/" >&2
    tail -40 "$log" >&2
    status=1
  fi
  return "$status"
}

# Long runs go one at a time (their figures are per target); CI's short ones share the cores.
parallel=$jobs
[[ "$mode" == ci ]] || parallel=${FUZZ_JOBS:-1}
rm -f "$build"/fuzz-row-*.txt
status=0
running=0
reap_one() {
  local finished
  wait -n -p finished || status=1
  running=$((running - 1))
}
for target in "${targets[@]}"; do
  while ((running >= parallel)); do reap_one; done
  fuzz_one "$target" &
  running=$((running + 1))
done
while ((running > 0)); do reap_one; done
printf '%-14s %12s %10s %8s %10s\n' target execs exec/s crashes peak_rss >"$build/fuzz-table.txt"
for target in "${targets[@]}"; do
  cat "$build/fuzz-row-$target.txt" >>"$build/fuzz-table.txt" 2>/dev/null \
    || printf '%-14s (no result)\n' "$target" >>"$build/fuzz-table.txt"
done
cat "$build/fuzz-table.txt"
exit "$status"
