#!/usr/bin/env bash
# Builds and runs one libFuzzer target for SECONDS (default 60):
#   fuzz/run.sh [TARGET] [SECONDS] [extra libFuzzer flags...]
# TARGET: parser (default), annotate, stack, ast or wire (see build.sh). Seeds come
# from the test inputs; new inputs are kept in <build>/TARGET-corpus,
# findings in <build>/TARGET-artifacts. Exits non-zero when the fuzzer finds
# a crash, a hang (-timeout), a leak or a failed check.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${MMPTX_FUZZ_BUILD:-$ROOT/build-fuzz}
TARGET=parser
case "${1:-}" in parser|annotate|stack|ast|wire) TARGET=$1; shift ;; esac
SECONDS_TO_RUN=${1:-60}
shift || true

"$ROOT/fuzz/build.sh" "$TARGET" "$OUT"

SEEDS="$OUT/$TARGET-seeds"
rm -rf "$SEEDS"
mkdir -p "$SEEDS" "$OUT/$TARGET-corpus" "$OUT/$TARGET-artifacts"
FLAGS=(-max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048
       -print_final_stats=1 -artifact_prefix="$OUT/$TARGET-artifacts/")
case "$TARGET" in
parser)
  cp "$ROOT"/test/Parser/Inputs/*.ptx "$ROOT"/test/Parser/Inputs/handwritten/*.ptx \
     "$ROOT/bench/corpus/ptx_inject_simple_kernel.ptx" "$SEEDS/"
  FLAGS+=(-max_len=65536 -dict="$ROOT/fuzz/ptx.dict") ;;
annotate)
  cp "$ROOT"/test/Annotate/*.cu "$ROOT"/test/Annotate/Inputs/*.cu \
     "$ROOT"/test/Integration/*.cu "$SEEDS/"
  FLAGS+=(-max_len=16384) ;;
stack)
  # Byte 0 picks the limits, the rest is read as 8-byte words: the text
  # programs are seeds for the text parser half.
  cp "$ROOT"/test/Stack/Inputs/*.stack "$ROOT"/test/Transforms/Inputs/*.stack \
     "$SEEDS/"
  FLAGS+=(-max_len=4096) ;;
ast)
  # Byte 0 picks text or words and the limits: the text programs are seeds
  # for the parser half.
  for f in "$ROOT"/test/Ast/Inputs/*.ast; do
    printf '\x80' | cat - "$f" > "$SEEDS/$(basename "$f").seed"
  done
  FLAGS+=(-max_len=4096) ;;
wire)
  # Byte 0 picks the reader (see WireFuzzer.cpp): mmptx messages as mode 0-2
  # (job, programs, results), the reference's buffers as their component's
  # mode (6 + component: compiler_info 6 ... ptx 12) or the state layout (4).
  for f in "$ROOT"/test/Serialize/Inputs/*.mmptx; do
    case "$(basename "$f")" in
    *job*) m='\x00' ;; *programs*) m='\x01' ;; *) m='\x02' ;;
    esac
    printf "$m" | cat - "$f" > "$SEEDS/$(basename "$f").seed"
  done
  for f in "$ROOT"/test/Serialize/Inputs/*.bin; do
    case "$(basename "$f")" in
    compiler_state*) m='\x04' ;; example01*) m='\x05' ;;
    compiler_info*) m='\x06' ;;
    stack_info*) m='\x07' ;; extra*) m='\x08' ;; registers*) m='\x09' ;;
    requests*) m='\x0a' ;; instructions*) m='\x0b' ;; *) m='\x0c' ;;
    esac
    printf "$m" | cat - "$f" > "$SEEDS/$(basename "$f").seed"
  done
  FLAGS+=(-max_len=8192) ;;
esac

exec "$OUT/mmptx-$TARGET-fuzzer" "${FLAGS[@]}" "$@" \
  "$OUT/$TARGET-corpus" "$SEEDS"
