#!/usr/bin/env bash
# Builds and runs the PTX parser fuzzer for SECONDS (default 60):
#   fuzz/run.sh [SECONDS] [extra libFuzzer flags...]
# Seeds come from test/Parser/Inputs and the small corpus kernel; new inputs
# are kept in <build>/corpus, crashes in <build>/artifacts. Exits non-zero
# when the fuzzer finds a crash, a hang (-timeout) or a leak.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${MMPTX_FUZZ_BUILD:-$ROOT/build-fuzz}
SECONDS_TO_RUN=${1:-60}
shift || true

"$ROOT/fuzz/build.sh" "$OUT"

SEEDS="$OUT/seeds"
rm -rf "$SEEDS"
mkdir -p "$SEEDS" "$OUT/corpus" "$OUT/artifacts"
cp "$ROOT"/test/Parser/Inputs/*.ptx "$ROOT"/test/Parser/Inputs/handwritten/*.ptx \
   "$ROOT/bench/corpus/ptx_inject_simple_kernel.ptx" "$SEEDS/"

exec "$OUT/mmptx-parser-fuzzer" \
  -max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 \
  -max_len=65536 -print_final_stats=1 \
  -dict="$ROOT/fuzz/ptx.dict" \
  -artifact_prefix="$OUT/artifacts/" \
  "$@" "$OUT/corpus" "$SEEDS"
