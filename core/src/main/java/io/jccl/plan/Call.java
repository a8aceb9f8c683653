// SPDX-License-Identifier: Apache-2.0
package io.jccl.plan;

import io.jccl.Collective;

/**
 * What a collective call asks for, as every rank agrees on it: the operation, the number of ranks,
 * NCCL's element count (per rank block for all-gather, reduce-scatter, all-to-all, gather and
 * scatter) and the root (ignored by unrooted operations); and which ranks to plan it for
 * ({@code ranks}: all of them unless told, or those one process runs, see {@link #planning}).
 */
public record Call(Collective collective, int nranks, long count, int root, RankSet ranks) {
    public Call {
        if (collective == Collective.SEND_RECV) {
            throw new IllegalArgumentException("point-to-point groups are planned from their operations");
        }
        if (nranks < 1 || count < 0 || (collective.rooted() && (root < 0 || root >= nranks))) {
            throw new IllegalArgumentException(collective + " nranks " + nranks + " count " + count + " root " + root);
        }
        if (ranks.nranks() != nranks) {
            throw new IllegalArgumentException("planning " + ranks + " of a call of " + nranks + " ranks");
        }
    }

    /** The call planned for every rank. */
    public Call(Collective collective, int nranks, long count, int root) {
        this(collective, nranks, count, root, RankSet.all(nranks));
    }

    public static Call of(Collective collective, int nranks, long count) {
        return new Call(collective, nranks, count, 0);
    }

    /** The same call planned for {@code ranks} only. */
    public Call planning(RankSet ranks) {
        return new Call(collective, nranks, count, root, ranks);
    }
}
