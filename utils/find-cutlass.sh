#!/usr/bin/env bash
# Prints the root of the CUTLASS sources of the nvidia-cutlass wheel
# (include/ with cute/ and cutlass/, examples/, tools/), or nothing and exit
# status 1 when it is absent: $CUTLASS_DIR if set, else the copy
# utils/setup.sh installs into build/deps/cutlass, else one in Python's
# site-packages (found without importing it: its Python side needs
# dependencies the headers do not).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${CUTLASS_DIR:-}
if [ -z "$dir" ] && [ -d build/deps/cutlass/cutlass_library/source ]; then
  dir=$PWD/build/deps/cutlass/cutlass_library/source
fi
dir=${dir:-$(python3 - 2>/dev/null <<'PY' || true
import importlib.util, os
spec = importlib.util.find_spec('cutlass_library')
if spec and spec.submodule_search_locations:
    print(os.path.join(spec.submodule_search_locations[0], 'source'))
PY
)}
[ -n "$dir" ] && [ -f "$dir/include/cute/tensor.hpp" ] || exit 1
echo "$dir"
