// SPDX-License-Identifier: Apache-2.0
package io.jccl.verify;

import java.util.Arrays;
import java.util.StringJoiner;

/**
 * The symbolic value of one element: which ranks' contributions it holds, of which source element,
 * and which operations were applied to it. Immutable.
 */
final class Sym {
    /** Index of a value that combined different source elements. */
    static final int MIXED = -2;

    /** Storage never written: reading it is a fault of its own. */
    static final Sym POISON = new Sym(-1, new long[0], false, false, 0, false, true);

    final int index;
    final long[] ranks;
    /** Every contribution went through the reduction's pre-operation exactly once. */
    final boolean pre;
    /** Some contribution counted twice, or went through the pre-operation twice. */
    final boolean dup;
    /** Times the post-operation was applied. */
    final int post;
    /** Reduced again after a post-operation. */
    final boolean postEarly;
    final boolean poison;

    private Sym(int index, long[] ranks, boolean pre, boolean dup, int post, boolean postEarly, boolean poison) {
        this.index = index;
        this.ranks = ranks;
        this.pre = pre;
        this.dup = dup;
        this.post = post;
        this.postEarly = postEarly;
        this.poison = poison;
    }

    /** Element {@code index} of rank {@code rank}'s input, untouched. */
    static Sym leaf(int rank, int index) {
        long[] bits = new long[(rank >> 6) + 1];
        bits[rank >> 6] = 1L << rank;
        return new Sym(index, bits, false, false, 0, false, false);
    }

    /** The pre-operation is applied when a reducing step reads a rank's input. */
    Sym withPre() {
        boolean fresh = !pre && post == 0 && !poison && cardinality() == 1;
        return new Sym(index, ranks, true, dup || !fresh, post, postEarly, poison);
    }

    Sym withPost() {
        return new Sym(index, ranks, pre, dup, post + 1, postEarly, poison);
    }

    static Sym reduce(Sym a, Sym b) {
        long[] bits = new long[Math.max(a.ranks.length, b.ranks.length)];
        boolean overlap = false;
        for (int i = 0; i < bits.length; i++) {
            long x = i < a.ranks.length ? a.ranks[i] : 0;
            long y = i < b.ranks.length ? b.ranks[i] : 0;
            overlap |= (x & y) != 0;
            bits[i] = x | y;
        }
        return new Sym(a.index == b.index ? a.index : MIXED, bits, a.pre && b.pre, a.dup || b.dup || overlap, 0,
                a.postEarly || b.postEarly || a.post > 0 || b.post > 0, a.poison || b.poison);
    }

    int cardinality() {
        int c = 0;
        for (long w : ranks) {
            c += Long.bitCount(w);
        }
        return c;
    }

    boolean hasRank(int r) {
        return (r >> 6) < ranks.length && (ranks[r >> 6] & (1L << r)) != 0;
    }

    /** Whether this is exactly rank {@code rank}'s element {@code index}, untouched. */
    boolean isLeaf(int rank, int index) {
        return !poison && this.index == index && cardinality() == 1 && hasRank(rank) && !pre && !dup && post == 0
                && !postEarly;
    }

    /** Whether this is the complete reduction over {@code nranks} ranks of element {@code index}. */
    boolean isFullReduction(int nranks, int index) {
        return !poison && this.index == index && cardinality() == nranks && pre && !dup && post == 1 && !postEarly;
    }

    /** What is wrong with this value as the reduction of element {@code index} over nranks ranks. */
    String reductionProblem(int nranks, int index) {
        if (poison) {
            return "holds data never written (" + this + ")";
        }
        StringJoiner p = new StringJoiner("; ");
        if (this.index != index) {
            p.add(this.index == MIXED ? "mixes different elements" : "holds element " + this.index + " instead");
        }
        StringJoiner missing = new StringJoiner(",");
        for (int r = 0; r < nranks; r++) {
            if (!hasRank(r)) {
                missing.add(Integer.toString(r));
            }
        }
        if (missing.length() > 0) {
            p.add("misses the contribution of rank(s) " + missing);
        }
        if (dup) {
            p.add("counts a contribution twice");
        }
        if (!pre) {
            p.add("has a contribution that skipped the pre-operation");
        }
        if (post != 1) {
            p.add("had the post-operation applied " + post + " times");
        }
        if (postEarly) {
            p.add("was reduced after a post-operation");
        }
        return p.toString();
    }

    @Override
    public String toString() {
        if (poison) {
            return "<never written>";
        }
        StringJoiner rs = new StringJoiner(",", "{", "}");
        for (int r = 0; r < ranks.length * 64; r++) {
            if (hasRank(r)) {
                rs.add(Integer.toString(r));
            }
        }
        return "ranks " + rs + " element " + (index == MIXED ? "mixed" : Integer.toString(index))
                + (pre ? " pre" : "") + (dup ? " DUP" : "") + (post > 0 ? " post x" + post : "")
                + (postEarly ? " POST-EARLY" : "");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Sym s && s.index == index && Arrays.equals(s.ranks, ranks) && s.pre == pre && s.dup == dup
                && s.post == post && s.postEarly == postEarly && s.poison == poison;
    }

    @Override
    public int hashCode() {
        return index * 31 + Arrays.hashCode(ranks);
    }
}
