#!/usr/bin/env bash
# Builds and runs the annotate rewriter fuzzer for SECONDS (default 60):
#   fuzz/annotate.sh [SECONDS] [extra libFuzzer flags...]
# Needs a configured build for the generated InjectTypes.inc: MMPTX_BUILD
# (default <repo>/build). Seeds are the .cu files of test/Annotate and
# test/Integration; crashes go to <fuzz build>/annotate-artifacts.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${MMPTX_FUZZ_BUILD:-$ROOT/build-fuzz}
BUILD=${MMPTX_BUILD:-$ROOT/build}
CXX=${CXX:-clang++}
LLVM_CONFIG=${LLVM_CONFIG:-llvm-config}
SECONDS_TO_RUN=${1:-60}
shift || true
mkdir -p "$OUT"

if [[ ! -f "$BUILD/include/mmptx/IR/InjectTypes.inc" ]]; then
  echo "annotate.sh: build $BUILD first (needs include/mmptx/IR/InjectTypes.inc)" >&2
  exit 1
fi

SOURCES=(
  "$ROOT/fuzz/AnnotateFuzzer.cpp"
  "$ROOT/lib/Support/Diagnostic.cpp"
  "$ROOT"/lib/Annotate/*.cpp
)
BIN="$OUT/mmptx-annotate-fuzzer"
if [[ ! -x "$BIN" ]] || [[ -n $(find "${SOURCES[@]}" "$ROOT/include/mmptx" \
      "$ROOT/fuzz/annotate.sh" -newer "$BIN" -print -quit) ]]; then
  LLVM_CXXFLAGS=$("$LLVM_CONFIG" --cxxflags | sed -e 's/-std=[^ ]*//g' \
    -e 's/-fno-exceptions//g')
  FLAGS=(-std=c++17 -g -O1 -fno-omit-frame-pointer -fno-exceptions -fno-rtti
         -UNDEBUG -fsanitize=fuzzer,address,undefined
         -fno-sanitize-recover=all -I"$ROOT/include" -I"$BUILD/include")
  echo "annotate.sh: building $BIN"
  # shellcheck disable=SC2086
  "$CXX" "${FLAGS[@]}" $LLVM_CXXFLAGS "${SOURCES[@]}" -o "$BIN.tmp" \
    $("$LLVM_CONFIG" --ldflags) \
    $("$LLVM_CONFIG" --link-static --libs support) \
    $("$LLVM_CONFIG" --link-static --system-libs)
  mv "$BIN.tmp" "$BIN"
fi

SEEDS="$OUT/annotate-seeds"
rm -rf "$SEEDS"
mkdir -p "$SEEDS" "$OUT/annotate-corpus" "$OUT/annotate-artifacts"
cp "$ROOT"/test/Annotate/*.cu "$ROOT"/test/Annotate/Inputs/*.cu \
   "$ROOT"/test/Integration/*.cu "$SEEDS/"

exec "$BIN" -max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 \
  -max_len=16384 -print_final_stats=1 \
  -artifact_prefix="$OUT/annotate-artifacts/" \
  "$@" "$OUT/annotate-corpus" "$SEEDS"
