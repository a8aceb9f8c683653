package io.jccl.engine.host;

import io.jccl.proto.Protocol;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The Simple protocol: raw slots, the sender's tail released after the data. Each slot has a size
 * word, written before the tail, so that the receiver can refuse a message of a size it did not
 * expect instead of reading garbage.
 *
 * <p>Within one process a message can also travel by reference: the slot then names a region of the
 * sender's memory (kept in this object, beside the native counters), which the receiver reads in
 * place; the sender keeps that region unchanged until the receiver has released the slot.
 */
final class SimpleFifo extends Fifo {
    private static final long SIZES = 128;

    /** Per slot, the sender's memory a by-reference message names (null: the data is in the slot). */
    private final MemorySegment[] refSegment = new MemorySegment[Protocol.STEPS];
    private final long[] refOffset = new long[Protocol.STEPS];

    SimpleFifo(Arena arena, MemorySegment shm, int channel, int from, int to, long slotBytes) {
        super(Protocol.SIMPLE, arena, shm, channel, from, to, slotBytes);
    }

    @Override
    MemorySegment sendSegment() {
        return mem;
    }

    @Override
    long sendOffset() {
        return slotOffset(tail());
    }

    @Override
    long send(MemorySegment segment, long offset, long bytes, boolean byReference) {
        long t = tail();
        int slot = (int) (t % Protocol.STEPS);
        long slotOff = slotOffset(t);
        if (byReference) {
            refSegment[slot] = segment;
            refOffset[slot] = offset;
        } else {
            refSegment[slot] = null;
            if (segment != mem || offset != slotOff) {
                MemorySegment.copy(segment, offset, mem, slotOff, bytes);
            }
        }
        mem.set(ValueLayout.JAVA_LONG, SIZES + slot * 8L, bytes);
        // A volatile store: it orders the plain writes above before the receiver's acquire of tail,
        // and (a full fence) the read of dataWaiter after it, so that a receiver that registered
        // and then saw no data is always woken.
        LONG.setVolatile(mem, TAIL, t + 1);
        wakeReceiver();
        return t;
    }

    @Override
    boolean hasData() {
        return tail() > head();
    }

    @Override
    MemorySegment recvSegment() {
        MemorySegment s = refSegment[(int) (head() % Protocol.STEPS)];
        return s != null ? s : mem;
    }

    @Override
    long recvOffset() {
        long h = head();
        int slot = (int) (h % Protocol.STEPS);
        return refSegment[slot] != null ? refOffset[slot] : slotOffset(h);
    }

    @Override
    long recvSize() {
        return mem.get(ValueLayout.JAVA_LONG, SIZES + (head() % Protocol.STEPS) * 8);
    }
}
