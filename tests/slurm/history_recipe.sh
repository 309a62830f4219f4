#!/usr/bin/env bash
# The Slurm recipe of docs/history.md ("Pointing a team's CI runners at one server"), run for
# real: a local Slurm (tests/slurm/local_slurm.sh, two nodes) and a local PostgreSQL (initdb and
# pg_ctl under /tmp, a unix socket only, as `nobody` when run as root). Two batch jobs, one per
# node, each run a callgrind sweep of the cpu-hotspot example and `aorta history add` into the one
# server at their own commit, at the same time; the store must then hold both commits. A third job
# gates a run against history:main on that server and must pass, naming both commits.
# usage: history_recipe.sh SOURCE_DIR WORK_DIR AORTA PAYLOAD
# Exit 77 (Skipped) when Slurm, munge, valgrind or the PostgreSQL server binaries are missing.
set -uo pipefail
source_dir=$1 work=$2 aorta=$3 payload=$4
for tool in munged slurmctld slurmd sbatch sinfo squeue valgrind; do
  if ! command -v "$tool" > /dev/null; then
    echo "Skipped: $tool is not installed (ci/install-deps.sh installs it)"
    exit 77
  fi
done
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -1)
if [[ -z "$pgbin" || ! -x "$pgbin/initdb" ]]; then
  echo "Skipped: no PostgreSQL server binaries under /usr/lib/postgresql/*/bin"
  exit 77
fi
source "$source_dir/tests/slurm/local_slurm.sh"
pgroot=""
as_pg=()
cleanup() {
  local_slurm_stop
  if [[ -n "$pgroot" ]]; then
    "${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgroot/data" stop -m immediate > /dev/null 2>&1
    rm -rf "$pgroot"
  fi
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

rm -rf "$work" && mkdir -p "$work"
local_slurm_start "$work/slurm" || exit 1
# A short path: a unix socket's path has a length limit that a build tree can pass.
pgroot=$(mktemp -d /tmp/aorta-pg.XXXXXX)
if [[ $(id -u) == 0 ]]; then
  chown nobody "$pgroot"
  as_pg=(runuser -u nobody --)
fi
"${as_pg[@]}" "$pgbin/initdb" -D "$pgroot/data" -U aorta -A trust --no-sync -E UTF8 --locale=C \
  > "$work/initdb.log" 2>&1 || { cat "$work/initdb.log"; fail "initdb"; }
printf "listen_addresses = ''\nunix_socket_directories = '%s'\nfsync = off\n" "$pgroot" \
  | "${as_pg[@]}" tee -a "$pgroot/data/postgresql.conf" > /dev/null
"${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgroot/data" -l "$pgroot/log" -w -t 30 start > /dev/null \
  || { cat "$pgroot/log"; fail "pg_ctl start"; }
"$pgbin/psql" -X -q -d "postgresql:///postgres?host=$pgroot&user=aorta" -c "CREATE DATABASE perf" \
  || fail "CREATE DATABASE"
url="postgresql:///perf?host=$pgroot&user=aorta"

# The recipe's batch script as docs/history.md gives it, with this machine's payload and server.
cat > "$work/job.sh" << 'JOB'
#!/bin/bash
#SBATCH --time=00:05:00
aorta sweep run --recipe "$RECIPE" --output "out/$SLURM_JOB_ID/hotspot" -- "$PAYLOAD" 8192 32
aorta history add "out/$SLURM_JOB_ID" --commit "$CI_COMMIT" --branch main --time "$CI_TIME" \
    --history "$AORTA_HISTORY_URL"
JOB
cat > "$work/gate.sh" << 'JOB'
#!/bin/bash
#SBATCH --time=00:05:00
aorta sweep run --recipe "$RECIPE" --output "out/$SLURM_JOB_ID/hotspot" \
    --baseline history:main --history "$AORTA_HISTORY_URL" -- "$PAYLOAD" 8192 32
JOB
export PATH="$(dirname "$aorta"):$PATH" AORTA_HISTORY_URL="$url" PAYLOAD="$payload"
export RECIPE="$source_dir/examples/profiling/callgrind/cpu-hotspot/recipe.yaml"
cd "$work" || fail "cd $work"
CI_COMMIT=c1 CI_TIME=2026-12-01T00:00:00Z sbatch --wait --nodelist=aorta-n1 -o job1.out job.sh \
  > /dev/null & first=$!
CI_COMMIT=c2 CI_TIME=2026-12-01T01:00:00Z sbatch --wait --nodelist=aorta-n2 -o job2.out job.sh \
  > /dev/null & second=$!
wait "$first" || { cat job1.out; fail "the job on aorta-n1"; }
wait "$second" || { cat job2.out; fail "the job on aorta-n2"; }
grep -h "aorta: history:" job1.out job2.out

shown=$(aorta history show hotspot callgrind_total_ir --history "$url") || fail "history show"
grep -q "^  c1 " <<< "$shown" && grep -q "^  c2 " <<< "$shown" \
  || fail "the store should hold commits c1 and c2 of both nodes:"$'\n'"$shown"
sbatch --wait -o gate.out gate.sh > /dev/null || { cat gate.out; fail "the gated job"; }
grep -q "branch main: 2 commit(s) c1..c2" gate.out && grep -q "aorta: gate passed" gate.out \
  || { cat gate.out; fail "the gated job did not gate against c1..c2"; }
echo "slurm history recipe: two nodes added c1 and c2 to one PostgreSQL; a job gated against them"
