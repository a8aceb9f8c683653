// SPDX-License-Identifier: Apache-2.0
// The round trip of one cache line between two CPUs, in windows of 200 ms: what a hand-off between
// two ranks' lanes costs on this machine at this moment, with no JVM and no jccl involved. On a VM
// the host moves the vCPUs between physical cores, and this number moves with it (docs/results.md,
// "Where the host puts the vCPUs").
//   gcc -O2 -pthread bench/host/core-pingpong.c -o /tmp/core-pingpong && /tmp/core-pingpong SECONDS [CPU_A CPU_B]
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Alignas(128) atomic_long ball;
static _Alignas(128) atomic_int done;

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void pin(int cpu) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    if (pthread_setaffinity_np(pthread_self(), sizeof s, &s) != 0) {
        fprintf(stderr, "core-pingpong: cannot pin to CPU %d\n", cpu);
        exit(1);
    }
}

// Returns each odd value as the next even one until told to stop.
static void *returner(void *cpu) {
    pin(*(int *) cpu);
    long expect = 1;
    while (!atomic_load_explicit(&done, memory_order_relaxed)) {
        if (atomic_load_explicit(&ball, memory_order_acquire) == expect) {
            atomic_store_explicit(&ball, expect + 1, memory_order_release);
            expect += 2;
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2 && argc != 4) {
        fprintf(stderr, "usage: core-pingpong SECONDS [CPU_A CPU_B]\n");
        return 2;
    }
    double duration = atof(argv[1]);
    int a = argc == 4 ? atoi(argv[2]) : 0, b = argc == 4 ? atoi(argv[3]) : 1;
    pthread_t t;
    pthread_create(&t, NULL, returner, &b);
    pin(a);
    printf("# seconds  round_trip_ns  (CPU %d <-> CPU %d, 200 ms windows)\n", a, b);
    double start = seconds();
    long v = 1;
    while (seconds() - start < duration) {
        double w = seconds();
        long trips = 0;
        // The clock is read once per 64 trips, so that its cost stays out of the round trip; a
        // returner that stopped answering is given up on after about a second.
        while ((trips & 63) != 0 || seconds() - w < 0.2) {
            atomic_store_explicit(&ball, v, memory_order_release);
            for (long spins = 1; atomic_load_explicit(&ball, memory_order_acquire) != v + 1; spins++) {
                if ((spins & 0xfffff) == 0 && seconds() - w > 1.2) {
                    fprintf(stderr, "core-pingpong: no answer from CPU %d within 1 s\n", b);
                    return 1;
                }
            }
            v += 2;
            trips++;
        }
        printf("%7.1f %10.0f\n", seconds() - start, (seconds() - w) / trips * 1e9);
        fflush(stdout);
    }
    atomic_store(&done, 1);
    pthread_join(t, NULL);
    return 0;
}
