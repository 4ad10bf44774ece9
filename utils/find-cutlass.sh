#!/usr/bin/env bash
# Prints the root of the CUTLASS sources of the nvidia-cutlass pip package
# (include/ with cute/ and cutlass/, examples/, tools/), or nothing and exit
# status 1 when the package is absent. $CUTLASS_DIR overrides the lookup.
# The package is found without importing it (its Python side needs
# dependencies the headers do not).
set -euo pipefail
dir=${CUTLASS_DIR:-$(python3 - 2>/dev/null <<'PY' || true
import importlib.util, os
spec = importlib.util.find_spec('cutlass_library')
if spec and spec.submodule_search_locations:
    print(os.path.join(spec.submodule_search_locations[0], 'source'))
PY
)}
[ -n "$dir" ] && [ -f "$dir/include/cute/tensor.hpp" ] || exit 1
echo "$dir"
