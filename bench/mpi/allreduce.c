// SPDX-License-Identifier: Apache-2.0
/*
 * The Open MPI side of jccl's comparison (bench/mpi/compare.sh): MPI_Allreduce of float sums over
 * the sizes jccl perf sweeps, timed as nccl-tests and jccl perf time them (out of place; warm-up;
 * each size runs for at least MIN_MS milliseconds; the slowest rank's average), printed as
 * "size time_us busbw_GBps" lines. busbw = bytes / time * 2(n-1)/n, nccl-tests' factor.
 * Build: mpicc -O2 -o allreduce allreduce.c; run: mpirun -np N ./allreduce [minBytes maxBytes factor]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MIN_MS 100.0

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    long lo = argc > 1 ? atol(argv[1]) : 8;
    long hi = argc > 2 ? atol(argv[2]) : 64L << 20;
    long factor = argc > 3 ? atol(argv[3]) : 4;
    float *send = malloc(hi > 4 ? hi : 4);
    float *recv = malloc(hi > 4 ? hi : 4);
    for (long i = 0; i < hi / 4; i++) {
        send[i] = (float) (rank + i % 7);
    }
    if (rank == 0) {
        printf("# MPI_Allreduce float sum, %d ranks: size(B) time(us) busbw(GB/s)\n", n);
    }
    for (long bytes = lo; bytes <= hi; bytes *= factor) {
        int count = (int) (bytes / 4);
        for (int w = 0; w < 20; w++) {
            MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        }
        /* Rank 0 decides the iterations from a short probe so that every rank runs the same number. */
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int w = 0; w < 5; w++) {
            MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        }
        double probe = (MPI_Wtime() - t0) / 5;
        long iters = (long) (MIN_MS / 1000.0 / (probe > 1e-9 ? probe : 1e-9)) + 1;
        if (iters > 1000000) {
            iters = 1000000;
        }
        MPI_Bcast(&iters, 1, MPI_LONG, 0, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (long i = 0; i < iters; i++) {
            MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        }
        double mine = (MPI_Wtime() - t0) / iters, slowest;
        MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            double busbw = (double) bytes / slowest / 1e9 * 2.0 * (n - 1) / n;
            printf("%ld %.2f %.3f\n", bytes, slowest * 1e6, busbw);
            fflush(stdout);
        }
        if (bytes > hi / factor) {
            break;
        }
    }
    free(send);
    free(recv);
    MPI_Finalize();
    return 0;
}
