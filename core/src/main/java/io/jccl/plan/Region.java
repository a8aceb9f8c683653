// SPDX-License-Identifier: Apache-2.0
package io.jccl.plan;

/**
 * A run of {@code count} elements of one user buffer. {@code offset} is relative to the tile: an
 * executor adds the tile's shift (see {@link Segment}) to it (not to a {@link Buf#SCRATCH} region). {@code op} selects the buffers of one
 * operation of a group (0 for a single collective).
 */
public record Region(Buf buf, int op, long offset, long count) {
    public Region {
        if (op < 0 || offset < 0 || count < 0) {
            throw new IllegalArgumentException("bad region " + buf + " op " + op + " offset " + offset + " count " + count);
        }
    }

    public static Region input(long offset, long count) {
        return new Region(Buf.INPUT, 0, offset, count);
    }

    public static Region output(long offset, long count) {
        return new Region(Buf.OUTPUT, 0, offset, count);
    }

    /** A region of the rank's scratch memory (not shifted per tile). */
    public static Region scratch(long offset, long count) {
        return new Region(Buf.SCRATCH, 0, offset, count);
    }

    @Override
    public String toString() {
        return (buf == Buf.INPUT ? "in" : buf == Buf.OUTPUT ? "out" : "scratch") + (op == 0 ? "" : "#" + op) + "[" + offset + "+" + count + "]";
    }
}
