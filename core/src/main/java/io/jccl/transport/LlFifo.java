// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.proto.Protocol;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The LL protocol on the host: 16-byte lines {data1, flag1, data2, flag2}, each (data, flag) pair
 * written as one atomic 8-byte store and polled by the receiver; the flag is the message's sequence
 * number + 1. Line 0 carries the message's size (low word, high word), lines 1.. its data, 8 bytes
 * a line. No tail counter is read by the receiver and no fence orders the data: a pair is valid
 * exactly when its flag is the one expected. The receiver unpacks the lines that have arrived into
 * its staging buffer, so the executor reads the message as plain bytes.
 */
final class LlFifo extends LineFifo {
    private static final ValueLayout.OfLong UNALIGNED = ValueLayout.JAVA_LONG_UNALIGNED;

    LlFifo(Arena arena, MemorySegment shm, int channel, int from, int to, long slotBytes) {
        super(Protocol.LL, arena, shm, channel, from, to, slotBytes);
    }

    private static long pair(long flagHigh, long word) {
        return flagHigh | (word & 0xFFFF_FFFFL);
    }

    @Override
    public long send(MemorySegment segment, long offset, long bytes, boolean byReference, int stamp) {
        long t = tail();
        long base = slotOffset(t);
        if (Protocol.llNeedsClean(t)) {
            long clean = (long) Protocol.llCleanFlag(t) << 32;
            for (long o = 0; o < slotBytes; o += 8) {
                LONG.setOpaque(mem, base + o, clean);
            }
        }
        long hi = protocol.flag(t) << 32;
        long word = FifoLayout.stamped(bytes, stamp);
        LONG.setOpaque(mem, base, pair(hi, word));
        LONG.setOpaque(mem, base + 8, pair(hi, word >>> 32));
        long full = bytes >>> 3;
        long line = base + 16;
        for (long i = 0; i < full; i++, line += 16) {
            long d = segment.get(UNALIGNED, offset + (i << 3));
            LONG.setOpaque(mem, line, pair(hi, d));
            LONG.setOpaque(mem, line + 8, pair(hi, d >>> 32));
        }
        int rest = (int) (bytes & 7);
        if (rest != 0) {
            long d = 0;
            long at = offset + (full << 3);
            for (int b = 0; b < rest; b++) {
                d |= (segment.get(ValueLayout.JAVA_BYTE, at + b) & 0xFFL) << (8 * b);
            }
            LONG.setOpaque(mem, line, pair(hi, d));
            LONG.setOpaque(mem, line + 8, pair(hi, d >>> 32));
        }
        return sent(t);
    }

    @Override
    boolean unpack(long base, long expected) {
        int flag = (int) expected;
        if (lines < 0) {
            long v1 = (long) LONG.getOpaque(mem, base);
            long v2 = (long) LONG.getOpaque(mem, base + 8);
            if ((int) (v1 >>> 32) != flag || (int) (v2 >>> 32) != flag) {
                return false;
            }
            announce((v1 & 0xFFFF_FFFFL) | (v2 << 32));
        }
        // The last pair first: until it has arrived, reading the lines the sender is still writing
        // would only pull their cache lines back and forth between the two cores.
        if (cursor < lines && (int) ((long) LONG.getOpaque(mem, base + 16 * lines - 8) >>> 32) != flag) {
            return false;
        }
        while (cursor < lines) {
            long line = base + 16 * cursor;
            long v1 = (long) LONG.getOpaque(mem, line);
            if ((int) (v1 >>> 32) != flag) {
                return false;
            }
            long v2 = (long) LONG.getOpaque(mem, line + 8);
            if ((int) (v2 >>> 32) != flag) {
                return false;
            }
            recvStage.set(ValueLayout.JAVA_LONG, (cursor - 1) << 3, (v1 & 0xFFFF_FFFFL) | (v2 << 32));
            cursor++;
        }
        return true;
    }
}
