package io.jccl.engine.host;

import io.jccl.proto.Simple;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * One connection of the Simple protocol in host memory: {@link Simple#STEPS} slots and two
 * counters. The receiver owns {@code head} (messages consumed), the sender {@code tail} (messages
 * published); each sits on its own cache line so that the two sides do not share one. Each slot
 * has a size word, written before the tail is released, so that the receiver can refuse a message
 * of a size it did not expect instead of reading garbage. One producer lane, one consumer lane.
 *
 * <p>Within one process a message can also travel by reference: the slot then names a region of the
 * sender's memory (kept in this object, beside the native counters), which the receiver reads in
 * place; the sender keeps that region unchanged until the receiver has released the slot.
 */
final class Fifo {
    private static final long HEAD = 0;
    private static final long TAIL = 64;
    private static final long SIZES = 128;
    private static final long SLOTS = 256;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    final int channel;
    final int from;
    final int to;
    final long slotBytes;
    private final MemorySegment mem;
    /** The thread parked waiting for data, or for room: woken at once by the other side. */
    volatile Thread dataWaiter;
    volatile Thread roomWaiter;
    /** Per slot, the sender's memory a by-reference message names (null: the data is in the slot). */
    private final MemorySegment[] refSegment = new MemorySegment[Simple.STEPS];
    private final long[] refOffset = new long[Simple.STEPS];

    Fifo(Arena arena, int channel, int from, int to, long slotBytes) {
        this.channel = channel;
        this.from = from;
        this.to = to;
        this.slotBytes = slotBytes;
        this.mem = arena.allocate(SLOTS + Simple.STEPS * slotBytes, 4096);
    }

    private long head() {
        return (long) LONG.getAcquire(mem, HEAD);
    }

    private long tail() {
        return (long) LONG.getAcquire(mem, TAIL);
    }

    /** Sender: whether a slot is free. */
    boolean hasRoom() {
        return tail() - head() < Simple.STEPS;
    }

    /** Sender: the slot the next message goes to (valid once {@link #hasRoom()}). */
    long sendSlotOffset() {
        return SLOTS + (tail() % Simple.STEPS) * slotBytes;
    }

    /** Sender: publishes the message written to the send slot. */
    void publish(long bytes) {
        publish(null, 0, bytes);
    }

    /**
     * Sender: publishes a message that stays in the sender's memory at {@code segment}+{@code offset}
     * (or, with a null segment, the one written to the send slot). Returns the message's sequence
     * number, for {@link #consumed(long)}.
     */
    long publish(MemorySegment segment, long offset, long bytes) {
        long t = tail();
        int slot = (int) (t % Simple.STEPS);
        refSegment[slot] = segment;
        refOffset[slot] = offset;
        mem.set(ValueLayout.JAVA_LONG, SIZES + slot * 8L, bytes);
        // A volatile store: it orders the plain writes above before the receiver's acquire of tail,
        // and (a full fence) the read of dataWaiter below after it, so that a receiver that
        // registered and then saw no data is always woken.
        LONG.setVolatile(mem, TAIL, t + 1);
        Thread w = dataWaiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
        return t;
    }

    /** Sender: whether the receiver has released message {@code seq}. */
    boolean consumed(long seq) {
        return head() > seq;
    }

    /** Receiver: whether a message is waiting. */
    boolean hasData() {
        return tail() > head();
    }

    /** Receiver: the memory holding the waiting message: this FIFO's slot, or the sender's region. */
    MemorySegment recvSegment() {
        MemorySegment s = refSegment[(int) (head() % Simple.STEPS)];
        return s != null ? s : mem;
    }

    /** Receiver: offset of the waiting message in {@link #recvSegment()} (valid once {@link #hasData()}). */
    long recvOffset() {
        int slot = (int) (head() % Simple.STEPS);
        return refSegment[slot] != null ? refOffset[slot] : SLOTS + slot * slotBytes;
    }

    /** Receiver: size in bytes of the waiting message. */
    long recvSize() {
        return mem.get(ValueLayout.JAVA_LONG, SIZES + (head() % Simple.STEPS) * 8);
    }

    /** Receiver: frees the slot of the consumed message. */
    void release() {
        // Volatile for the same reason as the tail in publish: roomWaiter is read after it.
        LONG.setVolatile(mem, HEAD, head() + 1);
        Thread w = roomWaiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    MemorySegment memory() {
        return mem;
    }

    @Override
    public String toString() {
        return "ch" + channel + " " + from + "->" + to;
    }
}
