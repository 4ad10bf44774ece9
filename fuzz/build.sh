#!/usr/bin/env bash
# Builds the libFuzzer target for the PTX parser:
#   fuzz/build.sh [BUILD_DIR]        (default: <repo>/build-fuzz)
# Compiles the mmptx sources the parser needs directly with clang++ and
# -fsanitize=fuzzer,address,undefined, against the static LLVM Support
# library of llvm-config. CXX and LLVM_CONFIG override the tools.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${1:-${MMPTX_FUZZ_BUILD:-$ROOT/build-fuzz}}
CXX=${CXX:-clang++}
LLVM_CONFIG=${LLVM_CONFIG:-llvm-config}
mkdir -p "$OUT"

SOURCES=(
  "$ROOT/fuzz/ParserFuzzer.cpp"
  "$ROOT/lib/Support/Diagnostic.cpp"
  "$ROOT/lib/IR/Module.cpp"
  "$ROOT"/lib/Parser/*.cpp
  "$ROOT"/lib/Printer/*.cpp
)
BIN="$OUT/mmptx-parser-fuzzer"

# Rebuild only when a source or header is newer than the binary.
if [[ -x "$BIN" ]] && [[ -z $(find "${SOURCES[@]}" "$ROOT/include/mmptx" \
      "$ROOT/fuzz/build.sh" -newer "$BIN" -print -quit) ]]; then
  echo "build.sh: $BIN is up to date"
  exit 0
fi

# The project's flags (C++17, no exceptions, no RTTI, assertions on) plus
# the sanitizers; UBSan's vptr check needs RTTI and is left out by clang.
LLVM_CXXFLAGS=$("$LLVM_CONFIG" --cxxflags | sed -e 's/-std=[^ ]*//g' \
  -e 's/-fno-exceptions//g')
FLAGS=(-std=c++17 -g -O1 -fno-omit-frame-pointer -fno-exceptions -fno-rtti
       -UNDEBUG -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=all -I"$ROOT/include")

echo "build.sh: building $BIN"
# shellcheck disable=SC2086
"$CXX" "${FLAGS[@]}" $LLVM_CXXFLAGS "${SOURCES[@]}" -o "$BIN.tmp" \
  $("$LLVM_CONFIG" --ldflags) \
  $("$LLVM_CONFIG" --link-static --libs support) \
  $("$LLVM_CONFIG" --link-static --system-libs)
mv "$BIN.tmp" "$BIN"
echo "build.sh: built $BIN"
