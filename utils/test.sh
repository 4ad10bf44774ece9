#!/usr/bin/env bash
# Sets up, builds and runs every test: the lit regression suite (which also
# runs the GoogleTest unit tests), the ThreadSanitizer concurrency tests, the
# Python package's tests and bounded fuzzing runs of the PTX parser, the
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
# The Python package: build and install it, import it (a missing symbol
# only shows at import), run its tests and, now that it imports, the
# documentation's Python blocks (the lit run above skipped them).
step python "Python package: pip install ., import, pytest, doc blocks" bash -c \
  'python3 -m pip install --no-build-isolation . &&
   (cd /tmp && python3 -c "import mmptx, mmptx.compat") &&
   python3 -m pytest -q python/tests &&
   python3 "$0" -q build/test/Docs/code-blocks.test' "$LIT"
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
