// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.DataType;
import io.jccl.Collective;

/**
 * What one size of the sweep means for each collective, as nccl-tests computes it: the bytes are
 * cut to whole elements; for the collectives made of per-rank blocks (all-gather, reduce-scatter,
 * all-to-all, gather, scatter) the elements are shared out among the ranks and each rank's block
 * is rounded down to a multiple of 16 bytes' worth of elements, so every block stays aligned.
 *
 * @param count     the count argument of the call (per-rank block where there are blocks)
 * @param sendCount elements of a rank's input buffer (the root's, for scatter)
 * @param recvCount elements of a rank's output buffer (the root's, for gather)
 */
public record PerfSizes(Collective collective, DataType type, int nranks, long count, long sendCount, long recvCount) {

    public static PerfSizes of(Collective c, DataType type, int nranks, long bytes) {
        long elements = bytes / type.size();
        long align = Math.max(1, 16 / type.size());
        long block = elements / nranks / align * align;
        return switch (c) {
            case ALL_REDUCE, BROADCAST, REDUCE, SEND_RECV -> new PerfSizes(c, type, nranks, elements, elements, elements);
            case ALL_GATHER, GATHER -> new PerfSizes(c, type, nranks, block, block, block * nranks);
            case REDUCE_SCATTER, SCATTER -> new PerfSizes(c, type, nranks, block, block * nranks, block);
            case ALL_TO_ALL -> new PerfSizes(c, type, nranks, block, block * nranks, block * nranks);
        };
    }

    /** The "size" column: the larger of the input and output buffers, in bytes. */
    public long bytes() {
        return type.bytes(Math.max(sendCount, recvCount));
    }
}
