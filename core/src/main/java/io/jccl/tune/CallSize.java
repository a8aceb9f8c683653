// SPDX-License-Identifier: Apache-2.0
package io.jccl.tune;

import io.jccl.Collective;

/**
 * The size a call is tuned by, in NCCL's terms (and nccl-tests' "size" column): the bytes of one
 * rank's buffer for all-reduce, broadcast and reduce, the whole n-block buffer for all-gather,
 * reduce-scatter, all-to-all, gather and scatter.
 */
public final class CallSize {
    private CallSize() {
    }

    /** {@code count} elements of {@code elementSize} bytes, as the API takes them, on {@code nranks} ranks. */
    public static long bytes(Collective c, long count, int elementSize, int nranks) {
        long b = count * elementSize;
        return switch (c) {
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, GATHER, SCATTER -> b * nranks;
            default -> b;
        };
    }
}
