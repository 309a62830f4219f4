#!/usr/bin/env bash
# Device call 3: this round's aorta against round 6's (a836fcf), interleaved on the same files,
# because start-to-start variation of this machine is larger than the change measured.
set -u
A=$PWD/.gpu/anchors
python3 benchmarks/anchors.py --aorta "$A/bin/aorta" --scale 3 --only chrome_trace --dir /tmp/ab3 --generate-only >/dev/null &
python3 benchmarks/anchors.py --aorta "$A/bin/aorta" --scale 1 --only hatchet --dir /tmp/ab1 --generate-only >/dev/null &
wait
uptime
du -sh /tmp/ab3/chrome_trace /tmp/ab1/hatchet
for run in 1 2 3 4 5; do
  for which in new old; do
    bin=$A/real/aorta; [[ $which == old ]] && bin=$PWD/.gpu/old/aorta
    for input in /tmp/ab3/chrome_trace /tmp/ab1/hatchet; do
      for check in none 'count(under(/^layer_1$)) >= 0'; do
        args=(check --json --collector proton "$input"); [[ $check != none ]] && args+=(--check "$check")
        LD_LIBRARY_PATH=$A/lib /usr/bin/time -o /tmp/t.txt -f '%U %S %M' "$bin" "${args[@]}" >/dev/null 2>&1
        echo "$run $which $(basename "$input") ${check:0:5} $(tail -1 /tmp/t.txt)"
      done
    done
  done
done
