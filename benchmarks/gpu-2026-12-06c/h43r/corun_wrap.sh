#!/usr/bin/env bash
# corun_wrap.sh COMMAND... — runs COMMAND; with AB_CORUN=1, a busy CUDA process (corun, beside
# this script) runs beside it, started first and stopped after. The neighbour gets a bare
# environment (env -i): no profiler's injection variables reach it, so ncu profiles only COMMAND
# while the driver time-slices the GPU between the two contexts.
set -u
here=$(cd "$(dirname "$0")" && pwd)
pid=
if [ "${AB_CORUN:-0}" = 1 ]; then
  ready=$(mktemp -u /tmp/h43r-corun-ready.XXXXXX)
  # Its output goes to a file, not to this script's pipes, which it must not hold open.
  env -i PATH=/usr/bin:/bin "$here/corun" 60 "$ready" "${AB_SPIN_US:-2000}" > "$ready.log" 2>&1 &
  pid=$!
  for _ in $(seq 200); do
    [ -e "$ready" ] && break
    kill -0 "$pid" 2>/dev/null || { echo "corun_wrap: the neighbour exited early" >&2; cat "$ready.log" >&2; exit 2; }
    sleep 0.05
  done
  [ -e "$ready" ] || { echo "corun_wrap: the neighbour did not start in 10 s" >&2; kill "$pid"; cat "$ready.log" >&2; exit 2; }
  rm -f "$ready"
fi
"$@"
rc=$?
if [ -n "$pid" ]; then
  kill "$pid" 2>/dev/null
  wait "$pid"
  cat "$ready.log" >&2
  rm -f "$ready.log"
fi
exit "$rc"
