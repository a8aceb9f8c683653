// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

import io.jccl.plan.Buf;
import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Link;
import io.jccl.plan.Plan;
import io.jccl.plan.Region;
import io.jccl.plan.Schedule;
import io.jccl.plan.Step;
import io.jccl.topo.Channels;

import java.util.List;

/**
 * All-reduce by recursive exchanges between partners r xor d. For n ranks not a power of two, the
 * usual fix-up: with p the largest power of two below n and e = n - p, each even rank below 2e
 * first gives its whole buffer to the odd rank above it and takes the result back at the end, so
 * that p ranks run the exchanges. A rank's partial result lives in scratch between steps. Messages
 * larger than a FIFO slot travel in pieces, sends and receives interleaved so that no connection
 * ever holds more than one of them.
 *
 * <p>Not planned per rank: every rank is laid out and the planned ranks' steps kept
 * ({@link Tiles}), so a plan is correct for any ranks but costs the whole job's steps.
 */
final class RecursiveGenerators {
    private RecursiveGenerators() {
    }

    /** The ranks that run the exchanges, and who folds into whom. */
    private record Fold(int n, int p, int extra) {
        static Fold of(int n) {
            int p = Integer.highestOneBit(n);
            return new Fold(n, p, n - p);
        }

        /** Whether {@code rank} only gives its data to its odd neighbour and takes the result back. */
        boolean folded(int rank) {
            return rank < 2 * extra && rank % 2 == 0;
        }

        /** The exchanging index of an active rank. */
        int virtual(int rank) {
            return rank < 2 * extra ? rank / 2 : rank - extra;
        }

        int rank(int virtual) {
            return virtual < extra ? 2 * virtual + 1 : virtual + extra;
        }

        /** The folded rank that gives its data to active {@code rank}, or -1. */
        int foldedInto(int rank) {
            return rank < 2 * extra ? rank - 1 : -1;
        }

        int steps() {
            return Integer.numberOfTrailingZeros(p);
        }
    }

    /** Consecutive pieces of at most {@code max} elements of [off, off+len). */
    private static int pieces(long len, long max) {
        return (int) Math.max(1, Math.ceilDiv(len, max));
    }

    /**
     * Piece z of [off, off+len) of {@code buf}. Scratch is per lane: the lane's share [ps, ...) of
     * every tile maps to [base, ...), base = lane x the largest share, so that the short last
     * tile's shares, placed differently, never reach another lane's scratch.
     */
    private static Region piece(Buf buf, long off, long len, long max, int z) {
        if (buf == Buf.SCRATCH) {
            throw new IllegalArgumentException("a scratch piece needs its lane's base");
        }
        return piece(buf, off, len, max, z, 0, 0);
    }

    private static Region piece(Buf buf, long off, long len, long max, int z, long ps, long base) {
        long start = Math.min(len, z * max);
        long size = Math.min(max, len - start);
        long at = buf == Buf.SCRATCH ? base + (off - ps) + start : off + start;
        return new Region(buf, 0, at, size);
    }

    /**
     * Rabenseifner: reduce-scatter by recursive halving (step k exchanges half of the current range
     * with the partner at distance p/2^(k+1), keeping the half on the rank's side), the last step
     * writing the rank's 1/p of the result; then all-gather by recursive doubling, the ranges
     * coming back through the same partners in the reverse order.
     */
    static Plan rhd(Call call, Channels ch, long maxMessage) {
        int n = call.nranks();
        Fold f = Fold.of(n);
        int steps = f.steps();
        int lanes = ch.count();
        long tile = Math.multiplyExact(maxMessage, 2L);
        return Tiles.perLane(Algorithm.RHD, Collective.ALL_REDUCE, call, lanes, tile, (b, c, ps, pl) -> {
            long base = c * tile;
            if (n == 1) {
                b.add(0, c, Step.localCopy(Region.input(ps, pl), Region.output(ps, pl), true));
                return;
            }
            for (int slot = 0; slot < b.ranks().size(); slot++) {
                int x = b.ranks().rank(slot);
                if (f.folded(x)) {
                    int into = x + 1;
                    foldedRank(b, x, into, c, ps, pl, maxMessage, fold -> halvingPieces(f, into, ps, pl, maxMessage, fold));
                    continue;
                }
                int v = f.virtual(x);
                int e = f.foldedInto(x);
                List<Link> fromFolded = Steps.linkIf(e >= 0, e, c);
                long lo = 0;
                long hi = f.p;
                for (int k = 0; k < steps; k++) {
                    int d = f.p >> (k + 1);
                    Link partner = new Link(f.rank(v ^ d), c);
                    long mid = lo + d;
                    boolean lower = (v & d) == 0;
                    long[] give = range(ps, pl, f.p, lower ? mid : lo, lower ? hi : mid);
                    long[] keep = range(ps, pl, f.p, lower ? lo : mid, lower ? mid : hi);
                    boolean last = k == steps - 1;
                    Buf from = k == 0 ? Buf.INPUT : Buf.SCRATCH;
                    int ng = pieces(give[1], maxMessage);
                    int nk = pieces(keep[1], maxMessage);
                    for (int z = 0; z < Math.max(ng, nk); z++) {
                        if (z < ng) {
                            Region src = piece(from, give[0], give[1], maxMessage, z, ps, base);
                            b.add(x, c, Steps.of(k == 0 ? fromFolded : List.of(), src, null, List.of(partner), false));
                        }
                        if (z < nk) {
                            Region src = piece(from, keep[0], keep[1], maxMessage, z, ps, base);
                            Region dst = piece(last ? Buf.OUTPUT : Buf.SCRATCH, keep[0], keep[1], maxMessage, z, ps, base);
                            b.add(x, c, Steps.of(Steps.join(List.of(partner), k == 0 ? fromFolded : List.of()), src, dst,
                                    List.of(), last));
                        }
                    }
                    if (lower) {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                for (int k = steps - 1; k >= 0; k--) {
                    int d = f.p >> (k + 1);
                    Link partner = new Link(f.rank(v ^ d), c);
                    long size = d;
                    long mineLo = (v / size) * size;
                    long theirsLo = ((v ^ d) / size) * size;
                    long[] mine = range(ps, pl, f.p, mineLo, mineLo + size);
                    long[] theirs = range(ps, pl, f.p, theirsLo, theirsLo + size);
                    exchange(b, x, c, partner, mine, theirs, maxMessage);
                }
                if (e >= 0) {
                    for (int z = 0; z < pieces(pl, maxMessage); z++) {
                        b.add(x, c, Step.send(piece(Buf.OUTPUT, ps, pl, maxMessage, z, ps, base), new Link(e, c)));
                    }
                }
            }
        });
    }

    /** Elements [start, length] of blocks [lo, hi) of a share [ps, ps+pl) cut into p blocks. */
    private static long[] range(long ps, long pl, int p, long lo, long hi) {
        long a = Split.start(pl, p, (int) lo);
        long z = hi >= p ? pl : Split.start(pl, p, (int) hi);
        return new long[] {ps + a, z - a};
    }

    /** Sends {@code mine} of the output to the partner and receives its {@code theirs} into the output, piece by piece. */
    private static void exchange(Schedule.Builder b, int x, int c, Link partner, long[] mine, long[] theirs, long max) {
        int nm = pieces(mine[1], max);
        int nt = pieces(theirs[1], max);
        for (int z = 0; z < Math.max(nm, nt); z++) {
            if (z < nm) {
                b.add(x, c, Step.send(piece(Buf.OUTPUT, mine[0], mine[1], max, z), partner));
            }
            if (z < nt) {
                b.add(x, c, Step.recv(partner, piece(Buf.OUTPUT, theirs[0], theirs[1], max, z)));
            }
        }
    }

    /** The input regions, in order, that active rank {@code into} takes from its folded neighbour in halving step 0. */
    private static void halvingPieces(Fold f, int into, long ps, long pl, long max, java.util.function.Consumer<Region> fold) {
        int v = f.virtual(into);
        int d = f.p >> 1;
        boolean lower = (v & d) == 0;
        long[] give = range(ps, pl, f.p, lower ? d : 0, lower ? f.p : d);
        long[] keep = range(ps, pl, f.p, lower ? 0 : d, lower ? d : f.p);
        int ng = pieces(give[1], max);
        int nk = pieces(keep[1], max);
        for (int z = 0; z < Math.max(ng, nk); z++) {
            if (z < ng) {
                fold.accept(piece(Buf.INPUT, give[0], give[1], max, z));
            }
            if (z < nk) {
                fold.accept(piece(Buf.INPUT, keep[0], keep[1], max, z));
            }
        }
    }

    /** A folded rank: gives its input in the pieces its neighbour consumes, then receives the result. */
    private static void foldedRank(Schedule.Builder b, int x, int into, int c, long ps, long pl, long max,
                                   java.util.function.Consumer<java.util.function.Consumer<Region>> pieces) {
        Link l = new Link(into, c);
        pieces.accept(r -> b.add(x, c, Step.send(r, l)));
        for (int z = 0; z < pieces(pl, max); z++) {
            b.add(x, c, Step.recv(l, piece(Buf.OUTPUT, ps, pl, max, z)));
        }
    }

    /**
     * Butterfly: in step k (0..log2 p - 1) each rank sends its whole partial result to the partner
     * at distance 2^k and adds the partner's, so after the last step every rank holds the total:
     * log2 p steps of the whole buffer. Both partners add the same two partial results, so all
     * ranks end with the same bits.
     */
    static Plan butterfly(Call call, Channels ch, long maxMessage) {
        int n = call.nranks();
        Fold f = Fold.of(n);
        int steps = f.steps();
        int lanes = ch.count();
        return Tiles.perLane(Algorithm.BUTTERFLY, Collective.ALL_REDUCE, call, lanes, maxMessage, (b, c, ps, pl) -> {
            long base = c * maxMessage;
            if (n == 1) {
                b.add(0, c, Step.localCopy(Region.input(ps, pl), Region.output(ps, pl), true));
                return;
            }
            int np = pieces(pl, maxMessage);
            for (int slot = 0; slot < b.ranks().size(); slot++) {
                int x = b.ranks().rank(slot);
                if (f.folded(x)) {
                    foldedRank(b, x, x + 1, c, ps, pl, maxMessage, fold -> {
                        for (int z = 0; z < np; z++) {
                            fold.accept(piece(Buf.INPUT, ps, pl, maxMessage, z, ps, base));
                        }
                    });
                    continue;
                }
                int v = f.virtual(x);
                int e = f.foldedInto(x);
                Buf from = Buf.INPUT;
                if (e >= 0) {
                    for (int z = 0; z < np; z++) {
                        b.add(x, c, Step.recvReduceCopy(List.of(new Link(e, c)), piece(Buf.INPUT, ps, pl, maxMessage, z, ps, base),
                                piece(Buf.SCRATCH, ps, pl, maxMessage, z, ps, base), false));
                    }
                    from = Buf.SCRATCH;
                }
                for (int k = 0; k < steps; k++) {
                    Link partner = new Link(f.rank(v ^ (1 << k)), c);
                    boolean last = k == steps - 1;
                    for (int z = 0; z < np; z++) {
                        Region src = piece(from, ps, pl, maxMessage, z, ps, base);
                        b.add(x, c, Step.send(src, partner));
                        b.add(x, c, Step.recvReduceCopy(List.of(partner), src,
                                piece(last ? Buf.OUTPUT : Buf.SCRATCH, ps, pl, maxMessage, z, ps, base), last));
                    }
                    from = Buf.SCRATCH;
                }
                if (e >= 0) {
                    for (int z = 0; z < np; z++) {
                        b.add(x, c, Step.send(piece(Buf.OUTPUT, ps, pl, maxMessage, z, ps, base), new Link(e, c)));
                    }
                }
            }
        });
    }
}
