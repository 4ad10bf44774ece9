#!/usr/bin/env bash
# The main job, end to end: sets up and builds mmptx, then parses and
# round-trips the PTX corpus, printing what it found.
set -euo pipefail
cd "$(dirname "$0")/.."
bash utils/setup.sh
B=build/bin
for f in bench/corpus/*.ptx; do
  out=$(mktemp)
  $B/mmptx-opt "$f" -o "$out"
  cmp "$f" "$out"
  echo "round trip ok: $f ($(wc -c <"$f") bytes)"
  rm -f "$out"
done
