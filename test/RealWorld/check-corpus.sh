#!/usr/bin/env bash
# Runs one check over every file of the real-world PTX corpus, two files at
# a time, and names each file that fails with the first line of its error:
#
#   check-corpus.sh manifest  DIR WORK   MANIFEST.tsv lists exactly the files,
#                                        with their sha256
#   check-corpus.sh roundtrip DIR WORK   mmptx-opt F -o out; out == F, byte for byte
#   check-corpus.sh list      DIR WORK   mmptx-opt --list-injects F succeeds
#   check-corpus.sh ptxas     DIR WORK PTXAS   ptxas for the file's .target
#   check-corpus.sh prune     DIR WORK PTXAS   mmptx-opt --prune-unused-globals
#                                        F succeeds and, where it changed F,
#                                        ptxas assembles the result
#
# mmptx-opt is taken from PATH (lit puts the build's tools there).
set -uo pipefail
mode=$1 dir=$2 work=$3
PTXAS=${4:-ptxas}
rm -rf "$work"
mkdir -p "$work"
export mode work PTXAS

if [ "$mode" = manifest ]; then
  status=0
  listed=$(grep -v '^#' "$dir/MANIFEST.tsv" | cut -f1 | sort)
  present=$(cd "$dir" && ls -- *.ptx | sort)
  if [ "$listed" != "$present" ]; then
    echo "MANIFEST.tsv and the files differ:"
    diff <(echo "$listed") <(echo "$present")
    status=1
  fi
  while IFS=$'\t' read -r file _ _ _ sum; do
    [ -f "$dir/$file" ] || continue
    [ "$(sha256sum "$dir/$file" | cut -d' ' -f1)" = "$sum" ] ||
      { echo "FAIL $file: sha256 differs from MANIFEST.tsv"; status=1; }
  done < <(grep -v '^#' "$dir/MANIFEST.tsv")
  echo "manifest: $(echo "$present" | grep -c .) files"
  exit $status
fi

check_one() {
  local f=$1 name out arch
  name=$(basename "$f" .ptx)
  out="$work/$name"
  case "$mode" in
    roundtrip)
      if ! mmptx-opt "$f" -o "$out.ptx" 2>"$out.err"; then
        head -1 "$out.err" >"$out.fail"
      elif ! cmp -s "$f" "$out.ptx"; then
        echo "printed module differs: $(cmp "$f" "$out.ptx" 2>&1 | head -1)" >"$out.fail"
      fi
      rm -f "$out.ptx" ;;
    list)
      mmptx-opt --list-injects "$f" >"$out.txt" 2>"$out.err" ||
        head -1 "$out.err" >"$out.fail" ;;
    ptxas)
      arch=$(sed -n 's/^\.target[[:space:]]\{1,\}\([a-z0-9_]*\).*/\1/p' "$f" | head -1)
      "$PTXAS" -arch="$arch" "$f" -o "$out.cubin" 2>"$out.err" ||
        head -1 "$out.err" >"$out.fail"
      rm -f "$out.cubin" ;;
    prune)
      arch=$(sed -n 's/^\.target[[:space:]]\{1,\}\([a-z0-9_]*\).*/\1/p' "$f" | head -1)
      if ! mmptx-opt --prune-unused-globals "$f" -o "$out.ptx" 2>"$out.err"; then
        head -1 "$out.err" >"$out.fail"
      elif ! cmp -s "$f" "$out.ptx" &&
          ! "$PTXAS" -arch="$arch" "$out.ptx" -o "$out.cubin" 2>"$out.err"; then
        echo "pruned: $(head -1 "$out.err")" >"$out.fail"
      fi
      rm -f "$out.ptx" "$out.cubin" ;;
    *) echo "unknown mode '$mode'" >"$out.fail" ;;
  esac
}
export -f check_one

files=("$dir"/*.ptx)
printf '%s\0' "${files[@]}" | xargs -0 -n1 -P2 bash -c 'check_one "$1"' _
failed=0
for fail in "$work"/*.fail; do
  [ -e "$fail" ] || continue
  echo "FAIL $(basename "$fail" .fail).ptx: $(cat "$fail")"
  failed=$((failed + 1))
done
echo "$mode: ${#files[@]} files, $failed failed"
[ "$failed" -eq 0 ]
