#!/usr/bin/env bash
# nvrtc-vs-nvcc.sh OUTDIR NVCC PTXAS KERNEL.cu... : for each kernel, in both
# annotation forms (mmptx-annotate's rewrite; the device header with
# -DMACRO_FORM), compiles with nvcc and with NVRTC in-process (mmptx-nvrtc)
# and fails unless NVRTC's PTX lists the same injects as nvcc's (names,
# sites, variables, registers). Then renders a stub into every inject of
# the NVRTC PTX and assembles the result with ptxas.
# Environment: INCLUDES (-I flags for the device header), TYPES (optional:
# a header from mmptx-tblgen -gen-inject-device-types for user types).
set -euo pipefail
out=$1 nvcc=$2 ptxas=$3
shift 3
mkdir -p "$out"
read -r -a incs <<<"${INCLUDES:-}"
annotate=() opt=()
if [ -n "${TYPES:-}" ]; then
  incs+=(-I"$(dirname "$TYPES")")
  annotate=(--types "$TYPES")
  opt=(--inject-types "$TYPES")
fi
echo '	// stub' >"$out/comment.stub"
for k in "$@"; do
  b=$(basename "$k" .cu)
  mmptx-annotate "${annotate[@]}" "$k" -o "$out/$b.cu"
  "$nvcc" -ptx -arch=sm_80 "$out/$b.cu" -o "$out/$b.comment.nvcc.ptx" 2>/dev/null
  mmptx-nvrtc -arch=sm_80 "$out/$b.cu" -o "$out/$b.comment.nvrtc.ptx"
  "$nvcc" -ptx -arch=sm_80 -DMACRO_FORM "${incs[@]}" "$k" -o "$out/$b.macro.nvcc.ptx" 2>/dev/null
  mmptx-nvrtc -arch=sm_80 -DMACRO_FORM "${incs[@]}" "$k" -o "$out/$b.macro.nvrtc.ptx"
  for f in comment macro; do
    for c in nvcc nvrtc; do
      # The table, not the JSON: site lines differ between the compilers.
      mmptx-opt "${opt[@]}" --list-injects "$out/$b.$f.$c.ptx" \
        >"$out/$b.$f.$c.txt"
    done
    if ! diff "$out/$b.$f.nvcc.txt" "$out/$b.$f.nvrtc.txt"; then
      echo "$b: the $f form gives other injects under NVRTC" >&2
      exit 1
    fi
  done
  args=()
  while read -r name; do
    args+=(--inject "$name=$out/comment.stub")
  done < <(mmptx-opt "${opt[@]}" --list-injects "$out/$b.macro.nvrtc.ptx" |
           sed -n "s/^inject [0-9]* '\(.*\)': .*/\1/p")
  mmptx-opt "${opt[@]}" "$out/$b.macro.nvrtc.ptx" "${args[@]}" -o "$out/$b.rendered.ptx"
  "$ptxas" -arch=sm_80 "$out/$b.rendered.ptx" -o "$out/$b.cubin"
  echo "$b: $(grep -c ' %_x' "$out/$b.macro.nvrtc.txt") variables, same injects, $((${#args[@]} / 2)) injects rendered, ptxas accepts"
done
