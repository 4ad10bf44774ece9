#!/usr/bin/env bash
# nvrtc-vs-nvcc.sh OUTDIR NVCC KERNEL.cu... : annotates each kernel, compiles
# it with nvcc and with NVRTC in-process (mmptx-nvrtc), and fails unless both
# PTX files list the same injects (names, sites, variables, registers).
set -euo pipefail
out=$1 nvcc=$2
shift 2
mkdir -p "$out"
for k in "$@"; do
  b=$(basename "$k" .cu)
  mmptx-annotate "$k" -o "$out/$b.cu"
  "$nvcc" -ptx -arch=sm_80 "$out/$b.cu" -o "$out/$b.nvcc.ptx" 2>/dev/null
  mmptx-nvrtc -arch=sm_80 "$out/$b.cu" -o "$out/$b.nvrtc.ptx"
  mmptx-opt --list-injects --format=json "$out/$b.nvcc.ptx" >"$out/$b.nvcc.json"
  mmptx-opt --list-injects --format=json "$out/$b.nvrtc.ptx" >"$out/$b.nvrtc.json"
  if ! diff "$out/$b.nvcc.json" "$out/$b.nvrtc.json"; then
    echo "$b: nvcc and NVRTC give different injects" >&2
    exit 1
  fi
  echo "$b: $(grep -c '"register"' "$out/$b.nvrtc.json") variables, same injects"
done
