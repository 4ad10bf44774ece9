#!/usr/bin/env bash
# Installs what mmptx needs on a fresh Debian 12 machine (run as root), then
# configures and builds it in ./build. Safe to run again: installs only what
# is missing and rebuilds incrementally.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(cmake ninja-build g++ python3 llvm-14-dev llvm-14-tools clang-14
          libclang-rt-14-dev libgtest-dev libgmock-dev libbenchmark-dev
          zlib1g-dev libz3-dev libxml2-dev libffi-dev pkg-config clang-format-14
          clang-tidy-14 libxxhash-dev)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "mmptx: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The Python package (pip install .) builds with nanobind and
# scikit-build-core; its tests use pytest and NumPy. The compile farm's tests
# (mmptx.distributed) use Ray, the search example pyribs (with its
# visualisation extras), tqdm and matplotlib: optional for users (the extras
# mmptx[ray] and mmptx[search]), installed here so that CI runs their tests.
PY_PACKAGES=(nanobind scikit-build-core numpy pytest "ray[default]==2.60.0"
             "ribs[visualize]==0.12.0" tqdm==4.70.1 matplotlib==3.11.2)
py_missing=()
for p in "${PY_PACKAGES[@]}"; do
  python3 -m pip show -q "${p%%[[=]*}" >/dev/null 2>&1 || py_missing+=("$p")
done
if [ ${#py_missing[@]} -gt 0 ]; then
  echo "mmptx: pip installing ${py_missing[*]}"
  python3 -m pip install -q "${py_missing[@]}"
fi

# The CUDA toolkit is optional: tests that need nvcc/ptxas/NVRTC/nvJitLink
# are UNSUPPORTED without it.
if [ -d /usr/local/cuda/bin ]; then
  export PATH="$PATH:/usr/local/cuda/bin"
fi

BUILD_TYPE=${BUILD_TYPE:-Release}
mkdir -p build

# nvPTXCompiler (the in-process PTX -> cubin library) comes from NVIDIA's
# wheel, pinned to the toolkit's release (a newer compiler accepts older PTX,
# never the reverse). It is installed into the build tree only: mmptx builds
# against it and never ships it. Optional: without it the nvptxcompiler
# backend is unavailable and its tests are UNSUPPORTED.
NVPTXCOMPILER_VERSION=${NVPTXCOMPILER_VERSION:-13.0.88}
PY=$(command -v python3 || true)
# pip_target DIR SPEC...: the wheels SPEC... alone (no dependencies) in DIR; --target
# installs outside any Python environment (no PEP 668 refusal).
pip_target() {
  local dir=$1
  shift
  rm -rf "$dir"
  [ -n "$PY" ] && PIP_ROOT_USER_ACTION=ignore "$PY" -m pip install -q --disable-pip-version-check \
    --no-deps --target "$dir" "$@"
}
# wheel_dep DIR VERSION DONE FAILED WHEEL...: the wheels WHEEL...==VERSION in
# DIR (pip_target) unless DIR holds the last one already; says DONE when
# installed, warns FAILED (what goes missing) when not.
wheel_dep() {
  local dir=$1 version=$2 done=$3 failed=$4 wheel specs=()
  shift 4
  for wheel; do specs+=("$wheel==$version"); done
  ls "$dir/${wheel//-/_}-$version.dist-info" >/dev/null 2>&1 && return 0
  if [ -n "$PY" ] && ! "$PY" -m pip --version >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-pip >/dev/null || true
  fi
  if pip_target "$dir" "${specs[@]}"; then
    echo "mmptx: $done in $dir"
  else
    echo "mmptx: warning: could not install $failed" >&2
  fi
}
wheel_dep build/deps/nvptxcompiler "$NVPTXCOMPILER_VERSION" "nvPTXCompiler $NVPTXCOMPILER_VERSION" \
  "nvidia-nvptxcompiler; the nvptxcompiler backend is disabled" nvidia-nvptxcompiler
# The CuTe/CUTLASS headers of the nvidia-cutlass wheel (pinned), for the CuTe
# example, its tests and utils/gen-realworld-ptx.sh, installed like
# nvPTXCompiler into the build tree (utils/find-cutlass.sh finds it there);
# only the headers are used, hence --no-deps. Optional: without them those
# tests are UNSUPPORTED.
CUTLASS_VERSION=${CUTLASS_VERSION:-4.2.0.0}
wheel_dep build/deps/cutlass "$CUTLASS_VERSION" "CUTLASS $CUTLASS_VERSION headers" \
  "nvidia-cutlass; the CuTe tests are UNSUPPORTED" nvidia-cutlass

# cuobjdump and the nvdisasm it runs, for the tests that compare the SASS
# of pruned and unpruned PTX (the toolkit has neither). NVIDIA publishes
# these wheels from 13.2 on; a newer disassembler reads older cubins.
# Optional: without them those tests are UNSUPPORTED.
CUOBJDUMP_VERSION=${CUOBJDUMP_VERSION:-13.2.51}
wheel_dep build/deps/cuobjdump "$CUOBJDUMP_VERSION" "cuobjdump/nvdisasm $CUOBJDUMP_VERSION" \
  "cuobjdump/nvdisasm; the SASS comparisons are UNSUPPORTED" nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm

cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE="$BUILD_TYPE" >build/configure.log 2>&1 ||
  { cat build/configure.log; exit 1; }
ninja -C build -j"${JOBS:-2}"
