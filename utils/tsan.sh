#!/usr/bin/env bash
# Builds the thread-safety tests with ThreadSanitizer in ./build-tsan and
# runs them: several threads render from one inject handle (C++ and C API),
# compile Stack PTX with per-thread contexts, and batch threads share one
# PTX compiler and one cache directory. Exits non-zero on any
# failure or data-race report.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${TSAN_BUILD:-build-tsan}
TESTS=(MMPTXInjectTests MMPTXCAPITests MMPTXStackTests MMPTXBackendTests)
cmake -G Ninja -S . -B "$OUT" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMMPTX_USE_SANITIZER=thread >/dev/null
ninja -C "$OUT" -j"${JOBS:-2}" "${TESTS[@]}"
export TSAN_OPTIONS="halt_on_error=1 abort_on_error=0 exitcode=66"
for t in "${TESTS[@]}"; do
  "$OUT/unittests/$t" --gtest_brief=1 --gtest_filter='*Concurrent*'
done
echo "tsan: no data race in the concurrency tests"
