// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.proto.Protocol;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * What LL and LL128 share: messages are lines whose flags say they arrived, so the receiver
 * unpacks the lines that have arrived into its staging buffer (and the executor then reads the
 * message there as plain bytes), and the sender may build a message in its own staging buffer
 * before packing it into lines. Each message opens with its size (header), read first.
 */
abstract sealed class LineFifo extends Fifo permits LlFifo, Ll128Fifo {
    final MemorySegment sendStage;
    final MemorySegment recvStage;
    /** The most data bytes one message carries. */
    final long capacity;
    /** Receiver: lines of the waiting message (-1 until its header arrived), lines unpacked, size, stamp. */
    long lines = -1;
    long cursor;
    long size;
    int stamp;

    LineFifo(Protocol protocol, Arena arena, MemorySegment shm, int channel, int from, int to, long slotBytes) {
        super(protocol, arena, shm, channel, from, to, slotBytes);
        this.capacity = slotBytes / protocol.lineBytes() * protocol.dataBytesPerLine() - Protocol.HEADER_BYTES;
        this.sendStage = arena.allocate(capacity, 64);
        this.recvStage = arena.allocate(capacity, 64);
    }

    @Override
    public final MemorySegment sendSegment() {
        return sendStage;
    }

    /** The sender writes one message at a time, at the start of its stage, and packs it into lines as it sends. */
    @Override
    public final long sendOffset() {
        return 0;
    }

    /** Sender: counts message {@code t} as sent once its lines are written, and wakes a parked receiver. */
    final long sent(long t) {
        LONG.setRelease(mem, TAIL, t + 1);
        // Orders the lines' stores before the read of dataWaiter (the receiver registers, then polls).
        VarHandle.fullFence();
        wakeReceiver();
        return t;
    }

    /**
     * Receiver: takes the size a header announced. A size the slot cannot hold is kept (the
     * executor reports it as a mismatch) and no line after the header is read.
     */
    final void announce(long word) {
        size = word & FifoLayout.SIZE_MASK;
        stamp = FifoLayout.stamp(word);
        lines = oversized() ? 1 : protocol.linesFor(size);
        cursor = 1;
    }

    /** Receiver: whether the announced size is one no slot holds (then nothing past the header is read). */
    final boolean oversized() {
        return size < 0 || size > capacity;
    }

    @Override
    public final boolean hasData() {
        if (complete()) {
            return true;
        }
        long h = head();
        return unpack(slotOffset(h), protocol.flag(h));
    }

    /**
     * Receiver: unpacks what has arrived of the message in the slot at {@code base}, whose lines
     * carry {@code flag}; whether all of it has.
     */
    abstract boolean unpack(long base, long flag);

    /** Receiver: whether the whole waiting message is unpacked. */
    final boolean complete() {
        return lines >= 0 && cursor == lines;
    }

    @Override
    public final MemorySegment recvSegment() {
        return recvStage;
    }

    @Override
    public final long recvOffset() {
        return 0;
    }

    @Override
    public final long recvSize() {
        return size;
    }

    @Override
    public final int recvStamp() {
        return stamp;
    }

    @Override
    public final void release() {
        lines = -1;
        cursor = 0;
        super.release();
    }
}
