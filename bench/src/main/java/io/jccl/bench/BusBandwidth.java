// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Collective;

/**
 * nccl-tests' bus bandwidth: the algorithm bandwidth (bytes of the "size" column over the time)
 * times a factor per collective that makes the figure comparable with the hardware's link
 * bandwidth whatever the number of ranks, because it counts what each rank must move at least.
 */
public final class BusBandwidth {
    private BusBandwidth() {
    }

    /** The factor busbw / algbw for {@code nranks} ranks. */
    public static double factor(Collective c, int nranks) {
        double n = nranks;
        return switch (c) {
            // Each rank sends and receives 2(n-1)/n of the data: reduce-scatter then all-gather.
            case ALL_REDUCE -> 2 * (n - 1) / n;
            // Each rank moves all blocks but its own.
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, GATHER, SCATTER -> (n - 1) / n;
            // A pipeline moves the whole buffer over every link once.
            case BROADCAST, REDUCE, SEND_RECV -> 1;
        };
    }

    /** GB/s (10^9 bytes per second) of {@code bytes} moved in {@code micros}; 0 when no time passed. */
    public static double gbps(long bytes, double micros) {
        return micros > 0 ? bytes / (micros * 1e3) : 0;
    }
}
