#!/usr/bin/env bash
# Builds one libFuzzer target:
#   fuzz/build.sh [TARGET] [BUILD_DIR]
# TARGET: parser (default), annotate, stack, ast or wire; BUILD_DIR defaults to
# MMPTX_FUZZ_BUILD or <repo>/build-fuzz. Compiles the mmptx sources the
# target needs directly with clang++ and -fsanitize=fuzzer,address,undefined
# against the static LLVM Support library of llvm-config. annotate, stack, ast and wire
# include generated tables: they need a configured and built CMake tree,
# MMPTX_BUILD (default <repo>/build). CXX and LLVM_CONFIG override the tools.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TARGET=${1:-parser}
OUT=${2:-${MMPTX_FUZZ_BUILD:-$ROOT/build-fuzz}}
BUILD=${MMPTX_BUILD:-$ROOT/build}
CXX=${CXX:-clang++}
LLVM_CONFIG=${LLVM_CONFIG:-llvm-config}
mkdir -p "$OUT"

case "$TARGET" in
parser)
  SOURCES=("$ROOT/fuzz/ParserFuzzer.cpp" "$ROOT/lib/IR/Module.cpp"
           "$ROOT"/lib/Parser/*.cpp "$ROOT"/lib/Printer/*.cpp)
  GENERATED="" ;;
annotate)
  SOURCES=("$ROOT/fuzz/AnnotateFuzzer.cpp" "$ROOT"/lib/Annotate/*.cpp
           "$ROOT/lib/Inject/InjectFormat.cpp" "$ROOT/lib/Inject/InjectTypes.cpp")
  GENERATED=include/mmptx/Inject/InjectTypes.inc ;;
stack)
  SOURCES=("$ROOT/fuzz/StackFuzzer.cpp" "$ROOT"/lib/Stack/*.cpp
           "$ROOT"/lib/Expr/*.cpp "$ROOT/lib/Inject/InjectFormat.cpp"
           "$ROOT/lib/Inject/InjectTypes.cpp")
  GENERATED=include/mmptx/Stack/StackInstrs.inc ;;
ast)
  SOURCES=("$ROOT/fuzz/AstFuzzer.cpp" "$ROOT"/lib/Ast/*.cpp
           "$ROOT"/lib/Expr/*.cpp "$ROOT"/lib/Stack/*.cpp
           "$ROOT/lib/Inject/InjectFormat.cpp" "$ROOT/lib/Inject/InjectTypes.cpp")
  GENERATED=include/mmptx/Stack/StackInstrs.inc ;;
wire)
  SOURCES=("$ROOT/fuzz/WireFuzzer.cpp" "$ROOT"/lib/Serialize/*.cpp
           "$ROOT"/lib/Stack/*.cpp "$ROOT"/lib/Expr/*.cpp
           "$ROOT/lib/Inject/InjectFormat.cpp" "$ROOT/lib/Inject/InjectTypes.cpp")
  GENERATED=include/mmptx/Stack/StackInstrs.inc ;;
*)
  echo "build.sh: unknown target '$TARGET' (parser, annotate, stack, ast or wire)" >&2
  exit 2 ;;
esac
SOURCES+=("$ROOT/lib/Support/Diagnostic.cpp")
if [[ -n "$GENERATED" && ! -f "$BUILD/$GENERATED" ]]; then
  echo "build.sh: build $BUILD first (the $TARGET target needs $GENERATED)" >&2
  exit 1
fi
BIN="$OUT/mmptx-$TARGET-fuzzer"

# Rebuild only when a source, header or generated table is newer.
DEPS=("${SOURCES[@]}" "$ROOT/include/mmptx" "$ROOT/fuzz/build.sh")
[[ -z "$GENERATED" ]] || DEPS+=("$BUILD/$GENERATED")
if [[ -x "$BIN" ]] &&
   [[ -z $(find "${DEPS[@]}" -newer "$BIN" -print -quit) ]]; then
  echo "build.sh: $BIN is up to date"
  exit 0
fi

# The project's flags (C++17, no exceptions, no RTTI, assertions on) plus
# the sanitizers; UBSan's vptr check needs RTTI and is left out by clang.
LLVM_CXXFLAGS=$("$LLVM_CONFIG" --cxxflags | sed -e 's/-std=[^ ]*//g' \
  -e 's/-fno-exceptions//g')
FLAGS=(-std=c++17 -g -O1 -fno-omit-frame-pointer -fno-exceptions -fno-rtti
       -UNDEBUG -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=all -I"$ROOT/include" -I"$BUILD/include")

echo "build.sh: building $BIN"
# shellcheck disable=SC2086
"$CXX" "${FLAGS[@]}" $LLVM_CXXFLAGS "${SOURCES[@]}" -o "$BIN.tmp" \
  $("$LLVM_CONFIG" --ldflags) \
  $("$LLVM_CONFIG" --link-static --libs support) \
  $("$LLVM_CONFIG" --link-static --system-libs)
mv "$BIN.tmp" "$BIN"
echo "build.sh: built $BIN"
