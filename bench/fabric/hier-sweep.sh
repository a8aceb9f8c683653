#!/usr/bin/env bash
# Issue 9's acceptance runs on the emulated two-level fabric (docs/fabric.md), one after another in
# one invocation so that the figures are side by side:
#   bench/fabric/hier-sweep.sh gather  S R INTER SIZE...   all-gather and reduce-scatter: ring,
#                                                          hier2phase, pipeline at intra = 1, 2, 4 x INTER
#   bench/fabric/hier-sweep.sh reduce  S R INTRA INTER     all-reduce 8 B .. 64 MiB (x4): every
#                                                          algorithm forced, then the tuner's choice
# Prints one line per (collective, ratio or algorithm, size): time (us, out of place, as perf prints
# it) and busbw in Mbit/s from the time (nccl-tests' factors).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
jccl="$root/jccl"
mode=$1; shift
times() {  # perf's table -> "size time" of the out-of-place column, with the algorithm
    grep -v '^#' | awk 'NF > 8 {print $1, $6, $8}'
}
busbw() {  # size time factor -> Mbit/s
    awk -v s="$1" -v t="$2" -v f="$3" 'BEGIN {printf "%.1f", s * 8 * f / t}'
}
case "$mode" in
gather)
    S=$1 R=$2 INTER=$3; shift 3
    n=$((S * R))
    f=$(awk -v n=$n 'BEGIN {print (n - 1) / n}')
    for ratio in 1 2 4; do
        intra=$((INTER * ratio))
        for coll in allgather reducescatter; do
            for algo in ring hier2phase pipeline; do
                for size in "$@"; do
                    out=$(JCCL_ALGO=$algo "$jccl" fabric --servers "$S" --ranks "$R" --intra "$intra" --inter "$INTER" -- \
                        perf "$coll" -b "$size" -e "$size" -n 3 -w 1 -c 1 --jit_warmup 0 -T 0 | times)
                    read -r bytes ran t <<< "$out"
                    echo "$S x $R intra:inter $ratio:1 ($intra/$INTER Mbit/s) $coll $algo ($ran) $bytes B: $t us, busbw $(busbw "$bytes" "$t" "$f") Mbit/s"
                done
            done
        done
    done
    ;;
reduce)
    S=$1 R=$2 INTRA=$3 INTER=$4
    n=$((S * R))
    f=$(awk -v n=$n 'BEGIN {print 2 * (n - 1) / n}')
    gbps=$(awk -v m="$INTER" 'BEGIN {print m / 8000}')
    # Small sizes: enough calls that connection set-up and the JIT are out of the timing; large
    # sizes: a few calls of up to seconds each.
    for range in "-b 8 -e 256K -f 8 -n 20 -w 20" "-b 1M -e 64M -f 4 -n 2 -w 1"; do
        for algo in ring tree hierring torus2d rhd butterfly tuned; do
            env=(JCCL_INTER_BW="$gbps")
            [ "$algo" != tuned ] && env+=(JCCL_ALGO="$algo")
            # shellcheck disable=SC2086
            env "${env[@]}" "$jccl" fabric --servers "$S" --ranks "$R" --intra "$INTRA" --inter "$INTER" -- \
                perf allreduce $range -c 1 -T 0 --jit_warmup 0 | times | while read -r bytes ran t; do
                echo "$S x $R $INTRA/$INTER Mbit/s allreduce $algo ($ran) $bytes B: $t us, busbw $(busbw "$bytes" "$t" "$f") Mbit/s"
            done
        done
    done
    ;;
*) echo "usage: $0 gather S R INTER SIZE... | reduce S R INTRA INTER" >&2; exit 2 ;;
esac
