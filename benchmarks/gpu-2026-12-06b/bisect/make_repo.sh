#!/bin/bash
# make_repo.sh DIR: the repository of the bisect figure, 16 commits of sgemm.cu (and its CPU
# stand-in sgemm_cpu.cpp). Commit 11 ("sgemm: ...wrap the k loop...") makes the kernel run 13
# more k steps of 16 (10% more work at n = 2048); every other commit changes a comment only.
# Fixed names and dates, so the commit ids are the same on every machine.
set -eu
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
export GIT_AUTHOR_NAME=aorta GIT_AUTHOR_EMAIL=aorta@example.invalid
export GIT_COMMITTER_NAME=aorta GIT_COMMITTER_EMAIL=aorta@example.invalid
git init -q .
git symbolic-ref HEAD refs/heads/main  # not `init -b`: a git older than 2.28 lacks it
cp "$here/sgemm.cu" "$here/sgemm_cpu.cpp" .
culprit=11
for revision in $(seq 0 15); do
  extra=0
  [ "$revision" -ge "$culprit" ] && extra=13
  cat > tuning.h <<TUNING
// revision $revision
#pragma once
constexpr int matrix_size = 2048;
constexpr int extra_k_steps = $extra;
constexpr int warmup_launches = 3;
constexpr int timed_launches = 20;
TUNING
  git add sgemm.cu sgemm_cpu.cpp tuning.h
  subject="revision $revision: comment only"
  [ "$revision" -eq "$culprit" ] && subject="sgemm: wrap the k loop 13 tiles further (revision $revision)"
  [ "$revision" -eq 0 ] && subject="sgemm: tiled kernel timed with CUDA events (revision 0)"
  date="2026-12-06T00:$(printf %02d "$revision"):00Z"
  GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date git commit -q -m "$subject"
done
git log --format='%H %s' | tail -n +1
