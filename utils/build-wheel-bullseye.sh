#!/usr/bin/env bash
# Builds the wheel in a Debian 11 (bullseye, glibc 2.31) root made with
# debootstrap, for a lower manylinux tag than a Debian 12 build can have
# (manylinux_2_31 instead of manylinux_2_36). Bullseye has no LLVM 14
# package, so LLVM 14's Support, Demangle and TableGen are built from
# Debian's llvm-toolchain-14 source package (utils/build-llvm-subset.sh).
# Its Python is 3.9: the wheel is cp39. Needs root.
#
#   bash utils/build-wheel-bullseye.sh   # -> build/wheel-bullseye/dist/mmptx-*-cp39-cp39-manylinux_2_31_x86_64.whl
#
# The root (build/wheel-roots/bullseye-build, or $MMPTX_WHEEL_ROOTS) and the
# LLVM it holds are kept: a first run downloads about 300 MB and builds
# about 250 LLVM files; a rerun builds mmptx incrementally. The wheel is
# then repaired and checked on this machine by utils/build-wheel.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
ROOTS=${MMPTX_WHEEL_ROOTS:-build/wheel-roots}
R=$ROOTS/bullseye-build
OUT=${MMPTX_WHEEL_DIR:-build/wheel-bullseye}
# The build tools of the root, pinned: pip with config settings (-C),
# CMake >= 3.20, and nanobind's newest release for Python 3.9.
PIP_VERSION=24.3.1
CMAKE_VERSION=3.31.6
NANOBIND_VERSION=2.15.0
SCIKIT_BUILD_CORE_VERSION=0.11.6

[ "$(id -u)" -eq 0 ] || { echo "build-wheel-bullseye: needs root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null ||
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null

# in_root CMD: runs CMD with bash in the root, in a private mount namespace,
# with this checkout at /src and the machine's ccache at /ccache.
in_root() {
  unshare --mount --fork bash -c '
    set -e
    mount --make-rprivate /
    mkdir -p "$1/src" "$1/ccache"
    mount -t proc proc "$1/proc"
    mount --rbind /dev "$1/dev"
    mount --bind "$2" "$1/src"
    [ -d "$3" ] && mount --bind "$3" "$1/ccache"
    exec chroot "$1" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
      PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      PIP_CERT=/etc/mmptx-pip-ca.crt PIP_DISABLE_PIP_VERSION_CHECK=1 \
      PIP_ROOT_USER_ACTION=ignore CCACHE_DIR=/ccache DEBIAN_FRONTEND=noninteractive \
      bash -ec "$4"' _ "$R" "$PWD" "${CCACHE_DIR:-/work/.ccache}" "$1"
}

if [ ! -f "$R/.mmptx-ready" ]; then
  echo "mmptx: making a bullseye build root in $R"
  rm -rf "$R"
  mkdir -p "$ROOTS"
  debootstrap --variant=minbase bullseye "$R" "$MIRROR" >"$ROOTS/bullseye-debootstrap.log" 2>&1 ||
    { tail -n 5 "$ROOTS/bullseye-debootstrap.log"; exit 1; }
  # The LLVM 14 source comes from bookworm's source package.
  cat >"$R/etc/apt/sources.list" <<EOF
deb $MIRROR bullseye main
deb-src $MIRROR bookworm main
EOF
  cp /etc/resolv.conf "$R/etc/resolv.conf"
  # This machine's CA bundle, for pip behind a TLS-inspecting proxy.
  cp /etc/ssl/certs/ca-certificates.crt "$R/etc/mmptx-pip-ca.crt"
  in_root "apt-get update -qq
    apt-get install -y -qq --no-install-recommends g++ ninja-build ccache xz-utils \
      python3-dev python3-pip python3-venv libxxhash-dev >/dev/null
    python3 -m pip install -q pip==$PIP_VERSION
    python3 -m pip install -q cmake==$CMAKE_VERSION nanobind==$NANOBIND_VERSION \
      scikit-build-core==$SCIKIT_BUILD_CORE_VERSION
    rm -f /var/cache/apt/archives/*.deb"
  touch "$R/.mmptx-ready"
fi

if [ ! -f "$R/opt/llvm-14/lib/cmake/llvm/LLVMConfig.cmake" ]; then
  echo "mmptx: building LLVM 14's Support, Demangle and TableGen in $R/opt/llvm-14"
  in_root "mkdir -p /root/llvm-src && cd /root/llvm-src
    apt-get source -qq --download-only llvm-toolchain-14 >/dev/null
    LLVM_SUBSET_WORK=/root/llvm-work JOBS=${JOBS:-2} bash /src/utils/build-llvm-subset.sh \
      /opt/llvm-14 /root/llvm-src/llvm-toolchain-14_*.orig.tar.xz
    rm -rf /root/llvm-work /root/llvm-src"
fi

rm -rf "$OUT/raw"
in_root "cd /src
  CMAKE_BUILD_PARALLEL_LEVEL=${JOBS:-2} python3 -m pip wheel --no-build-isolation --no-deps \
    -w $OUT/raw -C cmake.define.MMPTX_WHEEL_BUILD=ON \
    -C cmake.define.LLVM_DIR=/opt/llvm-14/lib/cmake/llvm \
    -C cmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -C cmake.define.CMAKE_C_COMPILER_LAUNCHER=ccache \
    -C 'build-dir=$OUT/{wheel_tag}' ."
MMPTX_WHEEL_RAW=$(ls "$OUT"/raw/mmptx-*.whl) MMPTX_WHEEL_DIR=$OUT bash utils/build-wheel.sh
