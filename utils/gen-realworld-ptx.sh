#!/usr/bin/env bash
# Regenerates the real-world PTX corpus in test/RealWorld/Inputs: real
# kernels (CUTLASS/CuTe examples and tutorials, CCCL's cub, thrust and
# cuda:: synchronisation primitives, textures and surfaces, cooperative
# groups, tensor cores, math library, -G and -lineinfo builds) compiled by
# nvcc to PTX for sm_80, sm_90a and sm_100a. A file is kept only if ptxas
# assembles it for its target; identical files and files over the size cap
# are dropped. Writes MANIFEST.tsv (file, source, flags, arch, sha256).
#
#   utils/gen-realworld-ptx.sh [-j N] [--only REGEX] [--failures] [OUTDIR]
#
# -j N       nvcc jobs at once (default 2)
# --only RE  compile only the jobs whose output name matches RE (the other
#            files of OUTDIR are kept)
# --failures skip compiling; write build/realworld-ptx/FAILURES.txt (or
#            $FAILURES_FILE) from the files mmptx-opt (build/bin) rejects:
#            the first error of each, and every rejected line shape
#
# Compiled files are cached in build/realworld-ptx, keyed by the job, the
# source file and the nvcc version, so a second run only compiles what
# changed. `touch build/realworld-ptx/stop` makes a running generation skip
# the jobs it has not started and write the corpus from what it has; made
# before a run, it writes the corpus from the cache alone.
#
# Needs nvcc/ptxas (CUDA 12.8 or newer for sm_100a) and the CUTLASS headers
# of the nvidia-cutlass pip package (utils/setup.sh installs it). The output
# is deterministic for one toolkit and one CUTLASS version: paths in .file
# directives are rewritten to start at the library's root.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
JOBS=2
ONLY=""
FAILURES_ONLY=0
OUT=test/RealWorld/Inputs
while [ $# -gt 0 ]; do
  case "$1" in
    -j) JOBS=$2; shift 2 ;;
    -j*) JOBS=${1#-j}; shift ;;
    --only) ONLY=$2; shift 2 ;;
    --failures) FAILURES_ONLY=1; shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    -*) echo "gen-realworld-ptx: unknown option '$1'" >&2; exit 1 ;;
    *) OUT=$1; shift ;;
  esac
done
CUDA=${CUDA_HOME:-/usr/local/cuda}
NVCC=${NVCC:-$CUDA/bin/nvcc}
PTXAS=${PTXAS:-$CUDA/bin/ptxas}
MMPTX_OPT=${MMPTX_OPT:-$ROOT/build/bin/mmptx-opt}
FAILURES_FILE=${FAILURES_FILE:-$ROOT/build/realworld-ptx/FAILURES.txt}
MAX_BYTES=${MAX_BYTES:-2000000}   # per file; keeps the corpus under ~30 MB
mkdir -p "$OUT" "$(dirname "$FAILURES_FILE")"

# Writes FAILURES.txt: for every corpus file mmptx-opt rejects, each
# rejected line. mmptx-opt stops at its first error, so the reported line is
# commented out and the file parsed again, up to 40 times a file.
write_failures() {
  local f tmp err n line shape
  tmp=$(mktemp -d)
  : >"$tmp/all"
  for f in "$OUT"/*.ptx; do
    cp "$f" "$tmp/cur.ptx"
    for n in $(seq 100); do
      err=$("$MMPTX_OPT" "$tmp/cur.ptx" -o /dev/null 2>&1 | grep -m1 'error:' || true)
      [ -n "$err" ] || break
      line=$(echo "$err" | sed -n 's/^[^:]*:\([0-9]*\):[0-9]*: error: .*/\1/p')
      if [ -z "$line" ]; then
        printf '%s\t%s\t-\t1\n' "$(basename "$f")" "${err#*error: }" >>"$tmp/all"
        break
      fi
      # Comment out every line of the same shape (registers and numbers
      # aside) and count them; later errors keep their line numbers.
      shape=$(sed -n "${line}p" "$tmp/cur.ptx" | awk "$SHAPE_AWK")
      awk -v shape="$shape" -v count="$tmp/count" "$SHAPE_AWK_FN"'
        { if (lineShape($0) == shape) { print "// rejected line"; n++ } else print }
        END { print n + 0 > count }' "$tmp/cur.ptx" >"$tmp/next.ptx"
      mv "$tmp/next.ptx" "$tmp/cur.ptx"
      printf '%s\t%s\t%s\t%s\n' "$(basename "$f")" "${err#*error: }" "$shape" "$(cat "$tmp/count")" >>"$tmp/all"
    done
  done
  {
    echo "# Lines of $OUT that mmptx-opt rejects (utils/gen-realworld-ptx.sh --failures)."
    echo "# $(cut -f1 "$tmp/all" | sort -u | grep -c . || true) of $(ls "$OUT"/*.ptx | wc -l) files rejected."
    echo "# First the first error of each rejected file (file, message, line shape); then"
    echo "# every rejected line shape (registers %R, numbers N), with the number of lines"
    echo "# of that shape in all files, the message and the first file that has it."
    echo "## first error per file"
    sort -t$'\t' -k1,1 -s "$tmp/all" | awk -F'\t' '!seen[$1]++ { print $1 "\t" $2 "\t" $3 }'
    echo "## rejected line shapes"
    awk -F'\t' '{ key = $2 "\t" $3; n[key] += $4; if (!(key in f)) f[key] = $1 }
      END { for (k in n) printf "%6d\t%s\t%s\n", n[k], k, f[k] }' "$tmp/all" | sort -t$'\t' -k1,1nr -k2
  } >"$FAILURES_FILE"
  rm -rf "$tmp"
  echo "gen-realworld-ptx: wrote $FAILURES_FILE"
}
# A line's shape: whitespace squeezed, registers and numbers replaced.
SHAPE_AWK_FN='function lineShape(s) {
  sub(/^[ \t]+/, "", s); sub(/[ \t\r]+$/, "", s); gsub(/[ \t]+/, " ", s)
  gsub(/%[A-Za-z_]+[0-9]+/, "%R", s); gsub(/(^|[^A-Za-z_0-9.%])[0-9]+/, "&@", s)
  gsub(/[0-9]+@/, "N", s); return s }'
SHAPE_AWK="$SHAPE_AWK_FN"' { print lineShape($0) }'
if [ "$FAILURES_ONLY" = 1 ]; then
  write_failures
  exit 0
fi

CUTLASS=$(bash utils/find-cutlass.sh || true)
if [ -z "$CUTLASS" ]; then
  echo "gen-realworld-ptx: CUTLASS headers not found; pip install nvidia-cutlass (utils/setup.sh)" >&2
  exit 1
fi
CUT_FLAGS="-std=c++17 --expt-relaxed-constexpr --expt-extended-lambda -I$CUTLASS/include -I$CUTLASS/tools/util/include -I$CUTLASS/examples/common"

# Jobs: output-name | source | arches | extra flags. Sources starting with
# cutlass/ are in the CUTLASS package; the rest are ours. Left out as too
# big for their worth: -G builds of CUTLASS and CuTe templates (2-19 MB),
# thrust with -lineinfo, the same CUB device algorithms for every target.
JOBLIST=$(cat <<'EOF'
cub_block|utils/realworld-src/cub_block.cu|sm_80 sm_90a sm_100a|
cub_block|utils/realworld-src/cub_block.cu|sm_80|-lineinfo
cub_warp|utils/realworld-src/cub_warp.cu|sm_80 sm_90a sm_100a|
cub_warp|utils/realworld-src/cub_warp.cu|sm_90a|-G
cub_warp|utils/realworld-src/cub_warp.cu|sm_80|-lineinfo
cub_device|utils/realworld-src/cub_device.cu|sm_80 sm_100a|
thrust_algos|utils/realworld-src/thrust_algos.cu|sm_90a|--extended-lambda
barrier_pipeline|utils/realworld-src/barrier_pipeline.cu|sm_80 sm_90a sm_100a|
barrier_pipeline|utils/realworld-src/barrier_pipeline.cu|sm_90a|-G
barrier_pipeline|utils/realworld-src/barrier_pipeline.cu|sm_80|-lineinfo
barrier_pipeline|utils/realworld-src/barrier_pipeline.cu|sm_100a|-lineinfo
tex_surf|utils/realworld-src/tex_surf.cu|sm_80 sm_90a sm_100a|
tex_surf|utils/realworld-src/tex_surf.cu|sm_80|-G
tex_surf|utils/realworld-src/tex_surf.cu|sm_90a|-lineinfo
coop_groups|utils/realworld-src/coop_groups.cu|sm_80 sm_90a sm_100a|
coop_groups|utils/realworld-src/coop_groups.cu|sm_90a|-lineinfo
coop_groups|utils/realworld-src/coop_groups.cu|sm_80|-G
coop_groups|utils/realworld-src/coop_groups.cu|sm_90a|-G
misc_device|utils/realworld-src/misc_device.cu|sm_80 sm_90a sm_100a|
misc_device|utils/realworld-src/misc_device.cu|sm_80|-G
misc_device|utils/realworld-src/misc_device.cu|sm_90a|-lineinfo
misc_device|utils/realworld-src/misc_device.cu|sm_80|-use_fast_math
misc_device|utils/realworld-src/misc_device.cu|sm_100a|-lineinfo
misc_device|utils/realworld-src/misc_device.cu|sm_90a|-use_fast_math
cute_gemm|examples/cute-gemm/cute_gemm.cu|sm_80 sm_90a sm_100a|-I include -I build/include
cute_gemm|examples/cute-gemm/cute_gemm.cu|sm_80|-I include -I build/include -lineinfo
cute_sgemm_1|cutlass/examples/cute/tutorial/sgemm_1.cu|sm_80 sm_90a|
cute_sgemm_2|cutlass/examples/cute/tutorial/sgemm_2.cu|sm_80|
cute_sgemm_sm70|cutlass/examples/cute/tutorial/sgemm_sm70.cu|sm_80|
cute_sgemm_sm80|cutlass/examples/cute/tutorial/sgemm_sm80.cu|sm_80 sm_90a sm_100a|
cute_sgemm_sm80|cutlass/examples/cute/tutorial/sgemm_sm80.cu|sm_80|-lineinfo
cute_tiled_copy|cutlass/examples/cute/tutorial/tiled_copy.cu|sm_80 sm_90a|
cute_tiled_copy_if|cutlass/examples/cute/tutorial/tiled_copy_if.cu|sm_80|
cute_tiled_copy_if|cutlass/examples/cute/tutorial/tiled_copy_if.cu|sm_90a sm_100a|
cute_wgmma_sm90|cutlass/examples/cute/tutorial/hopper/wgmma_sm90.cu|sm_90a|
cute_wgmma_tma_sm90|cutlass/examples/cute/tutorial/hopper/wgmma_tma_sm90.cu|sm_90a|
cute_wgmma_tma_sm90|cutlass/examples/cute/tutorial/hopper/wgmma_tma_sm90.cu|sm_90a|-lineinfo
cute_mma_sm100|cutlass/examples/cute/tutorial/blackwell/01_mma_sm100.cu|sm_100a|
cute_mma_tma_sm100|cutlass/examples/cute/tutorial/blackwell/02_mma_tma_sm100.cu|sm_100a|
cute_mma_tma_multicast_sm100|cutlass/examples/cute/tutorial/blackwell/03_mma_tma_multicast_sm100.cu|sm_100a|
cute_mma_tma_2sm_sm100|cutlass/examples/cute/tutorial/blackwell/04_mma_tma_2sm_sm100.cu|sm_100a|
cute_mma_tma_epi_sm100|cutlass/examples/cute/tutorial/blackwell/05_mma_tma_epi_sm100.cu|sm_100a|
cutlass_basic_gemm|cutlass/examples/00_basic_gemm/basic_gemm.cu|sm_80 sm_90a|
cutlass_turing_tensorop_gemm|cutlass/examples/08_turing_tensorop_gemm/turing_tensorop_gemm.cu|sm_80|
cutlass_gemm_bias_relu|cutlass/examples/12_gemm_bias_relu/gemm_bias_relu.cu|sm_80|
cutlass_ampere_tf32_gemm|cutlass/examples/14_ampere_tf32_tensorop_gemm/ampere_tf32_tensorop_gemm.cu|sm_80 sm_90a|
cutlass_ampere_sparse_gemm|cutlass/examples/15_ampere_sparse_tensorop_gemm/ampere_sparse_tensorop_gemm.cu|sm_80|
cutlass_ampere_conv2dfprop|cutlass/examples/16_ampere_tensorop_conv2dfprop/ampere_tensorop_conv2dfprop.cu|sm_80|
cutlass_ampere_fp64_affine2|cutlass/examples/18_ampere_fp64_tensorop_affine2_gemm/ampere_fp64_tensorop_affine2_gemm.cu|sm_80|
cutlass_tensorop_canonical|cutlass/examples/19_tensorop_canonical/tensorop_canonical.cu|sm_80|
cutlass_simt_canonical|cutlass/examples/20_simt_canonical/simt_canonical.cu|sm_80|
cutlass_quaternion_gemm|cutlass/examples/21_quaternion_gemm/quaternion_gemm.cu|sm_80|
cutlass_gemm_grouped|cutlass/examples/24_gemm_grouped/gemm_grouped.cu|sm_80|
cutlass_gemm_softmax|cutlass/examples/35_gemm_softmax/gemm_softmax.cu|sm_80|
cutlass_gather_scatter|cutlass/examples/36_gather_scatter_fusion/gather_scatter_fusion.cu|sm_80|
cutlass_fmha_fixed_seqlen|cutlass/examples/41_fused_multi_head_attention/fused_multihead_attention_fixed_seqlen.cu|sm_80|
cutlass_ell_block_sparse|cutlass/examples/43_ell_block_sparse_gemm/ell_block_sparse_gemm.cu|sm_80|
cutlass_dual_gemm|cutlass/examples/45_dual_gemm/dual_gemm.cu|sm_80|
cutlass_depthwise_conv|cutlass/examples/46_depthwise_simt_conv2dfprop/depthwise_simt_conv2dfprop.cu|sm_80|
cutlass_streamk|cutlass/examples/47_ampere_gemm_universal_streamk/ampere_gemm_universal_streamk.cu|sm_80|
cutlass_hopper_ws_gemm|cutlass/examples/48_hopper_warp_specialized_gemm/48_hopper_warp_specialized_gemm.cu|sm_90a|
cutlass_hopper_collective_builder|cutlass/examples/49_hopper_gemm_with_collective_builder/49_collective_builder.cu|sm_90a|
cutlass_hopper_epilogue_swizzle|cutlass/examples/50_hopper_gemm_with_epilogue_swizzle/50_hopper_gemm_with_epilogue_swizzle.cu|sm_90a|
cutlass_hopper_fp8_gemm|cutlass/examples/54_hopper_fp8_warp_specialized_gemm/54_hopper_fp8_warp_specialized_gemm.cu|sm_90a|
cutlass_hopper_int4_bf16|cutlass/examples/55_hopper_mixed_dtype_gemm/55_hopper_int4_bf16_gemm.cu|sm_90a|
cutlass_hopper_grouped_gemm|cutlass/examples/57_hopper_grouped_gemm/57_hopper_grouped_gemm.cu|sm_90a|
cutlass_hopper_topk_softmax|cutlass/examples/61_hopper_gemm_with_topk_and_softmax/61_hopper_gemm_with_topk_and_softmax.cu|sm_90a|
cutlass_hopper_sparse_gemm|cutlass/examples/62_hopper_sparse_gemm/62_hopper_sparse_gemm.cu|sm_90a|
cutlass_hopper_weight_prefetch|cutlass/examples/63_hopper_gemm_with_weight_prefetch/63_hopper_gemm_with_weight_prefetch.cu|sm_90a|
cutlass_hopper_fmha|cutlass/examples/88_hopper_fmha/88_hopper_fmha.cu|sm_90a|
cutlass_blackwell_fp16_gemm|cutlass/examples/70_blackwell_gemm/70_blackwell_fp16_gemm.cu|sm_100a|
cutlass_blackwell_fp8_gemm|cutlass/examples/70_blackwell_gemm/70_blackwell_fp8_gemm.cu|sm_100a|
cutlass_blackwell_collective_builder|cutlass/examples/71_blackwell_gemm_with_collective_builder/71_blackwell_gemm_with_collective_builder.cu|sm_100a|
cutlass_blackwell_conv_fprop|cutlass/examples/76_blackwell_conv/76_blackwell_conv_fprop.cu|sm_100a|
cutlass_blackwell_gemm_blockwise|cutlass/examples/81_blackwell_gemm_blockwise/81_blackwell_gemm_blockwise.cu|sm_100a|
cutlass_fp4_gemv|cutlass/examples/91_fp4_gemv/91_fp4_gemv.cu|sm_100a|
EOF
)

WORK=${GEN_CACHE:-$ROOT/build/realworld-ptx}
mkdir -p "$WORK"
trap 'rm -f "$WORK/stop"' EXIT
NVCC_VERSION=$("$NVCC" --version | tail -1)

# One nvcc -ptx + ptxas job; prints nothing, leaves $WORK/<name>.ptx and
# $WORK/<name>.meta (or $WORK/<name>.skip with the reason).
compile_one() {
  local name=$1 src=$2 arch=$3 flags=$4 path incs="" key
  case "$src" in
    cutlass/*) path=$CUTLASS/${src#cutlass/}; incs="$CUT_FLAGS -I$(dirname "$path")" ;;
    examples/cute-gemm/*) path=$src; incs="$CUT_FLAGS" ;;
    *) path=$src; incs="-std=c++17 --expt-relaxed-constexpr" ;;
  esac
  key=$( { echo "$name|$src|$arch|$flags|$NVCC_VERSION|$MAX_BYTES"; cat "$path"; } | sha256sum | cut -d' ' -f1)
  if [ "$(cat "$WORK/$name.key" 2>/dev/null)" = "$key" ]; then
    return 0
  fi
  rm -f "$WORK/$name".{ptx,meta,skip,key,log,ptxas}
  if [ -e "$WORK/stop" ]; then
    return 0
  fi
  # shellcheck disable=SC2086
  if ! timeout "${NVCC_TIMEOUT:-900}" "$NVCC" -ptx -w -arch="$arch" $incs $flags "$path" -o "$WORK/$name.ptx" \
      >"$WORK/$name.log" 2>&1; then
    echo "nvcc failed: $(grep -m1 -i error "$WORK/$name.log")" >"$WORK/$name.skip"
    rm -f "$WORK/$name.ptx"; echo "$key" >"$WORK/$name.key"; return 0
  fi
  if [ "$(wc -c <"$WORK/$name.ptx")" -gt "$MAX_BYTES" ]; then
    echo "over $MAX_BYTES bytes ($(wc -c <"$WORK/$name.ptx"))" >"$WORK/$name.skip"
    rm -f "$WORK/$name.ptx"; echo "$key" >"$WORK/$name.key"; return 0
  fi
  if ! grep -q '^\.\(visible \)\?\.entry\|^\.entry\|\.entry ' "$WORK/$name.ptx"; then
    echo "no kernels" >"$WORK/$name.skip"; rm -f "$WORK/$name.ptx"; echo "$key" >"$WORK/$name.key"; return 0
  fi
  if ! "$PTXAS" -arch="$arch" "$WORK/$name.ptx" -o /dev/null >"$WORK/$name.ptxas" 2>&1; then
    echo "ptxas failed: $(head -1 "$WORK/$name.ptxas")" >"$WORK/$name.skip"
    rm -f "$WORK/$name.ptx"; echo "$key" >"$WORK/$name.key"; return 0
  fi
  printf '%s\t%s\t%s\t%s\n' "$name.ptx" "$src" "${flags:--}" "$arch" >"$WORK/$name.meta"
  echo "$key" >"$WORK/$name.key"
}
export -f compile_one
export NVCC PTXAS CUTLASS CUT_FLAGS ROOT CUDA MAX_BYTES WORK NVCC_VERSION

# Expand the job list to one line per output file.
echo "$JOBLIST" | while IFS='|' read -r name src arches flags; do
  [ -n "$name" ] || continue
  for arch in $arches; do
    suffix=""
    case " $flags " in *" -G "*) suffix=.g ;; *" -lineinfo "*) suffix=.lineinfo ;; esac
    case " $flags " in *" -use_fast_math "*) suffix=.fastmath ;; esac
    out="$name.$arch$suffix"
    if [ -z "$ONLY" ] || [[ "$out" =~ $ONLY ]]; then
      printf '%s\0%s\0%s\0%s\0' "$out" "$src" "$arch" "$flags"
    fi
  done
done >"$WORK/jobs.new"
mv "$WORK/jobs.new" "$WORK/jobs"
total=$(tr -cd '\0' <"$WORK/jobs" | wc -c)
echo "gen-realworld-ptx: $((total / 4)) files, $JOBS at a time, into $OUT"
xargs -0 -n4 -P"$JOBS" bash -c 'compile_one "$@"' _ <"$WORK/jobs"

# Machine-independent paths in .file directives: the toolkit's headers
# become cuda/include/..., CUTLASS's cutlass/..., ours relative to the root.
CUDA_REAL=$(readlink -f "$CUDA")
normalize_paths() {
  sed -E -e "s#\"[^\"]*/targets/[^/\"]*/include/#\"cuda/include/#g" \
    -e "s#\"($CUDA|$CUDA_REAL)/include/#\"cuda/include/#g" \
    -e "s#\"$CUTLASS/#\"cutlass/#g" -e "s#\"$ROOT/#\"#g"
}

# Keep the new files; drop exact duplicates (first name in order wins).
if [ -z "$ONLY" ]; then
  rm -f "$OUT"/*.ptx
fi
declare -A seen=()
if [ -f "$OUT/MANIFEST.tsv" ] && [ -n "$ONLY" ]; then
  grep -v '^#' "$OUT/MANIFEST.tsv" >"$WORK/old.tsv" || true
else
  : >"$WORK/old.tsv"
fi
: >"$WORK/new.tsv"
tr '\0' '\n' <"$WORK/jobs" | awk 'NR % 4 == 1' | sort >"$WORK/wanted"
for name in $(cat "$WORK/wanted"); do
  meta=$WORK/$name.meta
  [ -f "$meta" ] || continue
  normalize_paths <"$WORK/$name.ptx" >"$WORK/$name.norm"
  sum=$(sha256sum "$WORK/$name.norm" | cut -d' ' -f1)
  if [ -n "${seen[$sum]:-}" ]; then
    echo "  $name.ptx: same as ${seen[$sum]}, dropped"; continue
  fi
  seen[$sum]=$name.ptx
  mv "$WORK/$name.norm" "$OUT/$name.ptx"
  printf '%s\t%s\n' "$(cat "$meta")" "$sum" >>"$WORK/new.tsv"
done
for name in $(cat "$WORK/wanted"); do
  if [ -f "$WORK/$name.skip" ]; then
    echo "  $name.ptx: skipped, $(cat "$WORK/$name.skip")"
  elif [ ! -f "$WORK/$name.meta" ]; then
    echo "  $name.ptx: not compiled (stopped)"
  fi
done
{
  echo "# file	source	flags	arch	sha256 (utils/gen-realworld-ptx.sh)"
  awk -F'\t' 'NR == FNR { fresh[$1] = 1; next } !($1 in fresh)' "$WORK/new.tsv" "$WORK/old.tsv" |
    cat - "$WORK/new.tsv" | sort
} >"$WORK/manifest"
mv "$WORK/manifest" "$OUT/MANIFEST.tsv"
echo "gen-realworld-ptx: $(grep -vc '^#' "$OUT/MANIFEST.tsv") files, $(du -sh "$OUT" | cut -f1)"
if [ -x "$MMPTX_OPT" ]; then
  write_failures
fi
