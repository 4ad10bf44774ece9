#!/usr/bin/env bash
# Checks that every C++ source of the project follows the naming rules of
# .clang-tidy (readability-identifier-naming, and
# readability-inconsistent-declaration-parameter-name: a declaration names
# its parameters as its definition does); lists each name that does not as
# file:line:col and fails. utils/fix-naming.sh renames the first kind.
#   bash utils/check-naming.sh      (JOBS=N for N clang-tidy jobs, default 2)
# Needs a configured build/ with its generated headers (utils/setup.sh).
# Exits 77 when clang-tidy-14 is not installed.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
JOBS=${JOBS:-2}
W=build/naming-check
for t in clang-tidy-14 run-clang-tidy-14; do
  command -v "$t" >/dev/null || { echo "check-naming: $t not found"; exit 77; }
done
[ -f build/compile_commands.json ] ||
  { echo "check-naming: configure build/ first (bash utils/setup.sh)" >&2; exit 1; }
PYBUILD=build/naming-python
if [ ! -f "$PYBUILD/compile_commands.json" ] &&
   python3 -m nanobind --cmake_dir >/dev/null 2>&1; then
  cmake -G Ninja -S . -B "$PYBUILD" -DMMPTX_PYTHON_ONLY=ON \
    -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
mkdir -p "$W"
python3 utils/naming-compdb.py . build "$PYBUILD" "$W" >"$W/files.txt" || exit 1
grep -q "^$ROOT/python/src/" "$W/files.txt" ||
  echo "check-naming: nanobind not installed: python/src is not checked"

HF="^$ROOT/(include/mmptx/|lib/|tools/|unittests/|bench/|fuzz/|examples/|python/src/|test/)"
run-clang-tidy-14 -p "$W" -j "$JOBS" -quiet \
  -checks='-*,readability-identifier-naming,readability-inconsistent-declaration-parameter-name' \
  -header-filter="$HF" \
  "${ROOT//./\\.}/.*\\.cpp\$" >"$W/clang-tidy.log" 2>&1
# The C API's headers name parameters in C's snake_case and its definitions
# in LLVM's CamelCase: their declarations may differ (the diagnostic is
# located at the header's declaration).
sed 's/\x1b\[[0-9;]*m//g' "$W/clang-tidy.log" |
  grep -E '(warning|error): ' | sed "s|^$ROOT/||" |
  grep -vE '^include/mmptx-c/.*\[readability-inconsistent-declaration-parameter-name\]$' |
  sort -u >"$W/found.txt"
if [ -s "$W/found.txt" ]; then
  cat "$W/found.txt"
  echo "check-naming: $(wc -l <"$W/found.txt") names break the naming rules" \
    "(bash utils/fix-naming.sh renames them)"
  exit 1
fi
echo "check-naming: $(wc -l <"$W/files.txt") C++ sources follow the naming rules"
