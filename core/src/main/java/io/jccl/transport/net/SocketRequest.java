// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.lang.foreign.MemorySegment;

/**
 * A send or receive posted on a socket comm: one of the comm's ring, reused. For a send
 * {@code size} is the message's; for a receive {@code max} bounds it and {@code size} is what the
 * first frame of the message announced (-1 before).
 */
final class SocketRequest implements NetRequest {
    /** The comm it belongs to (test finds the comm through it). */
    final SocketComm comm;
    /** Message number on the connection; which message of the comm this request is. */
    long seq;
    MemorySegment data;
    long offset;
    /** The registered memory the bytes lie in, and where (null: unregistered, read at data + offset). */
    SocketMemory memory;
    long position;
    long size;
    long max;
    /** The message's stamp: a send's, given; a receive's, what its first frame said (0 before). */
    int stamp;
    /** Chunks still to be written or read (valid once the size is known). */
    int left;
    /** Posted and not yet reported done by test. */
    boolean busy;

    SocketRequest(SocketComm comm) {
        this.comm = comm;
    }

    void post(long seq, MemorySegment data, long offset, MemoryHandle memory, long bytes) {
        if (memory != null && !(memory instanceof SocketMemory)) {
            throw new IllegalArgumentException("memory registered with another net: " + memory);
        }
        this.seq = seq;
        this.data = data;
        this.offset = offset;
        this.memory = (SocketMemory) memory;
        this.position = memory == null ? 0 : this.memory.position(data, offset, bytes);
        this.busy = true;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public int stamp() {
        return stamp;
    }
}
