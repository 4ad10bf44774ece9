#!/usr/bin/env bash
# random-into-gemm.sh OUTDIR PTXAS GEMM.ptx SEEDS: for each seed, random
# word programs (mmptx-stack --randomize) typed against the four injects of
# the corpus GEMM go through --stub-gen into all 288 sites; ptxas must accept
# every result. Prints how many lines use stub temporaries (%_s...) per
# seed, and fails if no seed has any (the programs would then test nothing).
set -euo pipefail
out=$1 ptxas=$2 gemm=$3 seeds=$4
mkdir -p "$out"
declare -A vars=(
  [mma]='v_c : F32 mod; v_a : F32 in; v_b : F32 in;'
  [epilogue]='v_d : F32 out; v_acc : F32 in; v_c_old : F32 in;'
  [load_a]='v_a : F32 mod;'
  [load_b]='v_b : F32 mod;')
total=0
for ((seed = 1; seed <= seeds; ++seed)); do
  args=()
  for inj in mma epilogue load_a load_b; do
    echo ".registers { ${vars[$inj]} }" >"$out/$inj.vars"
    mmptx-stack "$out/$inj.vars" --randomize=256 --seed=$((seed * 8 + ${#inj})) \
      --emit=text -o "$out/$seed-$inj.stack"
    # --stub-gen rejects reading an out variable (it has no value): the
    # random words read v_acc instead of v_d.
    [ "$inj" != epilogue ] ||
      sed -i '/^  v_d : /!s/\bv_d\b/v_acc/g' "$out/$seed-$inj.stack"
    args+=(--stub-gen "$inj=$out/$seed-$inj.stack")
  done
  mmptx-opt "$gemm" "${args[@]}" -o "$out/$seed.ptx"
  "$ptxas" -arch=sm_80 "$out/$seed.ptx" -o "$out/$seed.cubin"
  added=$(grep -c '%_s' "$out/$seed.ptx" || true)
  total=$((total + added))
  echo "seed $seed: ptxas accepts, $added stub lines"
done
[ "$total" -gt 0 ] || { echo "no seed injected anything" >&2; exit 1; }
echo "all $seeds seeds accepted"
