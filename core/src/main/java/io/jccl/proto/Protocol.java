// SPDX-License-Identifier: Apache-2.0
package io.jccl.proto;

import java.util.Locale;

/**
 * The wire formats of a connection's FIFO, with the constants every engine shares (the CUDA
 * kernels' header carries the same numbers and a test compares them). A connection's buffer is cut
 * into {@link #STEPS} slots; a message (one step of a schedule) fills at most one slot.
 * <ul>
 * <li>{@link #SIMPLE}: raw data; the receiver owns the head counter (messages consumed), the sender
 * the tail (messages published); the sender writes a slot while fewer than STEPS are outstanding,
 * then publishes the tail with a release store (a fence on a GPU) and the receiver acquires it.
 * Highest bandwidth, highest latency.</li>
 * <li>{@link #LL}: 16-byte lines {data1, flag1, data2, flag2} of 4-byte words; each (data, flag)
 * pair is one 8-byte store and the flag is the message's sequence number + 1, so a pair is valid
 * when its flag matches: no tail counter, no fence. Half the bytes are flags.</li>
 * <li>{@link #LL128}: 128-byte lines of 15 data words and one flag word (sequence + 1) in the last
 * 8 bytes, written after the data (a release store on the host; a warp's 128-byte store on a GPU,
 * where the hardware delivers it whole). 120/128 of the bytes are data.</li>
 * </ul>
 * The sender of LL and LL128 still waits for the receiver's head before reusing a slot. On the
 * host engine every LL/LL128 message starts with an 8-byte header holding its size in bytes, so a
 * receiver refuses a message of a size it did not expect instead of reading past it.
 */
public enum Protocol {
    /** NCCL's LL buffer: 8 lines per thread × 512 threads × STEPS slots × 16 bytes = 512 KiB. */
    LL("LL", 16, 8, 8L * 512 * Protocol.STEPS * 16),
    /** NCCL's LL128 buffer: 120 words per thread × 640 threads × STEPS slots × 8 bytes = 4 800 KiB. */
    LL128("LL128", 128, 120, 120L * 640 * Protocol.STEPS * 8),
    /** Raw slots; NCCL_BUFFSIZE's default of 4 MiB. */
    SIMPLE("Simple", 1, 1, 4L << 20);

    /** Slots per connection (NCCL_STEPS). */
    public static final int STEPS = 8;

    /** Steps per chunk for all-reduce, all-gather and reduce-scatter on rings (NCCL's CHUNKSTEPS). */
    public static final int CHUNKSTEPS = STEPS / 2;

    /** Steps per slice (NCCL's SLICESTEPS). */
    public static final int SLICESTEPS = STEPS / 4;

    /** Bytes of the size header that opens every LL and LL128 message on the host engine. */
    public static final int HEADER_BYTES = 8;

    /**
     * LL flags are 32 bits: a line written 2^32 messages ago would look current again. Every this
     * many messages the sender rewrites the flags of the slot it is about to fill with a value no
     * message of the next interval carries (see {@link #llCleanFlag(long)}).
     */
    public static final long LL_CLEAN_INTERVAL = 1L << 31;

    private final String id;
    private final int lineBytes;
    private final int dataBytesPerLine;
    private final long defaultBuffSize;

    Protocol(String id, int lineBytes, int dataBytesPerLine, long defaultBuffSize) {
        this.id = id;
        this.lineBytes = lineBytes;
        this.dataBytesPerLine = dataBytesPerLine;
        this.defaultBuffSize = defaultBuffSize;
    }

    /** The name {@code JCCL_PROTO} and the tools use: {@code LL}, {@code LL128}, {@code Simple}. */
    public String id() {
        return id;
    }

    /** Bytes of one line (1 for Simple, which has none). */
    public int lineBytes() {
        return lineBytes;
    }

    /** Data bytes one line carries. */
    public int dataBytesPerLine() {
        return dataBytesPerLine;
    }

    /** Data bytes per wire byte: 1, 1/2 for LL, 120/128 for LL128. */
    public double efficiency() {
        return (double) dataBytesPerLine / lineBytes;
    }

    /** NCCL's default buffer per connection for this protocol. */
    public long defaultBuffSize() {
        return defaultBuffSize;
    }

    /** Smallest buffer accepted: one 4 KiB page per slot. */
    public long minBuffSize() {
        return STEPS * 4096L;
    }

    /** Whether {@code buffSize} is a valid buffer for this protocol: large enough, whole lines in every slot. */
    public boolean validBuffSize(long buffSize) {
        return buffSize >= minBuffSize() && buffSize % ((long) STEPS * Math.max(8, lineBytes)) == 0;
    }

    /** Bytes of one slot for a connection buffer of {@code buffSize} bytes. */
    public long slotBytes(long buffSize) {
        return buffSize / STEPS;
    }

    /** Lines in one slot (slot bytes for Simple). */
    public long linesPerSlot(long buffSize) {
        return slotBytes(buffSize) / lineBytes;
    }

    /** The largest message, in data bytes, one slot carries (LL and LL128 lose the header to it). */
    public long maxMessageBytes(long buffSize) {
        long data = linesPerSlot(buffSize) * dataBytesPerLine;
        return this == SIMPLE ? data : data - HEADER_BYTES;
    }

    /** Lines a message of {@code bytes} data bytes occupies, header included. */
    public long linesFor(long bytes) {
        long total = this == SIMPLE ? bytes : bytes + HEADER_BYTES;
        return (total + dataBytesPerLine - 1) / dataBytesPerLine;
    }

    /** The flag of message {@code seq}: its sequence number + 1 (LL keeps the low 32 bits). */
    public long flag(long seq) {
        return this == LL ? (seq + 1) & 0xFFFF_FFFFL : seq + 1;
    }

    /**
     * The value an LL sender writes into every flag of a slot when message {@code seq} opens a new
     * {@link #LL_CLEAN_INTERVAL}: it differs from the flag of every message this slot carries in the
     * interval (those differ from {@code seq + 1} by multiples of STEPS below 2^31, never by 2^31).
     */
    public static int llCleanFlag(long seq) {
        return (int) (seq + 1) ^ 0x8000_0000;
    }

    /** Whether LL message {@code seq} is the first of its slot in a new clean interval. */
    public static boolean llNeedsClean(long seq) {
        return seq >= LL_CLEAN_INTERVAL && seq % LL_CLEAN_INTERVAL < STEPS;
    }

    /** Bytes of each connection's buffer in this protocol as {@code config} gives them. */
    public long buffSize(io.jccl.Config config) {
        return config.buffSize(id());
    }

    /** The protocols {@code config} allows (JCCL_PROTO) for the collectives it does not name. */
    public static java.util.Set<Protocol> allowed(io.jccl.Config config) {
        return io.jccl.config.Values.of(config).get(io.jccl.config.Settings.PROTO).fallback();
    }

    /** The protocols {@code config} allows (JCCL_PROTO) for calls of {@code c}. */
    public static java.util.Set<Protocol> allowed(io.jccl.Config config, io.jccl.Collective c) {
        return io.jccl.config.Values.of(config).get(io.jccl.config.Settings.PROTO).of(c);
    }

    /** Parses {@code LL}, {@code LL128}, {@code Simple} in any case. */
    public static Protocol parse(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (Protocol p : values()) {
            if (p.id.toLowerCase(Locale.ROOT).equals(n)) {
                return p;
            }
        }
        throw new IllegalArgumentException("'" + name.trim() + "' is not a protocol (LL, LL128, Simple)");
    }
}
