#!/usr/bin/env bash
# The first run of mmptx on a machine with an NVIDIA GPU: what only hardware
# can settle, in a few minutes from a clean checkout (the build included).
#
#   bash utils/gpu-smoke.sh            # build (utils/setup.sh), then check
#   bash utils/gpu-smoke.sh --no-build # use the existing build/
#   bash utils/gpu-smoke.sh --no-python # skip the Python steps (a machine
#                                       # whose Python cannot import the build)
#
# Steps: the GPU and driver (nvidia-smi, the probe, a driver of CUDA 13.0 or
# later for CUDA 13 cubins); the half-precision, signed-zero and division
# edge cases on the GPU against the interpreter; a deliberate fault (the
# error must name the faulting launch); the GPU lit tests (feature
# cuda-gpu: the CuTe variants, the quickstart, Philox, the semiring GEMM);
# reduced random Stack, AST and packed runs; the Python runtime (a launch
# from a second thread, too few arguments, float64 for f32). The runtime is
# also run against the fake driver, which needs no GPU.
#
# Without a GPU the GPU steps are reported as skipped and the script exits 0
# (a machine that has a GPU whose probe fails is a failure, with the reason).
# Each step's output is in build/gpu-smoke/<step>.log. The last line is
#   gpu-smoke: N passed, M failed, K skipped
set -uo pipefail
cd "$(dirname "$0")/.."
START=$SECONDS

BUILD=1 PYTHON=1
for a in "$@"; do
  case $a in
  --no-build) BUILD=0 ;;
  --no-python) PYTHON=0 ;;
  -h | --help) sed -n '2,22p' "$0"; exit 0 ;;
  *) echo "gpu-smoke: unknown option '$a' (--no-build, --no-python, --help)" >&2; exit 2 ;;
  esac
done

JOBS=${JOBS:-$(nproc)}
export JOBS
if [ "$BUILD" = 1 ]; then
  echo "gpu-smoke: building with JOBS=$JOBS (utils/setup.sh)"
  if ! bash utils/setup.sh >/tmp/mmptx-gpu-smoke-build.log 2>&1; then
    tail -n 40 /tmp/mmptx-gpu-smoke-build.log
    echo "gpu-smoke: 0 passed, 1 failed, 0 skipped"
    exit 1
  fi
fi
[ -d /usr/local/cuda/bin ] && export PATH="$PATH:/usr/local/cuda/bin"
export PATH="$PWD/build/bin:$PATH"
LOGS=build/gpu-smoke
mkdir -p "$LOGS"
LIT=$(sed -n 's/^MMPTX_LIT:FILEPATH=//p' build/CMakeCache.txt)
passed=0 failed=0 skipped=0
GPU=0 GPU_WHY=""

ok() { passed=$((passed + 1)); echo "  PASS: $1"; }
bad() { failed=$((failed + 1)); echo "  FAIL: $1"; }
skip() { skipped=$((skipped + 1)); echo "  SKIPPED: $1"; }
# step NAME WHAT COMMAND...: runs COMMAND, its output in $LOGS/NAME.log.
step() {
  local name=$1 what=$2 t0=$SECONDS
  shift 2
  if "$@" >"$LOGS/$name.log" 2>&1; then
    ok "$what ($((SECONDS - t0)) s)"
  else
    tail -n 30 "$LOGS/$name.log" | sed 's/^/    /'
    bad "$what (log: $LOGS/$name.log)"
  fi
}
# gpu_step: step, or skipped without a GPU.
gpu_step() {
  if [ "$GPU" = 1 ]; then step "$@"; else skip "$2 ($GPU_WHY)"; fi
}

echo "== the GPU and its driver"
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap \
    --format=csv 2>&1 | sed 's/^/  /'
else
  echo "  (no nvidia-smi)"
fi
probe=$(python3 utils/gpuprobe.py build/bin/mmptx-run 2>"$LOGS/probe.log")
case $? in
0)
  GPU=1
  info=$(mmptx-run --probe 2>&1)
  echo "  $info"
  driver=$(sed -n 's/.*driver \([0-9][0-9]*\).*/\1/p' <<<"$info")
  if [ -n "$driver" ] && [ "$driver" -ge 13000 ]; then
    ok "device 0 is $probe, driver $driver (CUDA 13.0 cubins need 13000)"
  else
    bad "driver '${driver:-unknown}' is older than CUDA 13.0 (13000): CUDA 13 cubins will not load"
  fi ;;
77)
  GPU_WHY="no GPU"
  sed 's/^/  /' "$LOGS/probe.log"
  skip "the GPU probe (no GPU)" ;;
*)
  GPU_WHY="the GPU probe failed"
  sed 's/^/  /' "$LOGS/probe.log"
  bad "the GPU probe: a GPU seems present but cannot be used" ;;
esac

echo "== the runtime on the fake driver (no GPU needed)"
step fake-runtime "runtime unit tests: threads, restored contexts, kernel faults" \
  build/unittests/MMPTXRuntimeTests
step fake-lit "mmptx-run on the fake driver, the edge-case pipeline" \
  python3 "$LIT" -sv build/test/Runtime/mmptx-run-fault-fake.test \
  build/test/Runtime/mmptx-run-fake-cubin.test \
  build/test/Runtime/edge-cases-pipeline.test

echo "== on the GPU"
gpu_step edge "half-precision fma, signed-zero min/max, division: GPU = interpreter" \
  python3 "$LIT" -sv build/test/Runtime/gpu-edge-cases.test
gpu_step fault "a deliberate fault names its launch" \
  python3 "$LIT" -sv build/test/Runtime/gpu-fault.test
# Every other GPU lit test but the long random ones (reduced below).
gpu_tests=()
while IFS= read -r f; do
  case $f in
  */Inputs/* | *.py | *random* | *edge-cases* | *gpu-fault*) ;;
  *) gpu_tests+=("build/$f") ;;
  esac
done < <(grep -rl 'REQUIRES:.*cuda-gpu' test | sort)
gpu_step lit "the GPU lit tests (${#gpu_tests[@]}: CuTe variants, quickstart, Philox, semiring GEMM, ...)" \
  python3 "$LIT" -sv "${gpu_tests[@]}"

random_checks() {
  local work=build/gpu-smoke/random k=test/Runtime/Inputs
  rm -rf "$work" && mkdir -p "$work" || return 1
  nvcc -ptx -arch=sm_80 -Iinclude -Ibuild/include $k/stack_kernel.cu \
    -o "$work/stack.ptx" || return 1
  nvcc -ptx -arch=sm_80 -Iinclude -Ibuild/include $k/ast_kernel.cu \
    -o "$work/ast.ptx" || return 1
  local arch=$1 rc=0
  python3 $k/check-stack-random.py --ptx "$work/stack.ptx" \
    --base $k/stack_kernel.stack --arch "$arch" --seeds 1-60 \
    --work "$work/s" || rc=1
  python3 $k/check-stack-random.py --ast --ptx "$work/ast.ptx" \
    --arch "$arch" --seeds 1-60 --words 24 --work "$work/a" || rc=1
  python3 $k/check-stack-random.py --packed --include include \
    --include build/include --base $k/stack_kernel.stack --arch "$arch" \
    --seeds 1-256 --work "$work/p" || rc=1
  return $rc
}
gpu_step random "random Stack (60), AST (60) and packed (256) programs: GPU = interpreter" \
  random_checks "${probe:-sm_80}"
[ -f "$LOGS/random.log" ] && grep -E '^(checked|GPU:|skipped)' "$LOGS/random.log" | sed 's/^/    /'

# The Python package, built if it is not installed.
python_ready() {
  (cd /tmp && python3 -c "import mmptx.runtime") >/dev/null 2>&1 && return 0
  echo "  (installing the Python package: pip install .)"
  CMAKE_BUILD_PARALLEL_LEVEL=$JOBS python3 -m pip install -q \
    --no-build-isolation . >"$LOGS/pip.log" 2>&1 &&
    (cd /tmp && python3 -c "import mmptx.runtime") >/dev/null 2>&1
}
if [ "$PYTHON" = 0 ]; then
  skip "the Python runtime tests (--no-python)"
elif python_ready; then
  step python-fake "Python runtime tests on the fake driver" \
    python3 -m pytest -q python/tests/test_runtime.py
  gpu_step python "Python runtime on the GPU: second thread, checked launches, argument checks" \
    python3 utils/gpu-smoke-python.py
else
  bad "the Python package does not build or import (log: $LOGS/pip.log)"
fi

echo "gpu-smoke: $((SECONDS - START)) s on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "gpu-smoke: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
