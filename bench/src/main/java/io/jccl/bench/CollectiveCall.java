// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.Communicator;
import io.jccl.DataType;
import io.jccl.Group;
import io.jccl.RedOp;
import io.jccl.Stream;
import io.jccl.Collective;

import java.lang.foreign.MemorySegment;

/**
 * One rank's call of the collective under test, with its buffers laid out out-of-place or in
 * NCCL's in-place form. {@code input} and {@code output} are the views the call reads and writes
 * (sized by {@link Collective#inputCount} and {@link Collective#outputCount} for this rank); in the
 * in-place form they alias one buffer the way the Communicator Javadoc describes.
 */
record CollectiveCall(Communicator comm, Collective collective, long count, DataType type, RedOp op, int root,
                      MemorySegment input, MemorySegment output) {

    /** Whether the collective has an in-place form (all-to-all and send/recv have none). */
    static boolean hasInPlace(Collective c) {
        return c != Collective.ALL_TO_ALL && c != Collective.SEND_RECV;
    }

    /**
     * The call of rank {@code comm.rank()} for a sweep step. {@code sendBuf} and {@code recvBuf}
     * each hold at least {@link PerfSizes#bytes()}; the in-place form uses only {@code recvBuf}.
     */
    static CollectiveCall of(Communicator comm, PerfSizes sizes, RedOp op, int root, boolean inPlace,
                             MemorySegment sendBuf, MemorySegment recvBuf) {
        Collective c = sizes.collective();
        DataType t = sizes.type();
        int n = comm.size();
        int rank = comm.rank();
        long count = sizes.count();
        long inBytes = t.bytes(c.inputCount(count, n, rank, root));
        long outBytes = t.bytes(c.outputCount(count, n, rank, root));
        if (!inPlace) {
            return new CollectiveCall(comm, c, count, t, op, root, sendBuf.asSlice(0, inBytes), recvBuf.asSlice(0, outBytes));
        }
        if (!hasInPlace(c)) {
            throw new IllegalArgumentException(c.cliName() + " has no in-place form");
        }
        long block = t.bytes(count);
        MemorySegment in;
        MemorySegment out;
        switch (c) {
            case ALL_GATHER, GATHER -> {
                // For gather only the root's form is in place; the others put their block where
                // the root's output holds it all the same, as nccl-tests does.
                in = recvBuf.asSlice(rank * block, inBytes);
                out = recvBuf.asSlice(0, outBytes);
            }
            case REDUCE_SCATTER, SCATTER -> {
                in = recvBuf.asSlice(0, inBytes);
                out = recvBuf.asSlice(rank * block, outBytes);
            }
            default -> {
                in = recvBuf.asSlice(0, inBytes);
                out = recvBuf.asSlice(0, outBytes);
            }
        }
        return new CollectiveCall(comm, c, count, t, op, root, in, out);
    }

    /** Queues the call on {@code s} (send/recv as one group: a send to rank+1, a receive from rank-1). */
    void issue(Stream s) {
        switch (collective) {
            case ALL_REDUCE -> comm.allReduce(input, output, count, type, op, s);
            case BROADCAST -> comm.broadcast(input, output, count, type, root, s);
            case REDUCE -> comm.reduce(input, output, count, type, op, root, s);
            case ALL_GATHER -> comm.allGather(input, output, count, type, s);
            case REDUCE_SCATTER -> comm.reduceScatter(input, output, count, type, op, s);
            case ALL_TO_ALL -> comm.allToAll(input, output, count, type, s);
            case GATHER -> comm.gather(input, output, count, type, root, s);
            case SCATTER -> comm.scatter(input, output, count, type, root, s);
            case SEND_RECV -> {
                int n = comm.size();
                int rank = comm.rank();
                Group.start();
                try {
                    comm.send(input, count, type, (rank + 1) % n, s);
                    comm.recv(output, count, type, (rank - 1 + n) % n, s);
                } finally {
                    Group.end();
                }
            }
        }
    }
}
