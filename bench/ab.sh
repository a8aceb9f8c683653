#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Two builds of jccl side by side: `jccl perf` of each, alternated for ROUNDS rounds (A, B, B, A, ...
# so that neither always runs first in a slow phase of the machine), then per size the median
# out-of-place time of each and the ratio B/A (below 1: B is faster).
#   bench/ab.sh A_IMAGE B_IMAGE ROUNDS perf allreduce -t 2 -b 8 -e 8
# A_IMAGE and B_IMAGE are runtime images' launchers (bench/target/image/bin/jccl of two clones).
set -euo pipefail
a=$1 b=$2 rounds=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((r = 0; r < rounds; r++)); do
    if ((r % 2 == 0)); then order="a b"; else order="b a"; fi
    for which in $order; do
        exe=$a
        [[ $which == b ]] && exe=$b
        # size and out-of-place time of each table row: the first column the header calls "time"
        # (6th as in nccl-tests; images before nccl-tests' order had it 8th)
        "$exe" "$@" | awk '/^#/ && / size / && / time / {for (i = 2; i <= NF; i++) if ($i == "time") {col = i - 1; break}; next}
                           !/^#/ && col && NF >= 9 {print $1, $col}' >> "$tmp/$which"
    done
done
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
echo "# $* : median out-of-place time (us) of $rounds rounds; ratio B/A"
printf '#%11s %12s %12s %8s\n' "size(B)" "A" "B" "B/A"
for size in $(awk '{print $1}' "$tmp/a" | sort -n | uniq); do
    ma=$(awk -v s="$size" '$1 == s {print $2}' "$tmp/a" | median)
    mb=$(awk -v s="$size" '$1 == s {print $2}' "$tmp/b" | median)
    printf '%12d %12.2f %12.2f %8.3f\n' "$size" "$ma" "$mb" "$(awk -v x="$ma" -v y="$mb" 'BEGIN {print y / x}')"
done
