// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Memory registered with the socket net: nothing to tell the kernel, but each socket of the comm
 * gets its own {@link ByteBuffer} over the region once, so a chunk's read or write only moves that
 * buffer's position and limit (a region of 2 GiB or more has none: a view is made per chunk).
 */
final class SocketMemory implements MemoryHandle {
    private final MemorySegment region;
    private final ByteBuffer[] views;

    SocketMemory(MemorySegment region, int sockets) {
        this.region = region;
        if (region.byteSize() <= Integer.MAX_VALUE) {
            ByteBuffer whole = region.asByteBuffer();
            views = new ByteBuffer[sockets];
            for (int i = 0; i < sockets; i++) {
                views[i] = whole.duplicate();
            }
        } else {
            views = null;
        }
    }

    @Override
    public MemorySegment region() {
        return region;
    }

    @Override
    public MemoryKind kind() {
        return MemoryKind.HOST;
    }

    /** Socket {@code socket}'s buffer over the region, or null when the region has none. */
    ByteBuffer view(int socket) {
        return views == null ? null : views[socket];
    }

    /** Where {@code data} + {@code offset} lies in the region; throws unless {@code bytes} from there fit inside it. */
    long position(MemorySegment data, long offset, long bytes) {
        return position(region, data, offset, bytes);
    }

    /** Where {@code data} + {@code offset} lies in {@code region}; throws unless {@code bytes} from there fit inside it. */
    static long position(MemorySegment region, MemorySegment data, long offset, long bytes) {
        long at;
        if (data == region) {
            at = offset;
        } else if (data.isNative() && region.isNative()) {
            at = data.address() + offset - region.address();
        } else {
            at = -1;
        }
        if (at < 0 || bytes < 0 || at + bytes > region.byteSize()) {
            throw new IllegalArgumentException(bytes + " bytes at " + offset + " of " + data + " are not in the registered " + region);
        }
        return at;
    }
}
