#!/bin/bash
# Runs inside the minimal Debian root that utils/test-wheel.sh makes, from
# /mmptx-test holding the wheel, the local wheels of its dependencies
# (wheels/), saxpy.cu and these scripts. Offline: pip installs from
# wheels/ only.
set -euo pipefail
cd /mmptx-test
fail() { echo "FAIL: $*" >&2; exit 1; }

# The machine a new user has: no LLVM, no compiler, no CUDA anywhere.
for p in /usr/lib/llvm-14 /usr/local/cuda /usr/include/llvm-14; do
  [ ! -e "$p" ] || fail "the root has $p"
done
for t in gcc cc g++ cmake nvcc ptxas; do
  ! command -v "$t" >/dev/null || fail "the root has $t"
done
if ldconfig -p | grep -E 'libLLVM|libnvrtc|libnvJitLink|libcuda\.so'; then
  fail "the loader path has LLVM or a CUDA library"
fi

python3 -m venv /tmp/venv
PY=/tmp/venv/bin/python
whl=$(ls mmptx-*.whl)
secs() { python3 -c "print(round($2 - $1, 1))"; }
t0=$EPOCHREALTIME
$PY -m pip install -q --no-index --find-links wheels numpy
t1=$EPOCHREALTIME
$PY -m pip install -q --no-index --find-links wheels "$whl"
t2=$EPOCHREALTIME
echo "pip install numpy: $(secs "$t0" "$t1") s; pip install $whl: $(secs "$t1" "$t2") s"

cd /tmp   # import the installed package, not a source tree
$PY -c "import mmptx, mmptx.compat, mmptx.nvrtc; print('import mmptx', mmptx.version())"
$PY /mmptx-test/not_found.py /mmptx-test/saxpy.cu

# NVIDIA's wheels at the versions the backends accept, then the quick start
# end to end, and the example script as a user runs it.
$PY -m pip install -q --no-index --find-links /mmptx-test/wheels \
  "nvidia-cuda-nvrtc==$NVRTC_VERSION" "nvidia-nvjitlink==$NVJITLINK_VERSION"
$PY /mmptx-test/quickstart_nvrtc.py /mmptx-test/saxpy.cu
mkdir -p /tmp/quickstart-out
$PY /mmptx-test/quickstart.py /tmp/quickstart-out
echo "in-root: all passed"
