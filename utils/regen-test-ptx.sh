#!/usr/bin/env bash
# Regenerate test/Parser/Inputs/<name>.ptx from test/Parser/Inputs/cuda/<name>.cu.
#
# Every .cu is compiled with `nvcc -ptx -arch=sm_80`. Extra per-file flags are
# taken from an optional first-line comment of the form
#     // NVCC_FLAGS: -lineinfo
# where an `-arch=sm_XX` replaces sm_80. Each generated file is then checked
# with `ptxas` for the same architecture.
#
# Usage: utils/regen-test-ptx.sh [name...]   (default: all .cu files)
# Env:   NVCC (default /usr/local/cuda/bin/nvcc), PTXAS (default: next to nvcc)
#
# Sources are compiled from a fixed staging directory (STAGE, default
# /tmp/mmptx-regen-ptx) so that the paths nvcc embeds in .file directives and
# -G debug sections do not depend on where the checkout lives.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src_dir="$root/test/Parser/Inputs/cuda"
out_dir="$root/test/Parser/Inputs"
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
PTXAS="${PTXAS:-$(dirname "$NVCC")/ptxas}"
ARCH="sm_80"
STAGE="${STAGE:-/tmp/mmptx-regen-ptx}"
mkdir -p "$STAGE"

if [[ $# -gt 0 ]]; then
  names=("$@")
else
  names=()
  for f in "$src_dir"/*.cu; do
    names+=("$(basename "$f" .cu)")
  done
fi

for name in "${names[@]}"; do
  cu="$src_dir/$name.cu"
  ptx="$out_dir/$name.ptx"
  [[ -f "$cu" ]] || { echo "error: no such file: $cu" >&2; exit 1; }
  flags=()
  first_line="$(head -n 1 "$cu")"
  if [[ "$first_line" =~ ^//[[:space:]]*NVCC_FLAGS:(.*)$ ]]; then
    read -r -a flags <<<"${BASH_REMATCH[1]}"
  fi
  arch="$ARCH"
  extra=()
  for f in ${flags[@]+"${flags[@]}"}; do
    if [[ "$f" == -arch=* ]]; then arch="${f#-arch=}"; else extra+=("$f"); fi
  done
  echo "nvcc -ptx -arch=$arch ${extra[*]+${extra[*]} }$name.cu -> $name.ptx"
  cp "$cu" "$STAGE/$name.cu"
  (cd "$STAGE" && "$NVCC" -ptx -arch="$arch" ${extra[@]+"${extra[@]}"} \
    "$name.cu" -o "$ptx")
  rm -f "$STAGE/$name.cu"
  "$PTXAS" -arch="$arch" "$ptx" -o /dev/null
done
