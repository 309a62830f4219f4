#!/usr/bin/env bash
# corun_daemon.sh GO READY — started by the GPU script itself, outside aorta and outside ncu's
# process tree (a neighbour started from inside it crashed in every trial of the first call).
# While the file GO exists it keeps one busy neighbour (corun) running; corun writes READY once it
# spins. When GO goes, the neighbour is stopped and READY removed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
go=$1 ready=$2
while :; do
  if [ -e "$go" ]; then
    env -i PATH=/usr/bin:/bin "$here/corun" 120 "$ready" "${AB_SPIN_US:-2000}" > "$ready.log" 2>&1 &
    p=$!
    while [ -e "$go" ] && kill -0 "$p" 2>/dev/null; do sleep 0.02; done
    kill "$p" 2>/dev/null; wait "$p"
    tail -1 "$ready.log" >> "${go}.history"
    rm -f "$ready"
  else
    sleep 0.02
  fi
done
