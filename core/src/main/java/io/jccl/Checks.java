// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.engine.CollectiveArgs;
import io.jccl.engine.Memory;
import io.jccl.engine.P2pArgs;
import io.jccl.engine.host.Reduction;

import java.lang.foreign.MemorySegment;

/**
 * The up-front checks of every call: each failure is a {@link JcclException} naming the argument
 * and the rank, raised before anything is queued.
 */
final class Checks {
    private Checks() {
    }

    static CollectiveArgs collective(int rank, int nranks, Collective c, MemorySegment send, MemorySegment recv, long count,
                                     DataType type, RedOp op, int root, Thread engineThread) {
        if (count < 0) {
            throw JcclException.invalidArgument(rank, "count", "is negative: " + count);
        }
        if (type == null) {
            throw JcclException.invalidArgument(rank, "datatype", "is null");
        }
        if (c.reduces()) {
            if (op == null) {
                throw JcclException.invalidArgument(rank, "op", "is null");
            }
            try {
                Reduction.of(type, op, nranks);
            } catch (JcclException e) {
                throw new JcclException(e.code(), rank, e.getMessage().replaceFirst("^invalid_argument: ", ""));
            }
        }
        if (c.rooted() && (root < 0 || root >= nranks)) {
            throw JcclException.invalidArgument(rank, "root", "is " + root + ", not a rank of 0.." + (nranks - 1));
        }
        long inBytes;
        long outBytes;
        try {
            inBytes = type.bytes(c.inputCount(count, nranks, rank, root));
            outBytes = type.bytes(c.outputCount(count, nranks, rank, root));
        } catch (ArithmeticException e) {
            throw JcclException.invalidArgument(rank, "count", "is too large: " + count + " elements of " + type);
        }
        buffer(rank, "sendbuff", send, inBytes, false, engineThread);
        buffer(rank, "recvbuff", recv, outBytes, true, engineThread);
        if (Memory.overlap(send, inBytes, recv, outBytes) && !inPlace(c, send, recv, count, type, rank, root)) {
            throw JcclException.invalidArgument(rank, "sendbuff",
                    "overlaps recvbuff but is not the in-place form of " + c.cliName() + " (" + inPlaceForm(c) + ")");
        }
        return new CollectiveArgs(c, inBytes > 0 ? send : null, outBytes > 0 ? recv : null, count, type,
                c.reduces() ? op : null, c.rooted() ? root : 0);
    }

    static P2pArgs p2p(int rank, int nranks, boolean send, MemorySegment buf, long count, DataType type, int peer,
                       Thread engineThread) {
        if (count < 0) {
            throw JcclException.invalidArgument(rank, "count", "is negative: " + count);
        }
        if (type == null) {
            throw JcclException.invalidArgument(rank, "datatype", "is null");
        }
        if (peer < 0 || peer >= nranks) {
            throw JcclException.invalidArgument(rank, "peer", "is " + peer + ", not a rank of 0.." + (nranks - 1));
        }
        long bytes;
        try {
            bytes = type.bytes(count);
        } catch (ArithmeticException e) {
            throw JcclException.invalidArgument(rank, "count", "is too large: " + count);
        }
        buffer(rank, send ? "sendbuff" : "recvbuff", buf, bytes, !send, engineThread);
        return new P2pArgs(send, bytes > 0 ? buf : null, count, type, peer);
    }

    private static void buffer(int rank, String name, MemorySegment seg, long bytes, boolean output, Thread engineThread) {
        if (bytes == 0) {
            return;
        }
        if (seg == null) {
            throw JcclException.invalidArgument(rank, name, "is null but " + bytes + " bytes are needed");
        }
        if (!seg.scope().isAlive()) {
            throw JcclException.invalidArgument(rank, name, "belongs to an arena that is closed: its memory is freed");
        }
        if (seg.byteSize() < bytes) {
            throw JcclException.invalidArgument(rank, name, "holds " + seg.byteSize() + " bytes but the call needs " + bytes);
        }
        if (output && seg.isReadOnly()) {
            throw JcclException.invalidArgument(rank, name, "is read-only but the call writes it");
        }
        if (!seg.isAccessibleBy(engineThread)) {
            throw JcclException.invalidArgument(rank, name, "is confined to another thread; allocate it from a shared, "
                    + "global or automatic arena (or use a heap array) so the engine's threads can use it");
        }
    }

    /** NCCL's in-place conventions. */
    private static boolean inPlace(Collective c, MemorySegment send, MemorySegment recv, long count, DataType type,
                                   int rank, int root) {
        long block = type.bytes(count);
        return switch (c) {
            case ALL_REDUCE, BROADCAST, REDUCE -> send.address() == recv.address();
            case ALL_GATHER -> send.address() == recv.address() + rank * block;
            case REDUCE_SCATTER -> recv.address() == send.address() + rank * block;
            case GATHER -> rank == root && send.address() == recv.address() + rank * block;
            case SCATTER -> rank == root && recv.address() == send.address() + rank * block;
            case ALL_TO_ALL, SEND_RECV -> false;
        };
    }

    private static String inPlaceForm(Collective c) {
        return switch (c) {
            case ALL_REDUCE, BROADCAST, REDUCE -> "sendbuff == recvbuff";
            case ALL_GATHER -> "sendbuff == recvbuff + rank * count * size";
            case REDUCE_SCATTER -> "recvbuff == sendbuff + rank * count * size";
            case GATHER -> "at the root, sendbuff == recvbuff + root * count * size";
            case SCATTER -> "at the root, recvbuff == sendbuff + root * count * size";
            case ALL_TO_ALL, SEND_RECV -> "it has none";
        };
    }
}
