#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# jccl perf --procs N against Open MPI's MPI_Allreduce at the same sizes and process counts, in one run:
#   bench/mpi/compare.sh 2 [4 ...]
# Needs mpicc and mpirun (Debian: openmpi-bin, libopenmpi-dev). Prints per size the time and busbw
# of each, and the ratios jccl/MPI (busbw: higher is better for jccl; time: lower is).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
exe="$root/bench/target/mpi_allreduce"
mkdir -p "$root/bench/target"
mpicc -O2 -o "$exe" "$root/bench/mpi/allreduce.c"
"$root/jccl" help > /dev/null
for n in "${@:-2}"; do
    mpi=$(mpirun --allow-run-as-root --oversubscribe -np "$n" "$exe" 8 $((64 << 20)) 4 | grep -v '^#')
    jccl=$("$root/jccl" perf allreduce --procs "$n" -b 8 -e 64M -f 4 -c 0 | grep -v '^#' | awk '{print $1, $6, $8}')
    echo "# $n processes: size(B)  jccl time(us) busbw  |  MPI time(us) busbw  |  time jccl/MPI  busbw jccl/MPI"
    join <(echo "$jccl") <(echo "$mpi") | awk '{printf "%10d  %10.2f %6.2f  |  %10.2f %6.2f  |  %6.2f  %6.2f\n", $1, $2, $3, $4, $5, $2/$4, ($5 > 0 ? $3/$5 : 0)}'
done
