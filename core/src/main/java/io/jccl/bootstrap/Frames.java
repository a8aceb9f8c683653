// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.SocketTimeoutException;

/**
 * Length-prefixed frames: a 4-byte big-endian length, then that many bytes. The reader checks the
 * length against the caller's bound before allocating, so a bad or oversized frame is a
 * {@link BadFrame}, never an overflow or an out-of-memory.
 */
final class Frames {
    private Frames() {
    }

    static void write(OutputStream out, byte[]... parts) throws IOException {
        long len = 0;
        for (byte[] p : parts) {
            len += p.length;
        }
        if (len > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("frame of " + len + " bytes");
        }
        int n = (int) len;
        out.write(new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
        for (byte[] p : parts) {
            out.write(p);
        }
        out.flush();
    }

    /**
     * Reads one frame of at most {@code max} bytes. A timeout before the first byte is a clean
     * {@link SocketTimeoutException} (the stream is intact and the caller may read again); one
     * inside a frame leaves the stream out of step and is a plain {@link IOException}.
     */
    static byte[] read(DataInputStream in, int max) throws IOException {
        int first = in.read();
        if (first < 0) {
            throw new EOFException("connection closed by the other side");
        }
        try {
            int len = (first << 24) | (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
            if (len < 0 || len > max) {
                throw new BadFrame("frame of " + Integer.toUnsignedString(len) + " bytes (at most " + max + ")");
            }
            byte[] b = new byte[len];
            in.readFully(b);
            return b;
        } catch (SocketTimeoutException e) {
            throw new IOException("timed out inside a frame; the connection is out of step", e);
        }
    }
}
