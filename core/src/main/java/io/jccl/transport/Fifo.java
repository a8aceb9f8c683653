// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.proto.Protocol;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * One direction of one connection in host memory, in one {@link Protocol}: {@link Protocol#STEPS}
 * slots and the counters. The receiver owns {@code head} (messages consumed) and publishes it when
 * it frees a slot; the sender counts the messages it sent ({@code tail}). Each counter sits on its
 * own cache line so that the two sides do not share one. One producer lane, one consumer lane.
 *
 * <p>The executor sees every protocol alike: the sender waits for {@link #hasRoom()}, may build the
 * message in place at {@link #sendSegment()}/{@link #sendOffset()}, and {@link #send sends} it; the
 * receiver waits for {@link #hasData()}, reads the message at {@link #recvSegment()}/
 * {@link #recvOffset()} and {@link #release() releases} it.
 */
public abstract sealed class Fifo permits SimpleFifo, LineFifo {
    static final long HEAD = FifoLayout.HEAD;
    static final long TAIL = FifoLayout.TAIL;
    static final long SLOTS = FifoLayout.SLOTS;
    static final long ATTACHED = FifoLayout.ATTACHED;
    static final long ABORT = FifoLayout.ABORT;
    static final long SENDER_PID = FifoLayout.SENDER_PID;
    static final long SENDER_PROBE = FifoLayout.SENDER_PROBE;
    static final long CROSS_VERDICT = FifoLayout.CROSS_VERDICT;
    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    final Protocol protocol;
    final int channel;
    final int from;
    final int to;
    /** Bytes of one slot, as the protocol lays it out (lines and flags included). */
    final long slotBytes;
    final MemorySegment mem;
    /** True when the other side is in another process (shared memory): no wake-ups, references only by single copy. */
    final boolean shared;
    /** The thread parked waiting for data, or for room: woken at once by the other side. */
    volatile Thread dataWaiter;
    volatile Thread roomWaiter;

    /** Registers {@code t} as the thread parked waiting for {@code side}: the other side's next publish unparks it. */
    final void await(Wait.Side side, Thread t) {
        if (side == Wait.Side.DATA) {
            dataWaiter = t;
        } else {
            roomWaiter = t;
        }
    }

    /** Unregisters {@code t} from waiting for {@code side}, unless another thread took its place. */
    final void unwait(Wait.Side side, Thread t) {
        if (side == Wait.Side.DATA) {
            if (dataWaiter == t) {
                dataWaiter = null;
            }
        } else if (roomWaiter == t) {
            roomWaiter = null;
        }
    }

    /** Over {@code shm} (zero-filled, {@link #bytes} long) when given, else over fresh memory of {@code arena}. */
    Fifo(Protocol protocol, Arena arena, MemorySegment shm, int channel, int from, int to, long slotBytes) {
        this.protocol = protocol;
        this.channel = channel;
        this.from = from;
        this.to = to;
        this.slotBytes = slotBytes;
        this.shared = shm != null;
        this.mem = shm != null ? shm : arena.allocate(bytes(slotBytes), 4096);
    }

    /** Bytes of a FIFO's memory (counters and slots) with slots of {@code slotBytes}. */
    static long bytes(long slotBytes) {
        return FifoLayout.bytes(slotBytes);
    }

    /** A FIFO of {@code protocol} with a connection buffer of {@code buffSize} bytes, in {@code arena}. */
    static Fifo create(Protocol protocol, Arena arena, int channel, int from, int to, long buffSize) {
        return over(protocol, arena, null, channel, from, to, buffSize);
    }

    /**
     * A FIFO over memory shared with another process ({@code shm}, zero-filled at first, of
     * {@link #bytes}({@code protocol.slotBytes(buffSize)})); staging buffers come from {@code arena}.
     */
    static Fifo over(Protocol protocol, Arena arena, MemorySegment shm, int channel, int from, int to, long buffSize) {
        long slot = protocol.slotBytes(buffSize);
        return switch (protocol) {
            case SIMPLE -> new SimpleFifo(arena, shm, channel, from, to, slot);
            case LL -> new LlFifo(arena, shm, channel, from, to, slot);
            case LL128 -> new Ll128Fifo(arena, shm, channel, from, to, slot);
        };
    }

    /** The channel of this FIFO's connection. */
    public final int channel() {
        return channel;
    }

    /** The sending rank. */
    public final int from() {
        return from;
    }

    /** The receiving rank. */
    public final int to() {
        return to;
    }

    /** Whether the other side may be in another process (the FIFO is in shared memory). */
    public final boolean shared() {
        return shared;
    }

    /** Shared memory: writes an abort word ({@link FifoLayout#abortWord}) unless one is there; false if its memory is gone. */
    final boolean abort(long word) {
        try {
            LONG.compareAndSet(mem, ABORT, 0L, word);
            return true;
        } catch (IllegalStateException e) {
            return false; // its arena is closed: that rank is gone, and its peers were told when it went
        }
    }

    /** Shared memory: the abort word ({@link #ABORT}), 0 while no process aborted. */
    final long abortWord() {
        return (long) LONG.getVolatile(mem, ABORT);
    }

    final long head() {
        return (long) LONG.getAcquire(mem, HEAD);
    }

    final long tail() {
        return (long) LONG.getAcquire(mem, TAIL);
    }

    /** The offset of the slot message {@code seq} uses. */
    final long slotOffset(long seq) {
        return FifoLayout.slot(seq, slotBytes);
    }

    /** Sender: whether a slot is free. */
    public final boolean hasRoom() {
        return tail() - head() < Protocol.STEPS;
    }

    /** Sender: where the next message may be built in place (valid once {@link #hasRoom()}). */
    public abstract MemorySegment sendSegment();

    public abstract long sendOffset();

    /**
     * Sender: sends {@code bytes} bytes at {@code segment}+{@code offset} as the next message (valid
     * once {@link #hasRoom()}). With {@code byReference} (Simple only) the receiver reads them in
     * place, and the sender keeps them unchanged until {@link #consumed} says the receiver is done.
     * Returns the message's sequence number.
     */
    public final long send(MemorySegment segment, long offset, long bytes, boolean byReference) {
        return send(segment, offset, bytes, byReference, 0);
    }

    /** As {@link #send(MemorySegment, long, long, boolean)}, the message stamped with {@code stamp} (see {@link FifoLayout#STAMP_SHIFT}). */
    public abstract long send(MemorySegment segment, long offset, long bytes, boolean byReference, int stamp);

    /** Sender: whether the receiver has released message {@code seq}. */
    public final boolean consumed(long seq) {
        return head() > seq;
    }

    /** Receiver: whether the next message has arrived whole (LL protocols unpack what arrived). */
    public abstract boolean hasData();

    /** Receiver: the memory holding the waiting message. */
    public abstract MemorySegment recvSegment();

    /** Receiver: offset of the waiting message in {@link #recvSegment()} (valid once {@link #hasData()}). */
    public abstract long recvOffset();

    /** Receiver: size in bytes of the waiting message. */
    public abstract long recvSize();

    /** Receiver: the stamp of the call that sent the waiting message, 0 for none. */
    public abstract int recvStamp();

    /** Receiver: copies the waiting message's {@code bytes} bytes to {@code dst} at {@code dstOffset}. */
    public void copyTo(MemorySegment dst, long dstOffset, long bytes) {
        MemorySegment.copy(recvSegment(), recvOffset(), dst, dstOffset, bytes);
    }

    /** Sender: whether {@link #send} may pass a message by reference on this FIFO now. */
    public boolean referable() {
        return false;
    }

    /** Receiver: frees the slot of the consumed message. */
    public void release() {
        // A volatile store: it orders this side's reads of the slot before the sender's reuse of it,
        // and (a full fence) the read of roomWaiter below after it, so that a sender that registered
        // and then saw no room is always woken.
        LONG.setVolatile(mem, HEAD, head() + 1);
        Thread w = roomWaiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /** Sender: wakes a receiver parked for data, after a fence that orders the message's stores before the read. */
    final void wakeReceiver() {
        Thread w = dataWaiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    @Override
    public String toString() {
        return protocol.id() + " ch" + channel + " " + from + "->" + to;
    }
}
