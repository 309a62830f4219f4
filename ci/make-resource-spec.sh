#!/usr/bin/env bash
# Writes a CTest resource specification listing this machine's GPUs, one slot each, so that
# `ctest -L profiling -j N --resource-spec-file FILE` never runs two GPU tests on one GPU:
#   {"version":{"major":1,"minor":0},"local":[{"gpus":[{"id":"0","slots":1},...]}]}
#
# usage: ci/make-resource-spec.sh [--count N] [--slots S] [OUTPUT]
#   --count N  list N GPUs instead of detecting them (ids 0..N-1)
#   --slots S  slots per GPU (default 1: one test per GPU at a time)
#   OUTPUT     file to write (default: standard output)
# Detection, first that answers: `nvidia-smi -L` (NVIDIA), the KFD topology that ROCm itself
# reads (AMD: nodes with a non-zero gpu_id), `rocm-smi --showid`. Ids are the device indices
# the runtimes use, which aorta maps onto CUDA_VISIBLE_DEVICES (NVIDIA) or ROCR_VISIBLE_DEVICES (AMD). No GPU found: an
# empty list, and a note on stderr (then do not pass the spec: GPU tests skip on their own).
set -euo pipefail

count=""
slots=1
output=""
while (($#)); do
  case "$1" in
    --count) count=${2:?--count needs a number}; shift 2 ;;
    --slots) slots=${2:?--slots needs a number}; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    -*) echo "make-resource-spec: unknown option $1 (see --help)" >&2; exit 64 ;;
    *) output=$1; shift ;;
  esac
done
for number in "$count" "$slots"; do
  if [[ -n "$number" && ! "$number" =~ ^[0-9]+$ ]]; then
    echo "make-resource-spec: '$number' is not a non-negative integer" >&2
    exit 64
  fi
done

count_nvidia() {
  command -v nvidia-smi >/dev/null 2>&1 || return 1
  local listing found
  listing=$(nvidia-smi -L 2>/dev/null) || return 1
  found=$(grep -c '^GPU [0-9]' <<<"$listing" || true)
  ((found > 0)) && echo "$found"
}

count_kfd() {
  local nodes=/sys/class/kfd/kfd/topology/nodes found=0 id
  [[ -d $nodes ]] || return 1
  for id in "$nodes"/*/gpu_id; do
    [[ -r $id && $(<"$id") != 0 ]] && found=$((found + 1))
  done
  ((found > 0)) && echo "$found"
}

count_rocm_smi() {
  command -v rocm-smi >/dev/null 2>&1 || return 1
  local listing found
  listing=$(rocm-smi --showid 2>/dev/null) || return 1
  found=$(grep -oE '^GPU\[[0-9]+\]' <<<"$listing" | sort -u | wc -l)
  ((found > 0)) && echo "$found"
}

if [[ -z "$count" ]]; then
  count=$(count_nvidia || count_kfd || count_rocm_smi || echo 0)
  if ((count == 0)); then
    echo "make-resource-spec: no GPU found (tried nvidia-smi -L, the KFD topology, rocm-smi)" >&2
  fi
fi

gpus=""
for ((i = 0; i < count; i++)); do
  gpus+="${gpus:+,}{\"id\":\"$i\",\"slots\":$slots}"
done
spec="{\"version\":{\"major\":1,\"minor\":0},\"local\":[{\"gpus\":[$gpus]}]}"

if [[ -n "$output" ]]; then
  printf '%s\n' "$spec" >"$output"
  echo "make-resource-spec: $count GPU(s) -> $output" >&2
else
  printf '%s\n' "$spec"
fi
