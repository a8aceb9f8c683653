// SPDX-License-Identifier: Apache-2.0
package io.jccl.plan;

import java.util.Arrays;

/**
 * The ranks of a job a plan is made for: all of them (what the verifier and the cost model read),
 * or those one process runs (its thread ranks, or the single rank of a process). A plan holds
 * steps for these ranks only, so planning costs what their own steps cost, not the job's. Each
 * planned rank has a slot, 0 up to {@link #size()}, in ascending rank order.
 *
 * <pre>{@code
 * RankSet mine = RankSet.of(16384, 4096);     // one rank of a 16k-rank job
 * int slot = mine.slot(4096);                 // 0; slot(5) is -1
 * }</pre>
 */
public final class RankSet {
    private final int nranks;
    /** The planned ranks, ascending; null when every rank is planned (slot = rank). */
    private final int[] ranks;

    private RankSet(int nranks, int[] ranks) {
        this.nranks = nranks;
        this.ranks = ranks;
    }

    /** Every rank of a job of {@code nranks}. */
    public static RankSet all(int nranks) {
        if (nranks < 1) {
            throw new IllegalArgumentException("a job of " + nranks + " ranks");
        }
        return new RankSet(nranks, null);
    }

    /** The ranks {@code ranks} (any order, no repeats, at least one) of a job of {@code nranks}. */
    public static RankSet of(int nranks, int... ranks) {
        if (nranks < 1 || ranks.length == 0) {
            throw new IllegalArgumentException(ranks.length + " ranks of a job of " + nranks);
        }
        int[] sorted = ranks.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < sorted.length; i++) {
            if (sorted[i] < 0 || sorted[i] >= nranks || i > 0 && sorted[i] == sorted[i - 1]) {
                throw new IllegalArgumentException("ranks " + Arrays.toString(ranks) + " of a job of " + nranks);
            }
        }
        return sorted.length == nranks ? all(nranks) : new RankSet(nranks, sorted);
    }

    /** The ranks of a job. */
    public int nranks() {
        return nranks;
    }

    /** How many ranks are planned. */
    public int size() {
        return ranks == null ? nranks : ranks.length;
    }

    /** Whether every rank of the job is planned. */
    public boolean isAll() {
        return ranks == null;
    }

    /** The planned rank of slot {@code slot}. */
    public int rank(int slot) {
        return ranks == null ? slot : ranks[slot];
    }

    /** The slot of {@code rank}, or -1 when it is not planned: O(1) for all ranks, O(log size) otherwise. */
    public int slot(int rank) {
        if (ranks == null) {
            return rank >= 0 && rank < nranks ? rank : -1;
        }
        int i = Arrays.binarySearch(ranks, rank);
        return i >= 0 ? i : -1;
    }

    public boolean contains(int rank) {
        return slot(rank) >= 0;
    }

    /** Whether every rank of {@code other}, a set of the same job, is in this one. */
    public boolean containsAll(RankSet other) {
        if (other.nranks != nranks) {
            return false;
        }
        if (ranks == null) {
            return true;
        }
        if (other.ranks == null) {
            return false;
        }
        for (int r : other.ranks) {
            if (!contains(r)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The slot of {@code rank} in a plan or schedule ({@code what}) of these ranks; a rank that was
     * not planned is refused, since its steps were never made.
     */
    int slotOf(int rank, String what) {
        int s = slot(rank);
        if (s < 0) {
            throw new IllegalArgumentException("rank " + rank + " was not planned: this " + what + " holds the steps of "
                    + this + " only");
        }
        return s;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RankSet s && s.nranks == nranks && Arrays.equals(s.ranks, ranks);
    }

    @Override
    public int hashCode() {
        return 31 * nranks + Arrays.hashCode(ranks);
    }

    /** {@code all 8 ranks}, or {@code ranks [3] of 8}. */
    @Override
    public String toString() {
        return ranks == null ? "all " + nranks + " ranks" : "ranks " + Arrays.toString(ranks) + " of " + nranks;
    }
}
