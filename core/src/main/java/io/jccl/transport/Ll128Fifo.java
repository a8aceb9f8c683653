// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.proto.Protocol;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The LL128 protocol on the host: 128-byte lines of 120 data bytes and a flag word (the message's
 * sequence number + 1) in the last 8 bytes, stored after the data with a release store; the
 * receiver acquires each line's flag before reading its data. Line 0's first word is the message's
 * size, so line 0 carries 112 data bytes and the others 120. The receiver unpacks the lines that
 * have arrived into its staging buffer, so the executor reads the message as plain bytes.
 */
final class Ll128Fifo extends LineFifo {
    private static final int LINE = 128;
    private static final int DATA = 120;
    private static final int FIRST = DATA - Protocol.HEADER_BYTES;

    Ll128Fifo(Arena arena, MemorySegment shm, int channel, int from, int to, long slotBytes) {
        super(Protocol.LL128, arena, shm, channel, from, to, slotBytes);
    }

    @Override
    public long send(MemorySegment segment, long offset, long bytes, boolean byReference, int stamp) {
        long t = tail();
        long base = slotOffset(t);
        long flag = protocol.flag(t);
        mem.set(ValueLayout.JAVA_LONG, base, FifoLayout.stamped(bytes, stamp));
        long n = Math.min(FIRST, bytes);
        MemorySegment.copy(segment, offset, mem, base + Protocol.HEADER_BYTES, n);
        LONG.setRelease(mem, base + DATA, flag);
        long line = base + LINE;
        for (long pos = n; pos < bytes; pos += DATA, line += LINE) {
            MemorySegment.copy(segment, offset + pos, mem, line, Math.min(DATA, bytes - pos));
            LONG.setRelease(mem, line + DATA, flag);
        }
        return sent(t);
    }

    @Override
    boolean unpack(long base, long flag) {
        if (lines < 0) {
            if ((long) LONG.getAcquire(mem, base + DATA) != flag) {
                return false;
            }
            announce(mem.get(ValueLayout.JAVA_LONG, base));
            if (oversized()) {
                return true;
            }
            MemorySegment.copy(mem, base + Protocol.HEADER_BYTES, recvStage, 0, Math.min(FIRST, size));
        }
        // The last line first: until it has arrived, reading the lines the sender is still writing
        // would only pull their cache lines back and forth between the two cores.
        if (cursor < lines && (long) LONG.getAcquire(mem, base + LINE * lines - LINE + DATA) != flag) {
            return false;
        }
        while (cursor < lines) {
            long line = base + LINE * cursor;
            if ((long) LONG.getAcquire(mem, line + DATA) != flag) {
                return false;
            }
            long pos = FIRST + DATA * (cursor - 1);
            MemorySegment.copy(mem, line, recvStage, pos, Math.min(DATA, size - pos));
            cursor++;
        }
        return true;
    }
}
