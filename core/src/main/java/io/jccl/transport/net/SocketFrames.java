// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

/**
 * How the socket net cuts a message over the {@code K} sockets of a connection, and the frame
 * each chunk travels in. A chunk is at least {@link #MIN_CHUNK} (NCCL's MIN_CHUNKSIZE): a message
 * of {@code n} bytes has {@code ceil(n / max(64 KiB, ceil(n / K)))} chunks, at least one; chunk
 * {@code i} goes on socket {@code i}, so socket 0 carries a chunk of every message. A frame is a
 * {@link #FRAME}-byte header (message number, message size, chunk length) and the chunk's bytes.
 */
public final class SocketFrames {
    private SocketFrames() {
    }

    /**
     * Frame header: message number (8: the number in the low {@value #STAMP_SHIFT} bits, the
     * message's stamp above them), message size (4, unsigned), chunk length (4, unsigned).
     */
    public static final int FRAME = 16;
    public static final int STAMP_SHIFT = 42;
    public static final long NUMBER_MASK = (1L << STAMP_SHIFT) - 1;
    /** The message number of the frame a closing sender writes on each socket: nothing follows. */
    public static final long END = -2;
    /** NCCL's MIN_CHUNKSIZE: a message is cut into chunks no smaller than this (but the last). */
    public static final long MIN_CHUNK = 64 << 10;
    /** The largest message a frame header can announce. */
    public static final long MAX_MESSAGE = 0xFFFF_FFFFL;

    /** Chunks of a message of {@code n} bytes over {@code k} sockets (at least one, for empty messages). */
    public static int chunks(long n, int k) {
        long c = chunkBytes(n, k);
        return (int) Math.max(1, (n + c - 1) / c);
    }

    /** Bytes of every chunk but the last. */
    public static long chunkBytes(long n, int k) {
        return Math.max(MIN_CHUNK, (n + k - 1) / k);
    }

    /** Length of chunk {@code i} of a message of {@code n} bytes over {@code k} sockets. */
    public static long chunkLength(long n, int k, int i) {
        long c = chunkBytes(n, k);
        return Math.max(0, Math.min(c, n - i * c));
    }
}
