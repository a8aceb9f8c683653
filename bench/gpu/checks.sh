#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The GPU checks of docs/gpu.md, from a folder made by bundle.sh, on a machine with a GPU:
# the GPU tests (CudaCollectivesTest; CudaMultiGpuTest, which skips on one GPU), compute-sanitizer's memcheck and racecheck on a short
# sweep, and the perf sweeps of the table in docs/gpu.md. Logs go to $OUT (default ./out).
#   ./checks.sh [tests|sanitizer|perf|procs|graphs|table]...     (default: the first three)
# procs: the all-reduce sweep with one rank per process (CUDA IPC, pinned host memory, the socket proxy).
# graphs: 8 B and 128 MiB all-reduces of 2 and 8 ranks, eager against CUDA graphs (-G), three rounds
# alternated; with OLD=DIR (the lib/ of an older bundle) its eager rows are alternated in as well.
# table: the tuning table of this GPU (docs/gpu.md "A tuning table measured on the GPU"): each algorithm
# and protocol forced, all-reduce of 2, 4 and 8 ranks, into $out/table-<ranks>.json (merged by hand).
# QUICK=1: the sanitizers run on the tuner's choices, eager and in graphs, not on each algorithm forced.
# TESTS_TIMEOUT: seconds the GPU tests may take (default 600); at the limit their JVM's stacks go to
# tests.log (SIGQUIT), and a test that started and never finished is named.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-$here/out}"
mkdir -p "$out"
java="$here/jdk/bin/java"
v=0.1.0-SNAPSHOT
jccl="$here/lib/jccl-bindings-$v.jar:$here/lib/jccl-kernels-$v.jar:$here/lib/jccl-core-$v.jar"
access=io.jccl.core,io.jccl.bindings,io.jccl.kernels
perf_cmd=("$java" -Xss4m --enable-native-access=$access -p "$jccl:$here/lib/jccl-bench-$v.jar" -m io.jccl.bench/io.jccl.bench.Main perf)
perf() { "${perf_cmd[@]}" "$@"; }

tests() {
    local cp="$here/lib/core-tests.zip:$jccl:$here/lib/assertj-core-3.27.3.jar:$here/lib/junit-platform-console-standalone-1.11.4.jar"
    # flat: each test's start and end as they happen, so a run cut short names the test it was in;
    # at the limit the JVM first gets SIGQUIT (its threads' stacks into the log), then 20 s later KILL
    timeout -s QUIT -k 20 "${TESTS_TIMEOUT:-600}" "$java" -Xss4m --enable-native-access=ALL-UNNAMED -cp "$cp" \
        org.junit.platform.console.ConsoleLauncher execute --disable-banner --details=flat --details-theme=ascii \
        --include-tag gpu --select-class io.jccl.engine.cuda.CudaCollectivesTest \
        --select-class io.jccl.engine.cuda.CudaMultiGpuTest --select-class io.jccl.JcclExamplesTestOnGpu > "$out/tests.log" 2>&1
    echo "tests: exit $?"; grep -E 'tests (successful|failed|aborted)' "$out/tests.log"
    grep -aE '^.{0,8}(Finished|Skipped|Aborted).*(FAILED|ABORTED|Reason)' "$out/tests.log" | cut -c1-300 | head -20
    # a test started and never finished: the one a cut-short run was in
    sed 's/\x1b\[[0-9;]*m//g' "$out/tests.log" | awk '/^Started: /{s[substr($0, 14)]=1} /^Finished: /{delete s[substr($0, 14)]}
        END {for (t in s) if (t !~ /^(JUnit|Cuda)/) print "unfinished: " substr(t, 1, 200)}'
}

sanitizer() {
    for tool in memcheck racecheck; do
        # the calls captured in CUDA graphs and replayed (-G)
        timeout 300 compute-sanitizer --tool $tool "${perf_cmd[@]}" allreduce --engine cuda -t 2 -b 8 -e 4M -f 64 -n 2 -w 1 --min-time 0 \
            --jit_warmup 0 -G 2 > "$out/$tool-graph.log" 2>&1 || true
        echo "$tool (CUDA graphs): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/$tool-graph.log")"
        timeout 300 compute-sanitizer --tool $tool "${perf_cmd[@]}" allreduce --engine cuda -t 2 -b 8 -e 4M -f 64 -n 2 -w 1 --min-time 0 \
            --jit_warmup 0 > "$out/$tool.log" 2>&1 || true
        echo "$tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/$tool.log")"
        # Each algorithm's kernels forced (the tuner above picks the butterfly up to 2 MiB): the tree's
        # and the split tree's (two teams of a block on named barriers) middle ranks need 4; the
        # butterfly on 3 ranks folds one into another (scratch, docs/gpu.md "Scratch").
        # QUICK=1: the tuner's choices (the direct kernel: the ranks are issued in one group) and the ring's kernels
        if [[ -n "${QUICK:-}" ]]; then
            JCCL_ALGO=ring timeout 300 compute-sanitizer --tool $tool "${perf_cmd[@]}" allreduce --engine cuda -t 2 \
                -b 8 -e 4M -f 64 -n 2 -w 1 --min-time 0 --jit_warmup 0 > "$out/$tool-ring.log" 2>&1 || true
            echo "$tool (ring, 2 ranks): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/$tool-ring.log")"
            continue
        fi
        for a in ring:2 tree:4 splittree:4 butterfly:3; do
            JCCL_ALGO=${a%:*} timeout 300 compute-sanitizer --tool $tool "${perf_cmd[@]}" allreduce --engine cuda -t ${a#*:} \
                -b 8 -e 4M -f 64 -n 2 -w 1 --min-time 0 --jit_warmup 0 > "$out/$tool-${a%:*}.log" 2>&1 || true
            echo "$tool (${a%:*}, ${a#*:} ranks): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/$tool-${a%:*}.log")"
        done
    done
}

sweeps() {
    : > "$out/perf.log"
    for t in 2 8; do
        perf allreduce --engine cuda -t $t -b 8 -e 256M -f 4 >> "$out/perf.log" 2>&1
        for p in LL LL128 Simple; do
            JCCL_PROTO=$p perf allreduce --engine cuda -t $t -b 8 -e 64M -f 4 >> "$out/perf.log" 2>&1
        done
    done
    for c in allgather reducescatter broadcast alltoall; do
        perf $c --engine cuda -t 8 -b 8 -e 64M -f 8 >> "$out/perf.log" 2>&1
    done
    # The butterfly (one exchange per doubling, partial sums in scratch) against the ring's small
    # calls (on the H100 it wins up to 2 MiB: docs/gpu.md, "A tuning table measured on the GPU").
    for t in 2 8; do
        for a in butterfly ring; do
            JCCL_ALGO=$a perf allreduce --engine cuda -t $t -b 8 -e 1M -f 8 >> "$out/perf.log" 2>&1
        done
    done
    echo "perf: $out/perf.log"
}

graphs() {
    : > "$out/graphs.log"
    local old=()
    [[ -n "${OLD:-}" ]] && old=("$java" -Xss4m --enable-native-access=$access -p "$OLD/jccl-bindings-$v.jar:$OLD/jccl-kernels-$v.jar:$OLD/jccl-core-$v.jar:$OLD/jccl-bench-$v.jar" -m io.jccl.bench/io.jccl.bench.Main perf)
    for round in 1 2 3; do
        for t in 2 8; do
            echo "## round $round, $t ranks, eager" >> "$out/graphs.log"
            perf allreduce --engine cuda -t $t -b 8 -e 128M -f ${GRAPH_STEP:-4096} >> "$out/graphs.log" 2>&1
            echo "## round $round, $t ranks, CUDA graphs" >> "$out/graphs.log"
            perf allreduce --engine cuda -t $t -b 8 -e 128M -f ${GRAPH_STEP:-4096} -G 20 >> "$out/graphs.log" 2>&1
            if [[ ${#old[@]} -gt 0 ]]; then
                echo "## round $round, $t ranks, eager, OLD" >> "$out/graphs.log"
                "${old[@]}" allreduce --engine cuda -t $t -b 8 -e 128M -f ${GRAPH_STEP:-4096} >> "$out/graphs.log" 2>&1
                echo "## round $round, $t ranks, CUDA graphs, OLD" >> "$out/graphs.log"
                "${old[@]}" allreduce --engine cuda -t $t -b 8 -e 128M -f ${GRAPH_STEP:-4096} -G 20 >> "$out/graphs.log" 2>&1
            fi
        done
    done
    grep -E '^##|^  +(8|32768|134217728) ' "$out/graphs.log"
}

table() {
    for t in 2 4 8; do
        JCCL_ALGO=ring,tree,butterfly timeout 200 "${perf_cmd[@]}" allreduce --engine cuda -t $t -b 8 -e 128M -f 4 \
            --min-time ${TABLE_MIN_TIME:-20} --table "$out/table-$t.json" > "$out/table-$t.log" 2>&1
        echo "table $t ranks: exit $?, $(grep -c '"us"' "$out/table-$t.json" 2>/dev/null) timings"
    done
}

procs() {
    : > "$out/procs.log"
    # Processes sharing one GPU time-slice unless MPS runs them together: a daemon of our own, in
    # private directories, stopped at the end (the GPU's compute mode is left as it is).
    local mps=""
    if command -v nvidia-cuda-mps-control > /dev/null; then
        export CUDA_MPS_PIPE_DIRECTORY="$out/mps-pipe" CUDA_MPS_LOG_DIRECTORY="$out/mps-log"
        mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
        nvidia-cuda-mps-control -d && mps=yes
    fi
    echo "# MPS: ${mps:-no}" >> "$out/procs.log"
    for p in 2 4; do
        timeout 300 "${perf_cmd[@]}" allreduce --engine cuda --procs $p -b 8 -e 256M -f 4 >> "$out/procs.log" 2>&1
        JCCL_P2P_DISABLE=1 timeout 300 "${perf_cmd[@]}" allreduce --engine cuda --procs $p -b 8 -e 64M -f 8 >> "$out/procs.log" 2>&1
    done
    # Both off: the socket proxy over loopback (docs/gpu.md "Ranks behind sockets").
    JCCL_P2P_DISABLE=1 JCCL_SHM_DISABLE=1 timeout 300 "${perf_cmd[@]}" allreduce --engine cuda --procs 2 -b 8 -e 64M -f 8 \
        >> "$out/procs.log" 2>&1
    [[ -z "$mps" ]] || echo quit | nvidia-cuda-mps-control
    echo "procs: $out/procs.log"
}

[[ $# -gt 0 ]] || set -- tests sanitizer perf
for what in "$@"; do
    case "$what" in
        tests) tests ;;
        sanitizer) sanitizer ;;
        perf) sweeps ;;
        procs) procs ;;
        graphs) graphs ;;
        table) table ;;
        *) echo "checks.sh: unknown check $what (tests, sanitizer, perf, procs, graphs, table)" >&2; exit 2 ;;
    esac
done
