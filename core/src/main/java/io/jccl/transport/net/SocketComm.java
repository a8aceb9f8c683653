// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.SocketChannel;

/**
 * What both ends of a socket connection have: its tag and name, its non-blocking sockets, and
 * the ring of requests it posts in order, message {@code n} in slot {@code n mod ring.length}.
 */
abstract sealed class SocketComm implements NetComm permits SocketSendComm, SocketRecvComm {
    final long tag;
    final String name;
    final SocketRequest[] ring;
    /** Messages posted so far: the next one's number. */
    long posted;

    SocketComm(long tag, String name, SocketChannel[] channels, int requests) throws IOException {
        this.tag = tag;
        this.name = name;
        for (SocketChannel ch : channels) {
            ch.configureBlocking(false);
        }
        this.ring = new SocketRequest[requests];
        for (int i = 0; i < requests; i++) {
            ring[i] = new SocketRequest(this);
        }
    }

    @Override
    public final long tag() {
        return tag;
    }

    abstract int sockets();

    /** Message {@code seq}'s request while it is still the one in its slot. */
    final SocketRequest request(long seq) {
        return ring[(int) (seq % ring.length)];
    }

    /** The next message's request, posted over {@code bytes} at {@code data + offset}; null while its slot is in flight. */
    final SocketRequest next(MemorySegment data, long offset, MemoryHandle memory, long bytes) {
        SocketRequest r = request(posted);
        if (r.busy) {
            return null;
        }
        r.post(posted++, data, offset, memory, bytes);
        return r;
    }

    /** Moves the comm on without blocking; true when {@code r} is done (it is then free again). */
    final boolean test(SocketRequest r) throws IOException {
        if (!r.busy) {
            throw new IllegalStateException("a request of " + name + " tested after it was done");
        }
        if (!progress(r)) {
            return false;
        }
        r.busy = false;
        r.data = null;
        return true;
    }

    /** Writes or reads what the sockets take or have now; true once {@code r} is whole. */
    abstract boolean progress(SocketRequest r) throws IOException;

    abstract void close();

    @Override
    public final String toString() {
        return name;
    }
}
