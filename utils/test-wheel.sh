#!/usr/bin/env bash
# Installs the wheel that utils/build-wheel.sh made in a fresh venv on a
# machine without LLVM, a compiler or any CUDA library: a minimal Debian 12
# root (debootstrap --variant=minbase, python3 and python3-venv only), kept
# in build/wheel-roots/ ($MMPTX_WHEEL_ROOTS) so that a rerun reuses it. There, offline
# (test/Wheel/in-root.sh): pip install of the wheel and NumPy from local
# wheels, import mmptx, "NVRTC not found" from mmptx.nvrtc.compile, then,
# with NVIDIA's nvidia-cuda-nvrtc and nvidia-nvjitlink wheels (the versions
# the backends accept), the quick start from CUDA to cubin.
#
#   bash utils/build-wheel.sh && bash utils/test-wheel.sh [WHEEL]
#
# Exits 77 (skipped) where it cannot make the root: not root, no
# debootstrap, no Debian mirror, or no way to fetch the pinned wheels.
set -euo pipefail
cd "$(dirname "$0")/.."

# MMPTX_WHEEL_SUITE=bullseye: a Debian 11 root (glibc 2.31, Python 3.9),
# for the wheel of utils/build-wheel-bullseye.sh.
SUITE=${MMPTX_WHEEL_SUITE:-bookworm}
case $SUITE in
bookworm) PYVER=3.11 NUMPY_VERSION=2.4.6 ;;
bullseye) PYVER=3.9 NUMPY_VERSION=2.0.2 ;;
*) echo "test-wheel: MMPTX_WHEEL_SUITE is bookworm or bullseye" >&2; exit 2 ;;
esac
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
ROOTS=${MMPTX_WHEEL_ROOTS:-build/wheel-roots}
ROOT=$ROOTS/$SUITE
DEPS=${MMPTX_WHEEL_DEPS:-build/deps/wheels}
# NVRTC and nvJitLink of CUDA 13.0: the PTX NVRTC makes (.version 9.0) is
# what every CUDA 13.0 backend accepts (pyproject.toml's [cuda] extra).
NVRTC_VERSION=13.0.88
NVJITLINK_VERSION=13.0.88
PY=${PYTHON:-python3}

skip() { echo "SKIPPED: wheel test: $*"; exit 77; }
fail() { echo "FAIL: wheel test: $*" >&2; exit 1; }

whl=${1:-$(ls build/wheel/dist/mmptx-*.whl 2>/dev/null | head -1)}
[ -f "$whl" ] || fail "no wheel (run utils/build-wheel.sh first)"
whl=$(cd "$(dirname "$whl")" && pwd)/$(basename "$whl")

# The wheel's metadata: NumPy required, the extras declared.
"$PY" - "$whl" <<'EOF'
import sys, zipfile
from email.parser import Parser
with zipfile.ZipFile(sys.argv[1]) as z:
    name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
    meta = Parser().parsestr(z.read(name).decode())
    names = z.namelist()
requires = meta.get_all("Requires-Dist") or []
extras = set(meta.get_all("Provides-Extra") or [])
print("metadata: Requires-Dist", requires, "extras", sorted(extras))
assert any(r.split(";")[0].strip().startswith("numpy") and "extra" not in r
           for r in requires), "numpy is not a dependency"
for extra in ("ray", "torch", "cuda", "nvrtc", "progress", "search"):
    assert extra in extras, "extra [%s] missing" % extra
assert not any("nvidia" in r and "extra" not in r for r in requires), \
    "a CUDA wheel is a hard dependency"
assert not any(n.startswith("mmptx.libs/") for n in names), "grafted libraries"
EOF

[ "$(id -u)" -eq 0 ] || skip "not root (debootstrap and chroot need root)"
command -v unshare >/dev/null && command -v chroot >/dev/null ||
  skip "unshare or chroot missing"
if ! command -v debootstrap >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null 2>&1; } ||
    skip "debootstrap is not installed and apt-get could not install it"
fi

if [ ! -x "$ROOT/usr/bin/python3" ] || [ ! -f "$ROOT/usr/lib/python$PYVER/venv/__init__.py" ]; then
  echo "mmptx: making a minimal $SUITE root in $ROOT (debootstrap)"
  rm -rf "$ROOT.tmp"
  mkdir -p "$ROOTS"
  start=$(date +%s)
  if ! debootstrap --variant=minbase --include=python3,python3-venv \
      "$SUITE" "$ROOT.tmp" "$MIRROR" >"$ROOTS/debootstrap.log" 2>&1; then
    tail -n 5 "$ROOTS/debootstrap.log"
    rm -rf "$ROOT.tmp"
    skip "debootstrap of $SUITE from $MIRROR failed ($ROOTS/debootstrap.log)"
  fi
  apt_cache=$ROOT.tmp/var/cache/apt/archives
  rm -f "$apt_cache"/*.deb
  rm -rf "$ROOT"
  mv "$ROOT.tmp" "$ROOT"
  echo "mmptx: root made in $(($(date +%s) - start)) s"
fi

# The local wheels: NumPy for the root's Python and NVIDIA's.
want=("numpy==$NUMPY_VERSION" "nvidia-cuda-nvrtc==$NVRTC_VERSION"
      "nvidia-nvjitlink==$NVJITLINK_VERSION")
have() { ls "$DEPS"/"$1"-"$2"-*.whl >/dev/null 2>&1; }
if ! have numpy "$NUMPY_VERSION" || ! have nvidia_cuda_nvrtc "$NVRTC_VERSION" ||
   ! have nvidia_nvjitlink "$NVJITLINK_VERSION"; then
  PIP_ROOT_USER_ACTION=ignore "$PY" -m pip download -q --disable-pip-version-check \
    --no-deps --only-binary=:all: --python-version "$PYVER" \
    --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux_2_28_x86_64 \
    -d "$DEPS" "${want[@]}" || skip "could not download ${want[*]}"
fi

# The test's files, in a fresh folder of the root.
T=$ROOT/mmptx-test
rm -rf "$T" "$ROOT/tmp/venv" "$ROOT/tmp/quickstart-out"
mkdir -p "$T/wheels"
cp "$whl" "$T/"
for w in "numpy-$NUMPY_VERSION" "nvidia_cuda_nvrtc-$NVRTC_VERSION" \
         "nvidia_nvjitlink-$NVJITLINK_VERSION"; do
  cp "$DEPS"/"$w"-*.whl "$T/wheels/"
done
cp examples/quickstart/saxpy.cu examples/python/quickstart.py \
   test/Wheel/in-root.sh test/Wheel/not_found.py test/Wheel/quickstart_nvrtc.py "$T/"

# A private mount namespace: /proc and /dev are mounted for the root only
# and go away with it. A clean environment: nothing of this machine's
# PATH, LD_LIBRARY_PATH or CUDA_HOME.
start=$(date +%s)
unshare --mount --fork bash -c '
  set -e
  mount --make-rprivate /
  mount -t proc proc "$1/proc"
  mount --rbind /dev "$1/dev"
  exec chroot "$1" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    NVRTC_VERSION="$2" NVJITLINK_VERSION="$3" PIP_DISABLE_PIP_VERSION_CHECK=1 \
    /bin/bash /mmptx-test/in-root.sh' _ "$ROOT" "$NVRTC_VERSION" "$NVJITLINK_VERSION"
echo "mmptx: wheel test passed in $(($(date +%s) - start)) s"
# The root is kept for the next run, not what this run installed in it.
rm -rf "$T" "$ROOT/tmp/venv" "$ROOT/tmp/quickstart-out"
