package io.jccl.proto;

/**
 * The Simple protocol's constants, shared by every engine (the CUDA kernels' header carries the
 * same numbers and a test compares them). A connection's buffer is cut into {@link #STEPS} slots;
 * the receiver owns the head counter, the sender the tail; the sender writes a slot only while
 * fewer than STEPS slots are outstanding, then publishes the tail with a release store (a fence on
 * a GPU) and the receiver acquires it.
 */
public final class Simple {
    private Simple() {
    }

    /** Slots per connection (NCCL_STEPS). */
    public static final int STEPS = 8;

    /** Default buffer per connection: 4 MiB, as NCCL_BUFFSIZE. */
    public static final long DEFAULT_BUFFSIZE = 4L << 20;

    /** Steps per chunk for all-reduce, all-gather and reduce-scatter (NCCL's CHUNKSTEPS). */
    public static final int CHUNKSTEPS = STEPS / 2;

    /** Steps per slice (NCCL's SLICESTEPS). */
    public static final int SLICESTEPS = STEPS / 4;

    /** Smallest buffer accepted: one 4 KiB page per slot. */
    public static final long MIN_BUFFSIZE = STEPS * 4096L;

    /** Bytes of one slot for a connection buffer of {@code buffSize} bytes. */
    public static long slotBytes(long buffSize) {
        return buffSize / STEPS;
    }
}
