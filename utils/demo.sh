#!/usr/bin/env bash
# The main job, end to end: set up and build mmptx, then
#   CuTe GEMM with inject sites --nvcc--> PTX (once, seconds)
#   per variant: Stack PTX program --stub-gen--> stub spliced into every
#   site (milliseconds) --ptxas--> cubin
# on examples/cute-gemm (one GEMM, four semirings), with the time of each
# step. Without the CUTLASS headers, the annotated examples/semiring-gemm
# kernel is compiled instead; without the CUDA toolkit, the precompiled
# corpus GEMM stands in for the nvcc step and the cubins are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
bash utils/setup.sh >/dev/null
export PATH="$PWD/build/bin:$PATH:/usr/local/cuda/bin"
SR=examples/semiring-gemm   # the Stack PTX programs of the four semirings
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
now() { date +%s%N; }
ms() { echo "$(( ($2 - $1) / 1000000 ))"; }
ARCH=sm_80
CUTLASS=$(bash utils/find-cutlass.sh || true)

if command -v nvcc >/dev/null && [ -n "$CUTLASS" ]; then
  echo "== 1. nvcc -ptx, once: the CuTe GEMM of examples/cute-gemm (the slow step mmptx takes out of the loop)"
  t0=$(now)
  nvcc -ptx -arch=$ARCH -std=c++17 --expt-relaxed-constexpr -I "$CUTLASS/include" -I include \
    -I build/include examples/cute-gemm/cute_gemm.cu -o "$W/base.ptx"
  t1=$(now)
  NVCC_MS=$(ms "$t0" "$t1")
  echo "   nvcc: $NVCC_MS ms"
  BASE="$W/base.ptx"; VARIANTS="gemm l1 l2 maxplus"
elif command -v nvcc >/dev/null; then
  echo "== 1. no CUTLASS headers: annotate + nvcc -ptx, once, on examples/semiring-gemm"
  mmptx-annotate "$SR/semiring_gemm.cu" -o "$W/semiring_gemm.cu"
  t0=$(now); nvcc -ptx -arch=$ARCH "$W/semiring_gemm.cu" -o "$W/base.ptx"; t1=$(now)
  NVCC_MS=$(ms "$t0" "$t1")
  echo "   nvcc: $NVCC_MS ms"
  BASE="$W/base.ptx"; VARIANTS="gemm l1 l2 maxplus"
else
  echo "== 1. no nvcc: using the precompiled corpus GEMM instead"
  BASE=bench/corpus/anchor_gemm_kernel.ptx
  VARIANTS=""
fi

echo "== 2. the injects found in the PTX"
mmptx-opt --list-injects "$BASE" | sed 's/^/   /'

if [ -n "$VARIANTS" ]; then
  echo "== 3. one variant per Stack PTX program: stub-gen + render, then ptxas"
  for v in $VARIANTS; do
    epi=epilogue-identity; [ "$v" = l2 ] && epi=epilogue-sqrt
    t0=$(now)
    mmptx-opt "$BASE" --stub-gen mma="$SR/$v.stack" --stub-gen epilogue="$SR/$epi.stack" -o "$W/$v.ptx"
    t1=$(now)
    VARIANT_MS=$(ms "$t0" "$t1")
    line="   $v: mmptx-opt $VARIANT_MS ms ($(grep -c . "$W/$v.ptx") lines)"
    if command -v ptxas >/dev/null; then
      t2=$(now); ptxas -arch=$ARCH "$W/$v.ptx" -o "$W/$v.cubin"; t3=$(now)
      PTXAS_MS=$(ms "$t2" "$t3")
      line="$line, ptxas $PTXAS_MS ms -> $(wc -c <"$W/$v.cubin") byte cubin"
    fi
    echo "$line"
  done
  echo "   one variant: $VARIANT_MS ms (Stack PTX compile + render) + ${PTXAS_MS:-?} ms (ptxas)," \
       "against $NVCC_MS ms of nvcc per recompilation"
  echo "   the stub of the max-plus variant, as spliced into each unrolled site:"
  grep -m1 -B3 -A3 'max.f32' "$W/maxplus.ptx" | sed 's/^/     /'
else
  echo "== 3. stub-gen + render on the corpus GEMM"
  C=test/Transforms/Inputs
  mmptx-opt "$BASE" --stub-gen mma=$C/gemm-mma.stack --stub-gen epilogue=$C/gemm-epilogue.stack \
    --stub-gen load_a=$C/gemm-identity.stack --stub-gen load_b=$C/gemm-identity.stack -o "$W/gemm.ptx"
  echo "   rendered $(grep -c 'fma.rn.f32' "$W/gemm.ptx") fma stubs"
fi
if [ -n "$VARIANTS" ] && command -v ptxas >/dev/null &&
   arch=$(mmptx-run --probe --print-arch 2>/dev/null); then
  echo "== 5. on the GPU ($arch): every variant run and checked against a CPU reference"
  python3 utils/check-semiring-gemm.py --ptx "$BASE" --examples "$SR" --arch "$arch" \
    --work "$W/gpu" | sed 's/^/   /'
else
  echo "== 5. no usable GPU: the variants are not run ($(mmptx-run --probe 2>&1 | sed 's/^mmptx-run: error: no usable GPU: //'))"
fi
echo "== done"
