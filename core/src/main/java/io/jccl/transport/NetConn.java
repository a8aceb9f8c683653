// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.transport.net.MemoryHandle;
import io.jccl.transport.net.NetComm;

/**
 * A connection a proxy thread serves: the FIFO it carries, its comm on the net, and the FIFO's
 * memory registered for it.
 */
abstract class NetConn<C extends NetComm> {
    /** What one pass over a connection did. */
    enum Progress {
        /** Nothing to do. */
        IDLE,
        /** A message was posted, sent, received or published. */
        MOVED,
        /** Posted, and waiting on the network. */
        NET,
        /** Nothing posted: the FIFO has no free slot (receivers). */
        ROOM
    }

    final Fifo fifo;
    final C comm;
    /** The region of the FIFO's memory registered for it: {@link MemoryHandle#region()}. */
    final MemoryHandle memory;

    NetConn(Fifo fifo, C comm, MemoryHandle memory) {
        this.fifo = fifo;
        this.comm = comm;
        this.memory = memory;
    }

    /** Whether it has work now, for a thread about to park as its FIFO's waiter. */
    abstract boolean ready();
}
