#!/usr/bin/env bash
# Sets up, builds and runs every test: the lit regression suite (which also
# runs the GoogleTest unit tests) and a bounded fuzzing run of the parsers.
# Prints one closing line "tests: N passed, M failed, K skipped".
set -uo pipefail
cd "$(dirname "$0")/.."

bash utils/setup.sh || { echo "tests: 0 passed, 1 failed"; exit 1; }

LIT=/usr/lib/llvm-14/build/utils/lit/lit.py
log=$(mktemp)
python3 "$LIT" -sv build/test 2>&1 | tee "$log"
lit_rc=${PIPESTATUS[0]}

count() { grep -E "^\s+$1\s*:" "$log" | tail -1 | sed -E 's/.*:\s*([0-9]+).*/\1/'; }
passed=$(count Passed); failed=$(count Failed); unsupported=$(count Unsupported)
passed=${passed:-0}; failed=${failed:-0}; unsupported=${unsupported:-0}

fuzz_rc=0
if [ -x fuzz/run.sh ] || [ -f fuzz/run.sh ]; then
  echo "mmptx: fuzzing the parsers for ${FUZZ_SECONDS:-60}s each"
  if FUZZ_BUILD=build/fuzz bash fuzz/run.sh "${FUZZ_SECONDS:-60}"; then
    passed=$((passed + 1))
  else
    fuzz_rc=1; failed=$((failed + 1))
  fi
fi
rm -f "$log"
echo
echo "tests: $passed passed, $failed failed, $unsupported skipped"
[ "$lit_rc" -eq 0 ] && [ "$fuzz_rc" -eq 0 ]
