// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine;

import io.jccl.Collective;
import io.jccl.DataType;
import io.jccl.RedOp;
import io.jccl.transport.FifoLayout;

/**
 * The stamp of a rank's collective call, which its messages carry ({@link FifoLayout#STAMP_SHIFT}):
 * a {@value FifoLayout#STAMP_BITS}-bit hash of the call's sequence number on the communicator, its
 * collective, count, type, operation (its kind: a pre-multiplied sum's scalar may differ per rank,
 * as NCCL allows) and, for a rooted collective, its root. Never 0, which means "not stamped". Ranks
 * that make the same calls in the same order stamp alike; a receiver whose own stamp differs knows
 * the sender is making another call, and {@link #guess} names which where it is a near one.
 */
public final class CallStamp {
    private CallStamp() {
    }

    /** The stamp of call {@code seq} (0 for the first collective of a communicator). */
    public static int of(long seq, Collective c, long count, DataType type, RedOp op, int root) {
        long h = seq * 0x9E37_79B9_7F4A_7C15L;
        h = (h ^ c.ordinal()) * 0xBF58_476D_1CE4_E5B9L;
        h = (h ^ count) * 0x94D0_49BB_1331_11EBL;
        h = (h ^ type.ordinal()) * 0x9E37_79B9_7F4A_7C15L;
        h = (h ^ (op == null || !c.reduces() ? -1 : op.kind().ordinal())) * 0xBF58_476D_1CE4_E5B9L;
        h = (h ^ (c.rooted() ? root : -1)) * 0x94D0_49BB_1331_11EBL;
        h ^= h >>> 31;
        int s = (int) (h & FifoLayout.STAMP_MASK);
        return s == 0 ? 1 : s;
    }

    /** The stamp of {@code a}, call {@code seq}. */
    public static int of(long seq, CollectiveArgs a) {
        return of(seq, a.collective(), a.count(), a.type(), a.op(), a.root());
    }

    /** A call as errors name it: {@code allreduce #7 (1024 float32, sum)}. */
    public static String describe(long seq, Collective c, long count, DataType type, RedOp op, int root) {
        return describe(seq, c, count, type, op == null ? null : op.kind(), root);
    }

    /** The same with the operation's kind (null for none). */
    public static String describe(long seq, Collective c, long count, DataType type, RedOp.Kind op, int root) {
        return c.cliName() + " #" + seq + " (" + count + " " + type.name().toLowerCase(java.util.Locale.ROOT)
                + (c.reduces() && op != null ? ", " + op.name().toLowerCase(java.util.Locale.ROOT) : "")
                + (c.rooted() ? ", root " + root : "") + ")";
    }

    /** Why ranks making different calls fail, after the sentence that names the calls. */
    public static final String SAME_CALLS = "every rank must make the same collectives in the same order, with the same count,"
            + " type, operation and root (JCCL_CHECK_CALLS)";

    /**
     * The call that stamped {@code stamp}, guessed among those one step from {@code mine} (call
     * {@code seq} of {@code nranks} ranks): the call before or after it, or the same call with
     * another collective, type, operation or root. Null when none of them has that stamp (another
     * count, or calls further apart). Few candidates (tens, plus one per root), so that a false
     * match among {@value FifoLayout#STAMP_BITS}-bit stamps stays unlikely.
     */
    public static String guess(int stamp, long seq, CollectiveArgs mine, int nranks) {
        Collective c = mine.collective();
        long n = mine.count();
        DataType t = mine.type();
        RedOp op = mine.op();
        int root = mine.root();
        for (long s : new long[] {seq - 1, seq + 1}) {
            if (s >= 0 && of(s, c, n, t, op, root) == stamp) {
                return describe(s, c, n, t, op, root);
            }
        }
        for (Collective other : Collective.values()) {
            if (other != Collective.SEND_RECV && of(seq, other, n, t, op, root) == stamp) {
                return describe(seq, other, n, t, op, root);
            }
        }
        for (DataType other : DataType.values()) {
            if (of(seq, c, n, other, op, root) == stamp) {
                return describe(seq, c, n, other, op, root);
            }
        }
        for (RedOp other : new RedOp[] {RedOp.SUM, RedOp.PROD, RedOp.MAX, RedOp.MIN, RedOp.AVG, RedOp.preMulSum(1)}) {
            if (of(seq, c, n, t, other, root) == stamp) {
                return describe(seq, c, n, t, other, root);
            }
        }
        for (int r = 0; r < nranks; r++) {
            if (of(seq, c, n, t, op, r) == stamp) {
                return describe(seq, c, n, t, op, r);
            }
        }
        return null;
    }
}
