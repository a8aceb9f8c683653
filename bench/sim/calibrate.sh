#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The runs behind the host and shm constants of core/src/main/resources/io/jccl/sim/calibration.json
# (docs/simulator.md, "Calibration"): ring all-reduces (and one all-gather) on emulated fabrics that
# the validation (jccl simcheck: 2x2, 2x4, 4x2 at 800/200 Mbit/s) does not use, LL's network cost
# (2 x 1 unshaped, JCCL_PROTO=LL), and the shm entry's perf runs on threads. Needs root and
# iproute2; run from the repository root; prints perf's tables, one per run.
set -u
clean() { for n in $(ip netns list | awk '/^jn-/{print $1}'); do ip netns del "$n"; done; }
small="-b 16K -e 1M -f 4 -n 1 -w 20 --min-time 300 --jit_warmup 500 -c 1"
large="-b 4M -e 64M -f 4 -n 1 -w 1 --min-time 0 --jit_warmup 0 -c 1"
for spec in "1 0 0" "4 0 0" "1 800 200"; do
  set -- $spec
  for part in "$small" "$large"; do
    echo "## 2 x $1, intra $2 inter $3 Mbit/s (0: unshaped): perf allreduce $part"
    JCCL_ALGO=ring timeout 900 ./jccl fabric --servers 2 --ranks "$1" --intra "$2" --inter "$3" -- perf allreduce $part
    clean
  done
done
for r in 1 4; do
  echo "## 2 x $r, 4000/4000 Mbit/s (the cores bound it)"
  JCCL_ALGO=ring timeout 900 ./jccl fabric --servers 2 --ranks $r --intra 4000 --inter 4000 -- \
      perf allreduce -b 1M -e 64M -f 4 -n 1 -w 1 --min-time 0 --jit_warmup 500 -c 1
  clean
done
for coll in allreduce allgather; do
  echo "## 2 x 4, 400/100 Mbit/s, ring $coll"
  JCCL_ALGO=ring timeout 900 ./jccl fabric --servers 2 --ranks 4 --intra 400 --inter 100 -- \
      perf $coll -b 256K -e 16M -f 4 -n 1 -w 1 --min-time 0 --jit_warmup 500 -c 1
  clean
done
echo "## 2 x 1 unshaped, ring all-reduce in LL (netSendGBps/netRecvGBps LL)"
JCCL_ALGO=ring JCCL_PROTO=LL timeout 900 ./jccl fabric --servers 2 --ranks 1 --intra 0 --inter 0 -- \
    perf allreduce -b 64K -e 16M -f 4 -n 1 -w 1 --min-time 0 --jit_warmup 500 -c 1
clean
for t in 2 4; do
  for coll in allreduce allgather; do
    echo "## shm: $coll on $t threads of one process"
    timeout 900 ./jccl perf $coll -t $t -b 8 -e 64M -f 8 -n 5 -w 2
  done
done
