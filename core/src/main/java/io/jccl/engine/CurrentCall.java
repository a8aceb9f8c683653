// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine;

import io.jccl.Collective;
import io.jccl.DataType;
import io.jccl.RedOp;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * The collective a rank started last, with its sequence number on the communicator: what a rank
 * that waits too long compares with the rank it waits for (a thread of its process directly, a
 * rank of another process through the keep-alive's heartbeats), so that ranks which disagree in a
 * way no message shows (roots that leave every rank waiting for another, a rank that only sends)
 * fail naming both calls instead of waiting out the timeout.
 *
 * <pre>
 *   encoded: seq (i64) | collective (u8) | count (i64) | type (u8) | op kind + 1, 0 for none (u8) | root (i32)
 * </pre>
 */
public record CurrentCall(long seq, Collective collective, long count, DataType type, RedOp.Kind op, int root) {
    static final int BYTES = 8 + 1 + 8 + 1 + 1 + 4;

    /** Call {@code seq} of shape {@code a}. */
    public static CurrentCall of(long seq, CollectiveArgs a) {
        RedOp.Kind op = a.collective().reduces() && a.op() != null ? a.op().kind() : null;
        return new CurrentCall(seq, a.collective(), a.count(), a.type(), op, a.collective().rooted() ? a.root() : -1);
    }

    public byte[] encode() {
        return ByteBuffer.allocate(BYTES).putLong(seq).put((byte) collective.ordinal()).putLong(count).put((byte) type.ordinal())
                .put((byte) (op == null ? 0 : op.ordinal() + 1)).putInt(root).array();
    }

    /** The call {@code bytes} holds, or null if they hold none (a rank of another version, a garbled beat). */
    public static CurrentCall decode(byte[] bytes) {
        if (bytes == null || bytes.length != BYTES) {
            return null;
        }
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            long seq = b.getLong();
            int c = b.get() & 0xff;
            long count = b.getLong();
            int t = b.get() & 0xff;
            int op = b.get() & 0xff;
            int root = b.getInt();
            if (c >= Collective.values().length || t >= DataType.values().length || op > RedOp.Kind.values().length) {
                return null;
            }
            return new CurrentCall(seq, Collective.values()[c], count, DataType.values()[t], op == 0 ? null : RedOp.Kind.values()[op - 1],
                    root);
        } catch (BufferUnderflowException e) {
            return null;
        }
    }

    /** Whether {@code other} is this call made differently: the same sequence number, another shape. */
    public boolean differsAt(CurrentCall other) {
        return other != null && other.seq == seq && !other.equals(this);
    }

    @Override
    public String toString() {
        return CallStamp.describe(seq, collective, count, type, op, root);
    }

    /** The error text of rank {@code me} making this call while rank {@code peer} makes {@code theirs}. */
    public String against(int me, int peer, CurrentCall theirs) {
        return "rank " + me + " is at " + this + " but rank " + peer + " is at " + theirs + ": " + CallStamp.SAME_CALLS;
    }
}
