#!/bin/sh
# Stands in for `aorta validate` at configure time: refuses a recipe holding the misspelt key
# `colect` with a message shaped like aorta's, accepts any other.
if [ "$1" = validate ] && grep -q '^colect:' "$2"; then
  echo "$2:3:1: unknown key 'colect' (did you mean 'collect'?)" >&2
  exit 64
fi
exit 0
