#!/usr/bin/env bash
# corun_switch.sh COMMAND... — with AB_CORUN=1, asks corun_daemon.sh (running outside aorta) for
# the busy neighbour, waits until it spins, runs COMMAND, then sends it away and waits until it
# is gone, so the next trial starts on an idle GPU. Exit 2 (the recipe's environment code) when
# the neighbour does not come.
set -u
go=${AB_CORUN_GO:-/tmp/h43r-go} ready=${AB_CORUN_READY:-/tmp/h43r-ready}
if [ "${AB_CORUN:-0}" = 1 ]; then
  touch "$go"
  for _ in $(seq 300); do [ -e "$ready" ] && break; sleep 0.05; done
  [ -e "$ready" ] || { rm -f "$go"; echo "corun_switch: no neighbour in 15 s" >&2; exit 2; }
fi
"$@"
rc=$?
if [ "${AB_CORUN:-0}" = 1 ]; then
  rm -f "$go"
  for _ in $(seq 200); do [ -e "$ready" ] || break; sleep 0.05; done
fi
exit "$rc"
