#!/usr/bin/env bash
# The `slurm` CTest test: a real Slurm (munged, slurmctld, two slurmd; tests/slurm/local_slurm.sh)
# on this machine runs a five-test callgrind suite through ci/slurm-ctest.sh: sharded over the two
# nodes, merged into one report. Asserts every test ran exactly once and the merged report has
# them all, also when the merged directory is reused and when a shard holds 750 long names; and
# that a Slurm refusing the job or down gives exit 69 with a clear message.
# usage: slurm_shards.sh SOURCE_DIR WORK_DIR AORTA_EXECUTABLE CXX_COMPILER
# Exit 77 (Skipped) when the Slurm or munge packages are missing.
set -uo pipefail
source_dir=$1 work=$2 aorta=$3 cxx=$4
for tool in munged slurmctld slurmd salloc srun sinfo squeue valgrind; do
  if ! command -v "$tool" > /dev/null; then
    echo "Skipped: $tool is not installed (ci/install-deps.sh installs munge, slurmctld, slurmd," \
         "slurm-client and valgrind)"
    exit 77
  fi
done
script=$source_dir/ci/slurm-ctest.sh
source "$source_dir/tests/slurm/local_slurm.sh"
trap local_slurm_stop EXIT
failures=0
expect() {  # expect NAME RC REGEX OUTPUT_RC OUTPUT
  if [[ "$4" != "$2" ]] || ! grep -qE "$3" <<< "$5"; then
    echo "FAIL $1: expected exit $2 and /$3/, got exit $4:"; echo "$5"; failures=$((failures + 1))
  else
    echo "ok   $1 (exit $4):"; grep -E "srun: error|slurm-ctest: (the|not|[0-9]+ run)" <<< "$5" | tail -4 | sed 's/^/       /'
  fi
}

rm -rf "$work" && mkdir -p "$work"
# The suite: configured against this build's aorta, as a user project would be.
cmake -S "$source_dir/tests/slurm/suite" -B "$work/suite" -DCMAKE_CXX_COMPILER="$cxx" \
  -DAORTA_PROFILING_MODULE="$source_dir/cmake/AortaProfiling.cmake" \
  -DAORTA_EXECUTABLE="$aorta" -DAORTA_WORK_SOURCE="$source_dir/tests/ranks/rank_work.cpp" \
  > "$work/suite-configure.log" 2>&1 || { cat "$work/suite-configure.log"; exit 1; }
cmake --build "$work/suite" > "$work/suite-build.log" 2>&1 || { cat "$work/suite-build.log"; exit 1; }

out=$(env -u SLURM_JOB_NUM_NODES -u SLURM_NNODES AORTA="$aorta" "$script" "$work/suite" "$work/none" 2>&1)
expect "outside an allocation" 69 "not inside a Slurm allocation" $? "$out"

local_slurm_start "$work/slurm" || exit 1
echo "local Slurm up:"; sinfo -N

start=$SECONDS
out=$(AORTA="$aorta" salloc -N 2 --immediate=30 "$script" "$work/suite" "$work/merged" 2>&1)
rc=$?
echo "$out"
echo "shard-and-merge run: exit $rc after $((SECONDS - start)) s"
expect "shard and merge" 0 "5 run\\(s\\) of 5 test\\(s\\) on 2 node\\(s\\); failed: none" $rc "$out"
# Independently of the script's own count: each test's result.json exists exactly once, under one
# of the two nodes, and the merged perf.md has a cell for it.
for index in 1 2 3 4 5; do
  found=$(find "$work/merged" -path "*/suite.callgrind_$index/trial_0/result.json" | wc -l)
  cell=$(grep -cE "^## aorta-n[12]/suite\\.callgrind\\\\_$index\$" "$work/merged/perf.md" 2>/dev/null)
  verdict=$(grep -ho '"verdict": "[a-z]*"' "$work"/merged/aorta-n*/suite.callgrind_$index/trial_0/result.json 2>/dev/null)
  if [[ "$found" != 1 || "$cell" != 1 || "$verdict" != '"verdict": "pass"' ]]; then
    echo "FAIL suite.callgrind_$index: $found result.json, $cell perf.md cell(s), $verdict"
    failures=$((failures + 1))
  else
    echo "ok   suite.callgrind_$index ran once: $(dirname "$(dirname "$(find "$work/merged" -path "*/suite.callgrind_$index/trial_0/result.json")")")"
  fi
done
for node in aorta-n1 aorta-n2; do
  [[ -s "$work/merged/$node/junit.xml" ]] || { echo "FAIL no junit.xml from $node"; failures=$((failures + 1)); }
done

# The same merged directory again, as if the earlier run had also used a node aorta-n9: the earlier
# run is cleared, not counted twice ("ran 2 times") nor reported (issue 18, #21).
cp -a "$work/merged/aorta-n1" "$work/merged/aorta-n9"
out=$(AORTA="$aorta" salloc -N 2 --immediate=30 "$script" "$work/suite" "$work/merged" 2>&1)
expect "rerun into the same merged directory" 0 "5 run\\(s\\) of 5 test\\(s\\) on 2 node\\(s\\); failed: none" $? "$out"
# A non-empty directory the script did not make is refused, not emptied.
mkdir -p "$work/foreign" && echo keep > "$work/foreign/mine.txt"
out=$(AORTA="$aorta" salloc -N 2 --immediate=30 "$script" "$work/suite" "$work/foreign" 2>&1)
expect "foreign merged directory" 64 "is not empty and is not a directory of an earlier" $? "$out"
[[ -f "$work/foreign/mine.txt" ]] || { echo "FAIL the foreign directory was emptied"; failures=$((failures + 1)); }

# 1,500 more tests with long names: each shard's names (~55 KB) are past what one -R regex takes;
# membership goes by CTest's test numbers in a file, so every test still runs once (issue 18, #20).
cmake -S "$source_dir/tests/slurm/suite" -B "$work/suite-large" -DCMAKE_CXX_COMPILER="$cxx" \
  -DAORTA_PROFILING_MODULE="$source_dir/cmake/AortaProfiling.cmake" -DAORTA_SLURM_SUITE_FILLER=1500 \
  -DAORTA_EXECUTABLE="$aorta" -DAORTA_WORK_SOURCE="$source_dir/tests/ranks/rank_work.cpp" \
  > "$work/suite-large-configure.log" 2>&1 || { cat "$work/suite-large-configure.log"; exit 1; }
cmake --build "$work/suite-large" > "$work/suite-large-build.log" 2>&1 || { cat "$work/suite-large-build.log"; exit 1; }
out=$(AORTA="$aorta" salloc -N 2 --immediate=30 "$script" "$work/suite-large" "$work/merged-large" 2>&1)
expect "1,505 tests in two shards" 0 "1505 run\\(s\\) of 1505 test\\(s\\) on 2 node\\(s\\); failed: none" $? "$(tail -20 <<< "$out")"

# A step Slurm cannot place (two nodes wanted, one excluded): refused, nothing runs.
out=$(AORTA="$aorta" salloc -N 2 --immediate=30 "$script" --srun-arg=--exclude=aorta-n1 \
  "$work/suite" "$work/refused" 2>&1)
expect "Slurm refuses the step" 69 "srun: error: " $? "$out"
grep -q "Slurm refused or lost the job step" <<< "$out" || { echo "FAIL refusal not explained"; failures=$((failures + 1)); }

# The controller goes away: srun cannot get an allocation at all.
kill -TERM "${local_slurm_pids[1]}"; wait "${local_slurm_pids[1]}" 2>/dev/null
out=$(SLURM_JOB_NUM_NODES=2 AORTA="$aorta" timeout 60 "$script" --srun-arg=--immediate=5 \
  "$work/suite" "$work/down" 2>&1)
expect "Slurm down" 69 "Unable to contact slurm controller|Slurm refused or lost the job step" $? "$out"

if ((failures)); then echo "$failures check(s) failed"; exit 1; fi
echo "all Slurm checks passed"
