#!/usr/bin/env bash
# Builds and installs the part of LLVM 14 that mmptx links (LLVMSupport,
# LLVMDemangle, LLVMTableGen, LLVM's headers and its CMake package) into
# PREFIX, for a build root whose distribution has no LLVM 14: the
# manylinux images of cibuildwheel (pyproject.toml's [tool.cibuildwheel]),
# or Debian 11. Without terminfo, zlib, libxml2 or Z3, so that nothing but
# libc, libm and the loader is needed by what links it.
#
#   bash utils/build-llvm-subset.sh PREFIX [SOURCE]
#
# SOURCE: an LLVM 14 source tree (the directory holding llvm/), or a
# llvm-project tarball (.tar.xz); without it, llvm-project 14.0.6 is
# downloaded from LLVM's GitHub release and its SHA-256 checked. Then
# configure with -DLLVM_DIR=PREFIX/lib/cmake/llvm. Takes about 250
# compiles (a few minutes on 4 cores).
set -euo pipefail
PREFIX=${1:?usage: build-llvm-subset.sh PREFIX [SOURCE]}
SOURCE=${2:-}
VERSION=14.0.6
URL=https://github.com/llvm/llvm-project/releases/download/llvmorg-$VERSION/llvm-project-$VERSION.src.tar.xz
SHA256=8b3cfd7bc695bd6cea0f37f53f0981f34f87496e79e2529874fd03a2f9dd3a8a
WORK=${LLVM_SUBSET_WORK:-$(mktemp -d)}

if [ -z "$SOURCE" ]; then
  SOURCE=$WORK/llvm-project-$VERSION.src.tar.xz
  curl -fsSL -o "$SOURCE" "$URL"
  echo "$SHA256  $SOURCE" | sha256sum -c -
fi
if [ -f "$SOURCE" ]; then
  mkdir -p "$WORK/src"
  # llvm/ and the top-level cmake/ only: the rest (clang, lldb, ...) is
  # most of the tarball.
  top=$(tar -tJf "$SOURCE" | head -n 1 | cut -d/ -f1) || true
  tar -xJf "$SOURCE" -C "$WORK/src" --strip-components=1 "$top/llvm" "$top/cmake"
  SOURCE=$WORK/src
fi
[ -f "$SOURCE/llvm/CMakeLists.txt" ] || { echo "no llvm/ in $SOURCE" >&2; exit 1; }

# LLVM_DISTRIBUTION_COMPONENTS: install-distribution builds and installs
# these alone, and LLVMExports.cmake names only them.
cmake -G Ninja -S "$SOURCE/llvm" -B "$WORK/build" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$PREFIX" \
  -DLLVM_TARGETS_TO_BUILD= -DLLVM_ENABLE_PROJECTS= \
  -DLLVM_ENABLE_TERMINFO=OFF -DLLVM_ENABLE_ZLIB=OFF -DLLVM_ENABLE_LIBXML2=OFF \
  -DLLVM_ENABLE_LIBEDIT=OFF -DLLVM_ENABLE_LIBPFM=OFF -DLLVM_ENABLE_Z3_SOLVER=OFF \
  -DLLVM_ENABLE_ASSERTIONS=OFF -DLLVM_ENABLE_PIC=ON \
  -DLLVM_INCLUDE_TESTS=OFF -DLLVM_INCLUDE_EXAMPLES=OFF \
  -DLLVM_INCLUDE_BENCHMARKS=OFF -DLLVM_INCLUDE_DOCS=OFF \
  -DLLVM_BUILD_TOOLS=OFF -DLLVM_BUILD_UTILS=OFF \
  -DLLVM_DISTRIBUTION_COMPONENTS="LLVMSupport;LLVMDemangle;LLVMTableGen;llvm-headers;cmake-exports" \
  >"$WORK/configure.log" 2>&1 || { tail -n 30 "$WORK/configure.log"; exit 1; }
ninja -C "$WORK/build" -j"${JOBS:-$(nproc)}" install-distribution
echo "LLVM $VERSION subset in $PREFIX (-DLLVM_DIR=$PREFIX/lib/cmake/llvm)"
