// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.proto.Protocol;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The Simple protocol: raw slots, the sender's tail released after the data. Each slot has a size
 * word, written before the tail, so that the receiver can refuse a message of a size it did not
 * expect instead of reading garbage.
 *
 * <p>A message can also travel by reference: the slot then names a region of the sender's memory,
 * and the sender keeps that region unchanged until the receiver has released the slot. Within one
 * process the reference is kept in this object, beside the native counters, and the receiver reads
 * the region in place. Across processes of one host the slot holds the region's address and the
 * size word a flag; the receiver copies the region out of the sender's process with
 * {@link CrossMemory} (into its destination when the step only copies, else into the slot, where
 * the step then reads it as if the sender had written it). The sender offers this
 * ({@link #offerCrossMemory}) by publishing its pid and probe word; the receiver, on its first
 * message, tries the probe and publishes the verdict; the sender passes references only after a
 * positive one.
 */
public final class SimpleFifo extends Fifo {
    /** In a size word: the slot holds the address of the message in the sender's process. */
    private static final long CROSS = 1L << 62;
    private static final long CROSS_YES = 1;
    private static final long CROSS_NO = 2;

    /** Per slot, the sender's memory a by-reference message names (null: the data is in the slot). */
    private final MemorySegment[] refSegment = new MemorySegment[Protocol.STEPS];
    private final long[] refOffset = new long[Protocol.STEPS];
    /** Receiver of a shared FIFO: the probe was tried. */
    private boolean probed;
    /** Sender of a shared FIFO: the receiver can read this process. */
    private boolean crossReadable;
    /** Receiver: the message that was copied into its slot already; -1 none. */
    private long pulled = -1;
    /** Receiver: where the probe's verdict is told (JCCL_DEBUG=INFO), or null. */
    private java.util.function.Consumer<String> log;

    SimpleFifo(Arena arena, MemorySegment shm, int channel, int from, int to, long slotBytes) {
        super(Protocol.SIMPLE, arena, shm, channel, from, to, slotBytes);
    }

    /** Sender of a shared FIFO: lets the receiver try to read this process (single copy). */
    public void offerCrossMemory() {
        mem.set(ValueLayout.JAVA_LONG, SENDER_PROBE, CrossMemory.probeAddress());
        LONG.setRelease(mem, SENDER_PID, ProcessHandle.current().pid());
    }

    /** Receiver: tells {@code log} how the sender's large messages will come. */
    public void logTo(java.util.function.Consumer<String> log) {
        this.log = log;
    }

    @Override
    public boolean referable() {
        if (!shared) {
            return true;
        }
        if (!crossReadable) {
            crossReadable = (long) LONG.getAcquire(mem, CROSS_VERDICT) == CROSS_YES;
        }
        return crossReadable;
    }

    @Override
    public MemorySegment sendSegment() {
        return mem;
    }

    @Override
    public long sendOffset() {
        return slotOffset(tail());
    }

    @Override
    public long send(MemorySegment segment, long offset, long bytes, boolean byReference, int stamp) {
        long t = tail();
        int slot = (int) (t % Protocol.STEPS);
        long slotOff = slotOffset(t);
        long size = FifoLayout.stamped(bytes, stamp);
        if (byReference && shared && segment.isNative() && crossReadable) {
            mem.set(ValueLayout.JAVA_LONG, slotOff, segment.address() + offset);
            size |= CROSS;
        } else if (byReference && !shared) {
            refSegment[slot] = segment;
            refOffset[slot] = offset;
        } else {
            refSegment[slot] = null;
            if (segment != mem || offset != slotOff) {
                MemorySegment.copy(segment, offset, mem, slotOff, bytes);
            }
        }
        mem.set(ValueLayout.JAVA_LONG, FifoLayout.size(t), size);
        // A volatile store: it orders the plain writes above before the receiver's acquire of tail,
        // and (a full fence) the read of dataWaiter after it, so that a receiver that registered
        // and then saw no data is always woken.
        LONG.setVolatile(mem, TAIL, t + 1);
        wakeReceiver();
        return t;
    }

    @Override
    public boolean hasData() {
        if (tail() <= head()) {
            return false;
        }
        if (shared && !probed) {
            probe();
        }
        return true;
    }

    /** Receiver: tries the sender's probe word once its first message shows the sender is there. */
    private void probe() {
        probed = true;
        long pid = (long) LONG.getAcquire(mem, SENDER_PID);
        boolean yes = false;
        if (pid != 0) {
            yes = CrossMemory.canRead(pid, mem.get(ValueLayout.JAVA_LONG, SENDER_PROBE));
            LONG.setRelease(mem, CROSS_VERDICT, yes ? CROSS_YES : CROSS_NO);
        }
        if (log != null) {
            log.accept("large Simple messages from rank " + from + " on channel " + channel + (yes
                    ? " come by single copy (cross-memory attach from pid " + pid + ")"
                    : pid == 0 ? " come through shared memory (its sender turned single copy off: JCCL_CMA_DISABLE)"
                    : " come through shared memory (this process may not read pid " + pid
                    + ": cross-memory attach refused, see ptrace_scope)"));
        }
    }

    private long sizeWord() {
        return mem.get(ValueLayout.JAVA_LONG, FifoLayout.size(head()));
    }

    /** Receiver: whether the waiting message is still in the sender's process. */
    private boolean remote() {
        return shared && (sizeWord() & CROSS) != 0 && pulled != head();
    }

    @Override
    public MemorySegment recvSegment() {
        if (remote()) {
            pull(mem, slotOffset(head()));
            pulled = head();
        }
        MemorySegment s = refSegment[(int) (head() % Protocol.STEPS)];
        return s != null ? s : mem;
    }

    @Override
    public long recvOffset() {
        long h = head();
        int slot = (int) (h % Protocol.STEPS);
        return refSegment[slot] != null ? refOffset[slot] : slotOffset(h);
    }

    @Override
    public long recvSize() {
        return sizeWord() & FifoLayout.SIZE_MASK;
    }

    @Override
    public int recvStamp() {
        return FifoLayout.stamp(sizeWord());
    }

    @Override
    public void copyTo(MemorySegment dst, long dstOffset, long bytes) {
        if (remote() && dst.isNative()) {
            pull(dst, dstOffset);
        } else {
            super.copyTo(dst, dstOffset, bytes);
        }
    }

    /** Copies the waiting message out of the sender's process. */
    private void pull(MemorySegment dst, long dstOffset) {
        long h = head();
        long address = mem.get(ValueLayout.JAVA_LONG, slotOffset(h));
        long pid = (long) LONG.getAcquire(mem, SENDER_PID);
        try {
            CrossMemory.read(pid, address, dst, dstOffset, recvSize());
        } catch (CrossMemory.Failure e) {
            String what = "reading message " + h + " of rank " + from + " on channel " + channel + " out of its process (pid "
                    + pid + ") failed: " + e.getMessage();
            if (e.errno == CrossMemory.ESRCH) {
                throw new PeerGone(from, what);
            }
            throw new JcclException(ErrorCode.REMOTE_ERROR, to, what);
        }
    }
}
