package io.jccl.plan;

import io.jccl.Collective;

/**
 * What a collective call asks for, as every rank agrees on it: the operation, the number of ranks,
 * NCCL's element count (per rank block for all-gather, reduce-scatter, all-to-all, gather and
 * scatter) and the root (ignored by unrooted operations).
 */
public record Call(Collective collective, int nranks, long count, int root) {
    public Call {
        if (collective == Collective.SEND_RECV) {
            throw new IllegalArgumentException("point-to-point groups are planned from their operations");
        }
        if (nranks < 1 || count < 0 || (collective.rooted() && (root < 0 || root >= nranks))) {
            throw new IllegalArgumentException(collective + " nranks " + nranks + " count " + count + " root " + root);
        }
    }

    public static Call of(Collective collective, int nranks, long count) {
        return new Call(collective, nranks, count, 0);
    }
}
