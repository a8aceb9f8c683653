// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Where one socket reads or writes its chunk of a request's bytes: the registered memory's buffer
 * for that socket, or, for unregistered memory, a buffer over the last segment seen, kept while
 * the same segment comes again (a lane's by-reference messages name the user's buffer each time).
 */
final class SocketView {
    private final int socket;
    private MemorySegment lastSegment;
    private ByteBuffer lastView;

    SocketView(int socket) {
        this.socket = socket;
    }

    /** A buffer whose remaining bytes are {@code length} bytes at {@code at} of the request's bytes. */
    ByteBuffer of(SocketRequest r, long at, long length) {
        ByteBuffer v;
        long base;
        if (r.memory != null) {
            v = r.memory.view(socket);
            base = r.position;
        } else {
            if (r.data != lastSegment) {
                lastSegment = r.data;
                lastView = r.data.byteSize() <= Integer.MAX_VALUE ? r.data.asByteBuffer() : null;
            }
            v = lastView;
            base = r.offset;
        }
        if (v == null) {
            return r.data.asSlice(r.offset + at, length).asByteBuffer();
        }
        int p = (int) (base + at);
        return v.clear().position(p).limit(p + (int) length);
    }

    /** Lets the last unregistered segment go (its memory may be freed once the comm closes). */
    void forget() {
        lastSegment = null;
        lastView = null;
    }
}
