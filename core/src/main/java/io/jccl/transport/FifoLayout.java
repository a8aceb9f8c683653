// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.proto.Protocol;

/**
 * The memory of one FIFO (one direction of one connection in one protocol), wherever it lives: a
 * rank's native memory, a {@code /dev/shm} file two processes map, pinned host memory a GPU and
 * the socket proxy share, or a GPU's device memory. The host FIFOs ({@link Fifo}), the
 * shared-memory files ({@link ShmFiles}), the socket proxy and the CUDA engine's kernels
 * ({@code jccl_work.h}'s {@code JCCL_FIFO_*}) all read it through these offsets; FifoLayoutTest
 * proves that the header's defines are these numbers.
 *
 * <pre>
 *   0          64         128               192                            256
 *   +----------+----------+-----------------+------------------------------+--------+-----+--------+
 *   | head     | tail     | sizes[STEPS]    | attached abort pid probe cma | slot 0 | ... | slot 7 |
 *   +----------+----------+-----------------+------------------------------+--------+-----+--------+
 *    receiver    sender     Simple: a slot's   shared files only (8 bytes     STEPS slots of
 *    writes      writes     message size       each, from 192)                slotBytes each
 * </pre>
 *
 * Head and tail sit on cache lines of their own, so that the two sides never write one line.
 * In a slot the protocols lay out their lines (protocols.md); the control words are used only
 * by FIFOs shared between processes: how many sides mapped the file (the second unlinks it), the
 * abort word, and the handshake of single-copy reads (the sender's pid and probe word, the
 * receiver's verdict).
 */
public final class FifoLayout {
    private FifoLayout() {
    }

    /** Counters and control words each on a line of their own. */
    public static final long CACHE_LINE = 64;
    /** Messages the receiver has released (written by the receiver only). */
    public static final long HEAD = 0;
    /** Messages the sender has published (written by the sender only). */
    public static final long TAIL = HEAD + CACHE_LINE;
    /** Simple: per slot, the size of its message in bytes (a flag bit marks a single-copy reference). */
    public static final long SIZES = TAIL + CACHE_LINE;
    /** The control words of shared FIFOs. */
    public static final long CONTROL = SIZES + Protocol.STEPS * 8L;
    /** How many sides mapped a shared FIFO's file. */
    public static final long ATTACHED = CONTROL;
    /**
     * Non-zero once a process of the communicator aborted it: the aborting rank + 1 in the low
     * half, the rank it lost + 1 (0: none) in the high half.
     */
    public static final long ABORT = ATTACHED + 8;
    /** Simple, single copy: the sender's pid, the address of its probe word, the receiver's verdict. */
    public static final long SENDER_PID = ABORT + 8;
    public static final long SENDER_PROBE = SENDER_PID + 8;
    public static final long CROSS_VERDICT = SENDER_PROBE + 8;
    /** Where the slots start. */
    public static final long SLOTS = CONTROL + CACHE_LINE;

    /**
     * A message's size as the protocols carry it (Simple's size word, LL's and LL128's header):
     * the bytes in the low {@value #STAMP_SHIFT} bits, and above them the call's stamp, a
     * fingerprint of the call the sender makes ({@link #STAMP_BITS} bits, 0 for none), which the
     * receiver compares with its own. Bit 62 is Simple's single-copy flag. The kernels write 0.
     */
    public static final int STAMP_SHIFT = 40;
    public static final int STAMP_BITS = 22;
    public static final long SIZE_MASK = (1L << STAMP_SHIFT) - 1;
    public static final int STAMP_MASK = (1 << STAMP_BITS) - 1;

    /** The size word of {@code bytes} stamped with {@code stamp}. */
    public static long stamped(long bytes, int stamp) {
        return bytes | (long) (stamp & STAMP_MASK) << STAMP_SHIFT;
    }

    /** The stamp of a size word. */
    public static int stamp(long word) {
        return (int) (word >>> STAMP_SHIFT) & STAMP_MASK;
    }

    /** Bytes of a FIFO whose slots hold {@code slotBytes} each. */
    public static long bytes(long slotBytes) {
        return SLOTS + Protocol.STEPS * slotBytes;
    }

    /** Offset of the slot message {@code seq} uses. */
    public static long slot(long seq, long slotBytes) {
        return SLOTS + (seq % Protocol.STEPS) * slotBytes;
    }

    /** Offset of the size word of the slot message {@code seq} uses (Simple). */
    public static long size(long seq) {
        return SIZES + (seq % Protocol.STEPS) * 8;
    }

    /** The abort word of rank {@code by}'s abort after it lost rank {@code lost} (-1: none). */
    public static long abortWord(int by, int lost) {
        return ((long) (lost + 1) << 32) | ((by + 1) & 0xFFFF_FFFFL);
    }

    /** The rank that aborted, from an abort word. */
    public static int abortedBy(long word) {
        return (int) word - 1;
    }

    /** The rank whose loss caused the abort, from an abort word, or -1. */
    public static int abortLost(long word) {
        return (int) (word >>> 32) - 1;
    }
}
