#!/usr/bin/env bash
# Renames every identifier of the project's C++ sources that breaks the
# naming rules of .clang-tidy (LLVM's: CamelCase types and variables,
# camelBack functions), then formats the tree. Repeatable: run it on any
# tree, e.g. after a merge; it renames nothing where the rules hold.
#   bash utils/fix-naming.sh        (JOBS=N for N clang-tidy jobs, default 2)
# Needs a clean checkout (it reverts and re-applies its own edits) and
# clang-tidy-14, clang-apply-replacements-14, universal-ctags, PyYAML.
#
# 1. Configures build/ if needed and builds the generated headers only; the
#    Python extension's sources get their compile commands from a configure
#    with MMPTX_PYTHON_ONLY=ON (build/naming-python), without building it.
# 2. run-clang-tidy exports readability-identifier-naming's fixes for every
#    C++ source (utils/naming-compdb.py); utils/naming-fixes.py merges them
#    to one rename per declaration, gives a "The" prefix to a variable whose
#    new name is a type's, and clang-apply-replacements applies them.
# 3. g++ -fsyntax-only -Wshadow over every source: a renamed declaration
#    that now hides another (a parameter `size` that became `Size` in a class
#    with a member `Size`) gets the prefix instead; the edits are reverted
#    and applied again. Then clang-format.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
JOBS=${JOBS:-2}
W=build/naming
start=$SECONDS

for t in clang-tidy-14 run-clang-tidy-14 clang-apply-replacements-14 ctags; do
  command -v "$t" >/dev/null || { echo "fix-naming: $t not found" >&2; exit 1; }
done
if ! git diff --quiet HEAD --; then
  echo "fix-naming: commit or stash your changes first" >&2
  exit 1
fi

# 1. Compile commands and generated headers.
if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
ninja -C build build.ninja >/dev/null  # re-runs CMake if the tree moved
mapfile -t gen < <(ninja -C build -t targets all |
  sed -n 's/^\([^/][^:]*\.\(inc\|h\|def\)\): CUSTOM_COMMAND$/\1/p')
ninja -C build -j"$JOBS" "${gen[@]}" >/dev/null
PYBUILD=build/naming-python
if python3 -m nanobind --cmake_dir >/dev/null 2>&1; then
  [ -f "$PYBUILD/compile_commands.json" ] ||
    cmake -G Ninja -S . -B "$PYBUILD" -DMMPTX_PYTHON_ONLY=ON \
      -DCMAKE_BUILD_TYPE=Release >/dev/null
else
  echo "fix-naming: nanobind not installed: python/src is left out" >&2
fi
# REUSE_FIXES=1 reuses the last run's clang-tidy fixes (same sources only).
[ "${REUSE_FIXES:-0}" = 1 ] && [ -f "$W/fixes.yaml" ] ||
  { rm -rf "$W"; REUSE_FIXES=0; }
mkdir -p "$W/apply"
python3 utils/naming-compdb.py . build "$PYBUILD" "$W" >"$W/files.txt"
echo "fix-naming: $(wc -l <"$W/files.txt") C++ sources"

# 2. The renames clang-tidy proposes.
HF="^$ROOT/(include/mmptx/|lib/|tools/|unittests/|bench/|fuzz/|examples/|python/src/|test/)"
[ "$REUSE_FIXES" = 1 ] || run-clang-tidy-14 -p "$W" -j "$JOBS" -quiet \
  -checks='-*,readability-identifier-naming' -header-filter="$HF" \
  -export-fixes "$W/fixes.yaml" "${ROOT//./\\.}/.*\\.cpp\$" \
  >"$W/clang-tidy.log" 2>&1 || true
echo "fix-naming: clang-tidy done ($((SECONDS - start))s)"
if grep -q 'error:' "$W/clang-tidy.log"; then
  grep 'error:' "$W/clang-tidy.log" | sed 's/\x1b\[[0-9;]*m//g' | sort -u >&2
  echo "fix-naming: clang-tidy could not parse the sources above" >&2
  exit 1
fi
[ -f "$W/fixes.yaml" ] || { echo "fix-naming: nothing to rename"; exit 0; }

apply() {
  python3 utils/naming-fixes.py . "$W/fixes.yaml" "$W/apply/fixes.yaml" \
    "$@" >"$W/renames.log"
  clang-apply-replacements-14 "$W/apply"
}
apply

# 3. Declarations that now hide another one.
shadows() {
  python3 - "$W/compile_commands.json" <<'EOF' |
import json, shlex, sys
for e in json.load(open(sys.argv[1])):
    args = shlex.split(e["command"])
    out = []
    skip = False
    for a in args[1:]:
        if skip:
            skip = False
        elif a in ("-o", "-c"):
            skip = a == "-o"
        elif not a.startswith("-O"):
            out.append(a)
    print(shlex.join([e["directory"]] + out))
EOF
    LC_ALL=C xargs -P "$JOBS" -L 1 sh -c \
      'cd "$0" && g++ -fsyntax-only -Wshadow "$@" 2>&1 || true' |
    python3 -c '
import re, sys
lines = sys.stdin.read().splitlines()
seen = set()
for i, l in enumerate(lines):
    m = re.match(r"(\S+?):(\d+):\d+: error: declaration of .* "
                 r"changes meaning of .(\w+).", l)
    if m:
        seen.add(f"{m[1]}:{m[2]}:{m[3]} -")
        continue
    m = re.match(r"(\S+?):(\d+):\d+: (?:warning|error): declaration of "
                 r".(?:[^\x27]*\W)?(\w+). shadows", l)
    if not m:
        continue
    if "shadows template parameter" in l:
        seen.add(f"{m[1]}:{m[2]}:{m[3]} -")
        continue
    for n in lines[i + 1:i + 4]:
        s = re.match(r"(\S+?):(\d+):\d+: note: shadowed declaration", n)
        if s:
            seen.add(f"{m[1]}:{m[2]}:{m[3]} {s[1]}:{s[2]}")
            break
print("\n".join(sorted(seen)))
'
}
shadows >"$W/shadows.txt"
echo "fix-naming: $(wc -l <"$W/shadows.txt") declarations hide or change" \
  "another; applying again"
git checkout -q -- .
apply "$W/shadows.txt"
grep -v "names another declaration" "$W/renames.log" || true
echo "fix-naming: $(grep -c "names another declaration" "$W/renames.log")" \
  "renames got a 'The' prefix (list: $W/renames.log)"

# clang-tidy 14 reports some locals (captured by lambdas) without a fix.
if ! bash utils/check-naming.sh >"$W/left.txt" 2>&1; then
  python3 utils/naming-rename-left.py "$W/left.txt"
fi

bash utils/check-format.sh --fix
echo "fix-naming: done in $((SECONDS - start))s; build and test, then commit"
