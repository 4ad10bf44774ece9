#!/usr/bin/env bash
# The main job, end to end: set up and build mmptx, then
#   annotated CUDA --mmptx-annotate--> marker asm --nvcc--> PTX (once)
#   per variant: Stack PTX program --stub-gen--> stub spliced into every
#   site --ptxas--> cubin
# on examples/semiring-gemm (one GEMM, four semirings). Without the CUDA
# toolkit, the precompiled corpus GEMM stands in for the nvcc step and the
# cubins are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
bash utils/setup.sh >/dev/null
export PATH="$PWD/build/bin:$PATH:/usr/local/cuda/bin"
EX=examples/semiring-gemm
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
now() { date +%s%N; }
ms() { echo "$(( ($2 - $1) / 1000000 )) ms"; }

echo "== 1. annotate: comment-form sites -> inline asm with markers"
mmptx-annotate "$EX/semiring_gemm.cu" -o "$W/semiring_gemm.cu"
grep -c 'MMPTX_INJECT_BEGIN' "$W/semiring_gemm.cu" | sed 's/^/   marker blocks written: /'

if command -v nvcc >/dev/null; then
  echo "== 2. nvcc -ptx, once (the slow step mmptx takes out of the loop)"
  t0=$(now); nvcc -ptx -arch=sm_80 "$W/semiring_gemm.cu" -o "$W/base.ptx"; t1=$(now)
  echo "   nvcc: $(ms "$t0" "$t1")"
  MMA=mma; EPI=epilogue; BASE="$W/base.ptx"
  VARIANTS="gemm l1 l2 maxplus"
else
  echo "== 2. no nvcc: using the precompiled corpus GEMM instead"
  BASE=bench/corpus/anchor_gemm_kernel.ptx
  VARIANTS=""
fi

echo "== 3. the injects found in the PTX"
mmptx-opt --list-injects "$BASE" | sed 's/^/   /'

if [ -n "$VARIANTS" ]; then
  echo "== 4. one variant per Stack PTX program: stub-gen + render, then ptxas"
  for v in $VARIANTS; do
    epi=epilogue-identity; [ "$v" = l2 ] && epi=epilogue-sqrt
    t0=$(now)
    mmptx-opt "$BASE" --stub-gen mma="$EX/$v.stack" --stub-gen epilogue="$EX/$epi.stack" -o "$W/$v.ptx"
    t1=$(now)
    line="   $v: mmptx-opt $(ms "$t0" "$t1") ($(grep -c . "$W/$v.ptx") lines)"
    if command -v ptxas >/dev/null; then
      t2=$(now); ptxas -arch=sm_80 "$W/$v.ptx" -o "$W/$v.cubin"; t3=$(now)
      line="$line, ptxas $(ms "$t2" "$t3") -> $(wc -c <"$W/$v.cubin") byte cubin"
    fi
    echo "$line"
  done
  echo "   the stub of the max-plus variant, as spliced into each unrolled site:"
  grep -m1 -B3 -A3 'max.f32' "$W/maxplus.ptx" | sed 's/^/     /'
else
  echo "== 4. stub-gen + render on the corpus GEMM"
  C=test/Transforms/Inputs
  mmptx-opt "$BASE" --stub-gen mma=$C/gemm-mma.stack --stub-gen epilogue=$C/gemm-epilogue.stack \
    --stub-gen load_a=$C/gemm-identity.stack --stub-gen load_b=$C/gemm-identity.stack -o "$W/gemm.ptx"
  echo "   rendered $(grep -c 'fma.rn.f32' "$W/gemm.ptx") fma stubs"
fi
if [ -n "$VARIANTS" ] && command -v ptxas >/dev/null &&
   arch=$(mmptx-run --probe --print-arch 2>/dev/null); then
  echo "== 5. on the GPU ($arch): every variant run and checked against a CPU reference"
  python3 utils/check-semiring-gemm.py --ptx "$BASE" --examples "$EX" --arch "$arch" \
    --work "$W/gpu" | sed 's/^/   /'
else
  echo "== 5. no usable GPU: the variants are not run ($(mmptx-run --probe 2>&1 | sed 's/^mmptx-run: error: no usable GPU: //'))"
fi
echo "== done"
