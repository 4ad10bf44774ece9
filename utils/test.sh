#!/usr/bin/env bash
# Sets up, builds and runs every test: the lit regression suite (which also
# runs the GoogleTest unit tests), the ThreadSanitizer concurrency tests, the
# Python package's tests (on its wheel, which is also installed in a minimal
# Debian root without LLVM or CUDA) and bounded fuzzing runs of the PTX parser, the
# annotate rewriter and the Stack PTX and AST PTX compilers.
# Prints one closing line "tests: N passed, M failed, K skipped".
set -uo pipefail
cd "$(dirname "$0")/.."

bash utils/setup.sh || { echo "tests: 0 passed, 1 failed"; exit 1; }

# The lit that CMake found next to the LLVM it builds against.
LIT=$(sed -n 's/^MMPTX_LIT:FILEPATH=//p' build/CMakeCache.txt)
log=$(mktemp)
python3 "$LIT" -sv build/test 2>&1 | tee "$log"
lit_rc=${PIPESTATUS[0]}

count() { grep -E "^\s+$1\s*:" "$log" | tail -1 | sed -E 's/.*:\s*([0-9]+).*/\1/'; }
passed=$(count Passed); failed=$(count Failed); unsupported=$(count Unsupported)
passed=${passed:-0}; failed=${failed:-0}; unsupported=${unsupported:-0}

# Beyond lit: the thread-safety tests under ThreadSanitizer, then bounded
# fuzzing runs (parser FUZZ_SECONDS, default 60; the others a third of it).
extra_rc=0
# Each step's output goes to build/<name>.log; a failing step prints its tail.
step() {
  local name=$1 what=$2
  shift 2
  echo "mmptx: $what (log: build/$name.log)"
  if "$@" >"build/$name.log" 2>&1; then
    passed=$((passed + 1))
  else
    tail -n 40 "build/$name.log"
    echo "FAIL: $what"
    extra_rc=1; failed=$((failed + 1))
  fi
}
step format "clang-format check of every C and C++ source" \
  bash utils/check-format.sh
# The naming rules of .clang-tidy; skipped, not passed, without clang-tidy.
echo "mmptx: naming check of every C++ source (log: build/naming.log)"
bash utils/check-naming.sh >build/naming.log 2>&1
case $? in
0) passed=$((passed + 1)) ;;
77) echo "SKIPPED: naming check (clang-tidy-14 not installed)"
    unsupported=$((unsupported + 1)) ;;
*) tail -n 40 build/naming.log; echo "FAIL: naming check"
   extra_rc=1; failed=$((failed + 1)) ;;
esac
step tsan "ThreadSanitizer concurrency tests" bash utils/tsan.sh
# The Python package as users get it: the wheel (utils/build-wheel.sh: pip
# wheel, auditwheel repair, its checks), installed in a venv that sees this
# Python's packages (pytest, NumPy, Ray... and pip: no ensurepip needed).
# Then import it (a missing symbol only shows at import), run its tests and,
# now that it imports, the documentation's Python blocks (the lit run above
# skipped them).
step wheel-build "Python wheel: utils/build-wheel.sh (pip wheel ., auditwheel repair)" \
  bash utils/build-wheel.sh
VENV=build/wheel/venv
step python "Python package: the wheel in $VENV, import, pytest, doc blocks" bash -c \
  'rm -rf "$1" && python3 -m venv --system-site-packages --without-pip "$1" &&
   "$1/bin/python" -m pip install -q --no-deps --no-index --ignore-installed \
     build/wheel/dist/mmptx-*.whl &&
   (cd /tmp && "$OLDPWD/$1/bin/python" -c "import sys, mmptx, mmptx.compat
assert mmptx.__file__.startswith(sys.prefix), mmptx.__file__") &&
   "$1/bin/python" -m pytest -q python/tests &&
   "$1/bin/python" "$0" -q build/test/Docs/code-blocks.test' "$LIT" "$VENV"
# The wheel on a machine without LLVM or CUDA: a minimal Debian root made
# with debootstrap (kept in build/wheel-roots/); skipped, not passed, where
# it cannot be made (not root, no debootstrap or no Debian mirror).
echo "mmptx: the wheel in a root without LLVM or CUDA (log: build/wheel-test.log)"
timeout 1800 bash utils/test-wheel.sh >build/wheel-test.log 2>&1
case $? in
0) passed=$((passed + 1)) ;;
77) grep SKIPPED build/wheel-test.log | tail -1
    unsupported=$((unsupported + 1)) ;;
*) tail -n 40 build/wheel-test.log; echo "FAIL: wheel test"
   extra_rc=1; failed=$((failed + 1)) ;;
esac
# The GPU smoke script on the existing build: without a GPU it runs its
# fake-driver steps and reports the GPU steps as skipped.
step gpu-smoke "GPU smoke script (utils/gpu-smoke.sh --no-build)" \
  bash utils/gpu-smoke.sh --no-build

FUZZ_SECONDS=${FUZZ_SECONDS:-60}
step fuzz-parser "fuzzing the PTX parser for ${FUZZ_SECONDS}s" \
  bash fuzz/run.sh parser "$FUZZ_SECONDS"
for t in annotate stack ast wire; do
  step "fuzz-$t" "fuzzing $t for $((FUZZ_SECONDS / 3))s" \
    bash fuzz/run.sh "$t" "$((FUZZ_SECONDS / 3))"
done
rm -f "$log"
echo
echo "tests: $passed passed, $failed failed, $unsupported skipped"
[ "$lit_rc" -eq 0 ] && [ "$extra_rc" -eq 0 ]
