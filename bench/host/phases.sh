#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 26's pinning runs with the machine's cross-CPU round trip measured around each: ROUNDS
# rounds of core-pingpong (2 s, median of its 200 ms windows), `jccl perf allreduce -t 2` at
# 256 KiB, core-pingpong, `--procs 2` at 2 MiB, core-pingpong. Where the round trip moves between
# runs, so do the runs, with nothing of jccl's changed (docs/results.md, "Where the host puts the vCPUs").
#   bench/host/phases.sh [ROUNDS]        (default 10; from the repository root, after mvn install)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-10}
probe=$(mktemp)
trap 'rm -f "$probe"' EXIT
gcc -O2 -pthread bench/host/core-pingpong.c -o "$probe"
rt() { "$probe" 2 | awk '!/^#/ {print $2}' | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
row() { awk -v s="$1" '$1 == s && !/^#/ {print $6 "/" $10}'; }
echo "# round  rt_ns | -t 2, 256 KiB: out/in-place us | rt_ns | --procs 2, 2 MiB: out/in-place us | rt_ns"
for ((i = 1; i <= rounds; i++)); do
    a=$(rt)
    t=$(./jccl perf allreduce -t 2 -b 256K -e 256K 2>&1 | row 262144)
    b=$(rt)
    p=$(./jccl perf allreduce --procs 2 -b 2M -e 2M 2>&1 | row 2097152)
    c=$(rt)
    printf '%7d %6s | %18s | %6s | %20s | %6s\n' "$i" "$a" "$t" "$b" "$p" "$c"
done
