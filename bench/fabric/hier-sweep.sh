#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 9's acceptance runs on the emulated two-level fabric (docs/fabric.md), one after another in
# one invocation so that the figures are side by side:
#   bench/fabric/hier-sweep.sh gather  S R INTER SIZE...   all-gather and reduce-scatter: ring,
#                                                          hier2phase, pipeline at intra = 1, 2, 4 x INTER
#   bench/fabric/hier-sweep.sh reduce  S R INTRA INTER [TABLE]  all-reduce 8 B .. 64 MiB: every
#                                                          algorithm forced, then the tuner's choice;
#                                                          with TABLE, the forced runs written there as
#                                                          a tuning table and the tuner's choice from it
# (SMALL, MID, LARGE: perf's size options for the three ranges, or none to skip one; ALGOS: the
# algorithms forced; HOP_US: the hop latency the model is told for both levels, beyond the socket's
# cost per message (CostModel.SOCKET_MESSAGE_CPU), default 20: 2 processes on 2 cores exchanged
# 8 B-4 KiB over loopback sockets in 31-49 us, of which the message is 39; BURST: KiB a shaped link
# passes at full speed after idling, default jccl fabric's 64; the tables before session 18 had 256;
# ROUNDS: reduce runs every algorithm and the tuner's choice this many times, each round in another
# order, so that drift between runs falls on all of them alike; default 1)
# Prints one line per (collective, ratio or algorithm, size): time (us, out of place, as perf prints
# it) and busbw in Mbit/s from the time (nccl-tests' factors). reduce then prints, per size, the
# median of each algorithm's runs and of the tuner's, and the tuner's choice against the fastest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
jccl="$root/jccl"
mode=$1; shift
burst=${BURST:-64}
times() {  # perf's table -> "size algorithm time" of the out-of-place column (algo/proto is column 14)
    grep -v '^#' | awk 'NF > 13 {split($14, c, "/"); print $1, c[1], $6}'
}
medians() {  # sweep lines -> one per (label, size): the median run's line, its time the median
    sort -k7,7 -k10,10n -k12,12g "$1" | awk '
        function emit(  m) { if (n == 0) return
            m = n % 2 ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
            $0 = line[int((n + 1) / 2)]; $12 = m; print; n = 0 }
        { cur = $0; k = $7 " " $10; if (k != pk) emit(); $0 = cur; pk = k; line[++n] = $0; t[n] = $12 + 0 }
        END { emit() }'
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
                    out=$(JCCL_ALGO=$algo "$jccl" fabric --servers "$S" --ranks "$R" --intra "$intra" --inter "$INTER" --burst "$burst" -- \
                        perf "$coll" -b "$size" -e "$size" -n 3 -w 1 -c 1 --jit_warmup 0 --min-time 0 | times)
                    read -r bytes ran t <<< "$out"
                    echo "$S x $R intra:inter $ratio:1 ($intra/$INTER Mbit/s) $coll $algo ($ran) $bytes B: $t us, busbw $(busbw "$bytes" "$t" "$f") Mbit/s"
                done
            done
        done
    done
    ;;
reduce)
    S=$1 R=$2 INTRA=$3 INTER=$4 TABLE=${5:-}
    n=$((S * R))
    f=$(awk -v n=$n 'BEGIN {print 2 * (n - 1) / n}')
    gbps=$(awk -v m="$INTER" 'BEGIN {print m / 8000}')
    intra_gbps=$(awk -v m="$INTRA" 'BEGIN {print m / 8000}')
    hop=${HOP_US:-20}
    forced=$(mktemp)
    tuned=$(mktemp)
    trap 'rm -f "$forced" "$tuned" "$forced.median" "$tuned.median"' EXIT
    # Small sizes: perf's own timing (JIT warm-up, rounds of at least --min-time ms that agree within
    # 10%); 1-4 MiB: 5 calls after 10 untimed ones (with 3, the 8 JVMs still compiled: one
    # configuration at 1 MiB took 39-90 ms in six runs); 16-64 MiB: 2 calls of up to seconds each
    # after 3 untimed ones. perf's JIT warm-up would settle the compiler at every size up to the
    # smallest one, minutes per run at 1 MiB.
    sweep() {  # label, then env assignments: one line per size
        local label=$1; shift
        for range in "${SMALL:--b 8 -e 256K -f 8}" "${MID:--b 1M -e 4M -f 4 -n 5 -w 10 --min-time 0 --jit_warmup 0}" \
            "${LARGE:--b 16M -e 64M -f 4 -n 2 -w 3 --min-time 0 --jit_warmup 0}"; do
            [ "$range" = none ] && continue
            # shellcheck disable=SC2086
            # The model is told both levels: every rank is in its own namespace, so a hop inside a
            # server is a socket too.
            env JCCL_INTER_BW="$gbps" JCCL_INTRA_BW="$intra_gbps" JCCL_INTER_LATENCY="$hop" JCCL_INTRA_LATENCY="$hop" \
                "$@" "$jccl" fabric --servers "$S" --ranks "$R" --intra "$INTRA" --inter "$INTER" --burst "$burst" -- \
                perf allreduce $range -c 1 | grep -v '^#' | awk 'NF > 13 {split($14, c, "/"); print $1, c[1], c[2], $6}' | while read -r bytes ran proto t; do
                echo "$S x $R $INTRA/$INTER Mbit/s allreduce $label ($ran $proto) $bytes B: $t us, busbw $(busbw "$bytes" "$t" "$f") Mbit/s"
            done
        done
    }
    # shellcheck disable=SC2206
    labels=(${ALGOS:-ring tree hierring torus2d rhd butterfly} tuned)
    for ((round = 0; round < ${ROUNDS:-1}; round++)); do
        for ((i = 0; i < ${#labels[@]}; i++)); do
            label=${labels[(i + round) % ${#labels[@]}]}
            if [ "$label" = tuned ]; then
                sweep tuned | tee -a "$tuned"
            else
                sweep "$label" JCCL_ALGO="$label" | tee -a "$forced"
            fi
        done
    done
    medians "$forced" > "$forced.median"
    medians "$tuned" > "$tuned.median"
    # Per size: the fastest forced algorithm, and the algorithm the tuner chose, by their medians.
    awk -v rounds="${ROUNDS:-1}" 'FNR == NR { a = $8; gsub(/[()]/, "", a); t[$10, a] = $12
                                   if (!($10 in best) || $12 + 0 < best[$10]) { best[$10] = $12 + 0; fast[$10] = a }; next }
        { a = $8; gsub(/[()]/, "", a)
          printf "%s %s %s allreduce median of %d: %s B fastest %s %s us; tuner chose %s, forced %s us (%.2f of the fastest), its own runs %s us (%.2f)\n",
              $1 " " $2 " " $3, $4, $5, rounds, $10, fast[$10], best[$10], a, t[$10, a], t[$10, a] / best[$10], $12, $12 / best[$10] }' \
        "$forced.median" "$tuned.median"
    if [ -n "$TABLE" ]; then
        # The forced runs as a tuning table (docs/tuning.md's format; the host engine runs one
        # channel per rank here: 8 ranks on 2 cores), then the tuner's choice from it.
        awk -v n="$n" -v about="hier-sweep.sh reduce $S $R $INTRA $INTER: every algorithm forced on the fabric" '
            { algo = $8; proto = $9; gsub(/[()]/, "", algo); gsub(/[()]/, "", proto); size = $10; t = $12
              if (!(size in seen)) { order[++k] = size; seen[size] = 1 }
              res[size] = res[size] (res[size] == "" ? "" : ",") sprintf("{\"algorithm\":\"%s\",\"protocol\":\"%s\",\"channels\":1,\"us\":%s}", algo, proto, t)
              if (!(size in best) || t + 0 < bt[size]) { bt[size] = t + 0; best[size] = sprintf("{\"algorithm\":\"%s\",\"protocol\":\"%s\",\"channels\":1}", algo, proto) } }
            END { printf "{\"format\":\"jccl-tuning-table\",\"version\":1,\"about\":{\"command\":\"%s\",\"engine\":\"host\"},\"entries\":[", about
                  for (i = 1; i <= k; i++) printf "%s{\"collective\":\"allreduce\",\"ranks\":%d,\"bytes\":%s,\"results\":[%s],\"best\":%s}", (i > 1 ? "," : ""), n, order[i], res[order[i]], best[order[i]]
                  print "]}" }' "$forced.median" > "$TABLE"
        sweep table JCCL_TUNING_FILE="$TABLE"
    fi
    ;;
*) echo "usage: $0 gather S R INTER SIZE... | reduce S R INTRA INTER [TABLE]" >&2; exit 2 ;;
esac
