#!/usr/bin/env bash
# The main job, end to end: set up and build mmptx, then run
# build/bin/mmptx-example-cute-gemm (examples/cute-gemm/variants.cpp):
#   CuTe GEMM with inject sites --NVRTC, cached--> PTX (once)
#   N variants: mutated Stack PTX semiring programs --compile + render-->
#   PTX --all cores, deduplicated, cached--> cubin
#   on a GPU: every distinct cubin run and checked against the interpreter
# with the time of each stage and the variants per second; then once more,
# to show the caches hit. Without the CUTLASS headers the same GEMM in plain
# CUDA (examples/cute-gemm/plain_gemm.cu) stands in; without the CUDA
# toolkit, the stub steps run on the precompiled corpus GEMM, no cubins.
#   VARIANTS=N (default 256), JOBS=J (default: all cores).
set -euo pipefail
cd "$(dirname "$0")/.."
bash utils/setup.sh >/dev/null
export PATH="$PWD/build/bin:$PATH:/usr/local/cuda/bin"
VARIANTS=${VARIANTS:-256}
JOBS=${JOBS:-0}
CACHE="$PWD/build/demo-cache"

if grep -q '^CUDA_nvrtc_LIBRARY:FILEPATH=/' build/CMakeCache.txt && command -v ptxas >/dev/null; then
  SRC=examples/cute-gemm/cute_gemm.cu
  if [ -z "$(bash utils/find-cutlass.sh || true)" ]; then
    echo "(no CUTLASS headers: the plain-CUDA GEMM of examples/cute-gemm stands in)"
    SRC=examples/cute-gemm/plain_gemm.cu
  fi
  echo "== mmptx-example-cute-gemm $SRC --variants=$VARIANTS"
  mmptx-example-cute-gemm "$SRC" --variants="$VARIANTS" --jobs="$JOBS" --cache-dir="$CACHE"
  echo
  echo "== the same again: the PTX and the cubins come from the caches"
  mmptx-example-cute-gemm "$SRC" --variants="$VARIANTS" --jobs="$JOBS" --cache-dir="$CACHE" |
    grep -E 'nvrtc|cubins:|variants:|deduplication' || true
  exit 0
fi

# No CUDA toolkit: the stub steps only, on the precompiled corpus GEMM.
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
BASE=bench/corpus/anchor_gemm_kernel.ptx
echo "== no CUDA toolkit: Stack PTX stubs rendered into the precompiled corpus GEMM, no cubins"
mmptx-opt --list-injects "$BASE" | sed 's/^/   /'
C=test/Transforms/Inputs
t0=$(date +%s%N)
mmptx-opt "$BASE" --stub-gen mma=$C/gemm-mma.stack --stub-gen epilogue=$C/gemm-epilogue.stack \
  --stub-gen load_a=$C/gemm-identity.stack --stub-gen load_b=$C/gemm-identity.stack -o "$W/gemm.ptx"
t1=$(date +%s%N)
echo "   rendered $(grep -c 'fma.rn.f32' "$W/gemm.ptx") fma stubs in $(( (t1 - t0) / 1000000 )) ms (mmptx-opt, parse included)"
