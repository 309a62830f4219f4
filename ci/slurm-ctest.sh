#!/usr/bin/env bash
# Runs a build's profiled tests (ctest -L profiling) across the nodes of a Slurm allocation and
# merges the results into one report. Slurm places, CTest runs, aorta records: this script only
# splits the test list and names directories.
#
# usage (inside salloc/sbatch with N nodes):
#   ci/slurm-ctest.sh [--label L] [--results-from DIR] [--srun-arg ARG]... BUILD_DIR MERGED_DIR
#   --label L          CTest label of the tests to spread (default: profiling)
#   --results-from DIR where the build's profiled tests write (default: BUILD_DIR/aorta-results,
#                      aorta_add_profiled_test's default OUTPUT_DIR)
#   --srun-arg ARG     passed to srun (repeatable), e.g. --srun-arg=--partition=gpu
#
# 1. `ctest --show-only=json-v1` lists the build's tests; those with a label matching L (as
#    `ctest -L L` matches) are kept, and the i-th of them goes to shard i mod N (the order is
#    CTest's, so the split is the same on every run of one build).
# 2. One `srun --nodes=N --ntasks-per-node=1` step runs shard $SLURM_PROCID on each node: its own
#    CTest resource spec (ci/make-resource-spec.sh, this node's GPUs) and -j <GPUs>, only its tests
#    (`ctest -I <file>`: CTest's own test numbers read from a file, so a shard of any size fits,
#    where one -R regex stops at ~32 KB of names; the shard checks the numbers still name its
#    tests), no fixture tests pulled in (-FA: the report runs once, at the end).
# 3. Each node copies its tests' result directories into MERGED_DIR/<node>/<test>/ and writes
#    MERGED_DIR/<node>/junit.xml; names are keyed by node, so nothing collides on a shared
#    filesystem, and CTest already gives every test its own OUTPUT_DIR/<test>/.
# 4. `aorta report MERGED_DIR` writes one perf.md/report.json/report.html with cells <node>/<test>,
#    and the script fails unless every listed test ran exactly once.
# MERGED_DIR must be empty, new, or one this script made before (it holds .slurm-ctest): a reused
# one is emptied first, so an earlier run is never counted or reported again. Any other non-empty
# directory is refused (64) rather than emptied.
# Exit: 0 all passed (or skipped), 1 a test failed or a test did not run exactly once, 64 usage,
# 69 Slurm is not usable (not in an allocation, srun missing, or the step was refused).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
label=profiling
results_from=""
srun_args=()
shard_mode=""
while (($#)); do
  case "$1" in
    --label) label=${2:?--label needs a value}; shift 2 ;;
    --results-from) results_from=${2:?--results-from needs a directory}; shift 2 ;;
    --srun-arg=*) srun_args+=("${1#--srun-arg=}"); shift ;;
    --srun-arg) srun_args+=("${2:?--srun-arg needs a value}"); shift 2 ;;
    --shard) shard_mode=1; shift ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    -*) echo "slurm-ctest: unknown option $1 (see --help)" >&2; exit 64 ;;
    *) break ;;
  esac
done
if (($# != 2)); then
  echo "slurm-ctest: usage: ci/slurm-ctest.sh [options] BUILD_DIR MERGED_DIR (see --help)" >&2
  exit 64
fi
build=$(cd "$1" 2>/dev/null && pwd) || { echo "slurm-ctest: no build directory $1" >&2; exit 64; }
mkdir -p "$2" && merged=$(cd "$2" && pwd) || { echo "slurm-ctest: cannot make $2" >&2; exit 64; }
results_from=${results_from:-$build/aorta-results}
aorta=${AORTA:-$(command -v aorta || echo "$build/harness/aorta")}

# --- one shard, on one node (started by srun below) -----------------------------------------
if [[ -n "$shard_mode" ]]; then
  shard=${SLURM_PROCID:?--shard runs under srun}
  node=${SLURMD_NODENAME:-$(hostname -s)}
  dir=$merged/$node
  mkdir -p "$dir"
  mapfile -t tests < "$merged/shards/shard_$shard.txt"
  printf '%s\n' "${tests[@]}" > "$dir/tests.txt"
  echo "slurm-ctest: shard $shard on $node: ${#tests[@]} test(s)"
  if ((${#tests[@]} == 0)); then exit 0; fi
  numbers=$merged/shards/shard_$shard.numbers
  # The numbers must still name this shard's tests (a rebuild between listing and running would
  # shift them): otherwise run nothing, and the merge reports each test as not run.
  if ! ctest --test-dir "$build" -I "$numbers" -FA '.*' --show-only=json-v1 2>/dev/null | python3 -c \
      'import json, sys; names = [t["name"] for t in json.load(sys.stdin)["tests"]]
sys.exit(0 if sorted(names) == sorted(open(sys.argv[1]).read().split()) else 1)' "$dir/tests.txt"; then
    echo "slurm-ctest: shard $shard: the test numbers in $numbers no longer name its tests (was" \
         "$build rebuilt meanwhile?); nothing run" >&2
    exit 1
  fi
  ctest_args=(--test-dir "$build" -I "$numbers" -FA '.*' --output-on-failure
              --output-junit "$dir/junit.xml")
  if "$here/make-resource-spec.sh" "$dir/resources.json" 2>/dev/null &&
     gpus=$(grep -o '"id"' "$dir/resources.json" | wc -l) && ((gpus > 0)); then
    ctest_args+=(--resource-spec-file "$dir/resources.json" -j "$gpus")
  fi
  ctest "${ctest_args[@]}" > "$dir/ctest.log" 2>&1
  rc=$?
  cat "$dir/ctest.log"
  for test in "${tests[@]}"; do
    [[ -d "$results_from/$test" ]] && cp -a "$results_from/$test" "$dir/"
  done
  echo "$rc" > "$dir/ctest.rc"
  exit "$rc"
fi

# --- the whole run: list, shard, one srun step, merge ----------------------------------------
nodes=${SLURM_JOB_NUM_NODES:-${SLURM_NNODES:-}}
if [[ -z "$nodes" ]]; then
  echo "slurm-ctest: not inside a Slurm allocation (no SLURM_JOB_NUM_NODES); run it under" \
       "salloc -N <nodes> or sbatch" >&2
  exit 69
fi
command -v srun >/dev/null || { echo "slurm-ctest: srun not found on PATH" >&2; exit 69; }
# A directory of an earlier run is emptied (its node directories would be counted and reported
# again); one this script did not make is left alone.
if [[ -e "$merged/.slurm-ctest" ]]; then
  find "$merged" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
elif [[ -n $(ls -A "$merged") ]]; then
  echo "slurm-ctest: $merged is not empty and is not a directory of an earlier slurm-ctest run" \
       "(no .slurm-ctest in it); give an empty or new MERGED_DIR" >&2
  exit 64
fi
echo "merged results of ci/slurm-ctest.sh; emptied by its next run into this directory" \
  > "$merged/.slurm-ctest"
mkdir -p "$merged/shards"
ctest --test-dir "$build" --show-only=json-v1 > "$merged/tests.json" ||
  { echo "slurm-ctest: ctest could not list the tests of $build" >&2; exit 64; }
python3 - "$merged" "$nodes" "$label" <<'PY'
import json, pathlib, re, sys
merged, nodes, label = pathlib.Path(sys.argv[1]), int(sys.argv[2]), re.compile(sys.argv[3])
def labels(test):
    for prop in test.get("properties", []):
        if prop["name"] == "LABELS":
            return prop["value"]
    return []
# CTest's own numbers (1-based, over every test of the build), which `ctest -I` takes.
listed = json.loads((merged / "tests.json").read_text())["tests"]
tests = [(number, t["name"]) for number, t in enumerate(listed, start=1)
         if any(label.search(value) for value in labels(t))]
# The report fixture's cleanup test runs once, after the merge, never on a shard.
tests = [(number, name) for number, name in tests if not name.startswith("aorta_report")]
for shard in range(nodes):
    mine = tests[shard::nodes]
    (merged / "shards" / f"shard_{shard}.txt").write_text("".join(f"{n}\n" for _, n in mine))
    # Start,End,Stride of 0 select no range: only the listed numbers (ctest -I's file form).
    (merged / "shards" / f"shard_{shard}.numbers").write_text(
        ",".join(["0", "0", "0"] + [str(number) for number, _ in mine]) + "\n")
(merged / "shards" / "all.txt").write_text("".join(f"{n}\n" for _, n in tests))
print(f"slurm-ctest: {len(tests)} test(s) labelled in {nodes} shard(s)")
PY
srun --nodes="$nodes" --ntasks="$nodes" --ntasks-per-node=1 --kill-on-bad-exit=0 "${srun_args[@]}" \
  "$0" --shard --label "$label" --results-from "$results_from" "$build" "$merged"
step_rc=$?

"$aorta" report "$merged" > "$merged/report.log" 2>&1
cat "$merged/report.log"
python3 - "$merged" "$step_rc" <<'PY'
import pathlib, sys, xml.etree.ElementTree as ET
merged, step_rc = pathlib.Path(sys.argv[1]), int(sys.argv[2])
wanted = (merged / "shards" / "all.txt").read_text().split()
ran, failed = {}, []
for junit in sorted(merged.glob("*/junit.xml")):
    node = junit.parent.name
    for case in ET.parse(junit).getroot().iter("testcase"):
        ran.setdefault(case.get("name"), []).append(node)
        if case.find("failure") is not None or case.find("error") is not None:
            failed.append(f"{case.get('name')} on {node}")
problems = [f"{t}: ran {len(ran.get(t, []))} times ({', '.join(ran.get(t, [])) or 'nowhere'})"
            for t in wanted if len(ran.get(t, [])) != 1]
problems += [f"{t}: ran but was not in the test list" for t in ran if t not in wanted]
for line in problems:
    print(f"slurm-ctest: {line}")
print(f"slurm-ctest: {sum(len(v) for v in ran.values())} run(s) of {len(wanted)} test(s) on "
      f"{len(list(merged.glob('*/junit.xml')))} node(s); failed: {', '.join(failed) or 'none'}")
if not (merged / "report.html").is_file():
    problems.append("no merged report")
if step_rc not in (0, 8) and not ran:
    print(f"slurm-ctest: the srun step failed (exit {step_rc}) and no test ran: Slurm refused "
          "or lost the job step; see the srun message above")
    sys.exit(69)
sys.exit(1 if problems or failed else 0)
PY
