// SPDX-License-Identifier: Apache-2.0
package io.jccl.tune;

import io.jccl.Collective;
import io.jccl.algo.Algorithm;

/**
 * The terms {@link ScheduleCost} plays from a schedule, in closed form from the algorithm's
 * structure on {@code m} servers of {@code n} ranks (N = mn): the hops on the critical path per
 * level, the bytes per call byte the busiest link of each level carries, and whether the levels
 * overlap. A job too large to play every rank's steps is priced from these. Each level's terms
 * are the played ones where N, m and n are powers of two; with both levels at once, overlapping
 * levels come out up to a quarter above the played schedule, which hides more of the faster level
 * than the one piece counted here; elsewhere (a fold where N is not a power of two, PAT's wrapped
 * blocks) within a factor of two. ScheduleFormulasTest checks all three at 2 to 64 ranks.
 */
final class ScheduleFormulas {
    private ScheduleFormulas() {
    }

    /**
     * One algorithm's terms: hops and bytes per level; {@code overlap}: whether the levels work at
     * once (the slower sets the pace, the faster adds its share of one of the pipeline's pieces)
     * rather than one after the other.
     */
    record Shape(double hopsIntra, double hopsInter, double bytesIntra, double bytesInter, boolean overlap, int pieces) {
        /** µs per call byte with the levels at {@code bwIntra} and {@code bwInter} bytes per µs. */
        double perByte(double bwIntra, double bwInter) {
            double ti = bytesIntra == 0 ? 0 : bytesIntra / bwIntra;
            double te = bytesInter == 0 ? 0 : bytesInter / bwInter;
            return overlap ? Math.max(ti, te) + Math.min(ti, te) / pieces : ti + te;
        }

        double latency(double alphaIntra, double alphaInter) {
            return (hopsIntra == 0 ? 0 : hopsIntra * alphaIntra) + (hopsInter == 0 ? 0 : hopsInter * alphaInter);
        }
    }

    /** ceil(log2 x) for x at least 1. */
    static int log2Ceil(long x) {
        return x <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(x - 1);
    }

    private static boolean powerOfTwo(long x) {
        return Long.bitCount(x) == 1;
    }

    /** The terms of {@code a} for {@code c} on {@code m} servers of {@code n} ranks. */
    static Shape shape(Collective c, Algorithm a, int m, int n) {
        double big = m * (double) n;
        int pieces = Math.max(m, n);
        return switch (a) {
            // Reduce-scatter inside the server (one hop), a ring all-reduce across servers of each
            // rank's 1/n, an all-gather inside: 2(m+1) hops in all, 2(m-1) of them across.
            case HIER_RING -> new Shape(n > 1 ? 2.0 * m : 0, 2.0 * (m - 1), 2.0 * (n - 1) / n,
                    2.0 * (m - 1) / (m * (double) n), true, pieces);
            // The same bytes, the server's phases going round its ring: 2(n-1) hops each of the m steps.
            case TORUS_2D -> new Shape(2.0 * m * (n - 1), 2.0 * (m - 1), 2.0 * (n - 1) / n,
                    2.0 * (m - 1) / (m * (double) n), true, pieces);
            case RHD -> rhd(m, n);
            case BUTTERFLY -> butterfly(m, n);
            case PIPELINE, HIER_2PHASE -> switch (c) {
                // Every rank's block reaches its server's other ranks (n-1) times, crossing servers (m-1) times.
                case ALL_GATHER, REDUCE_SCATTER -> new Shape(n > 1 ? m : 0, m - 1, (n - 1) / (double) n,
                        (m - 1) / big, a == Algorithm.PIPELINE, pieces);
                // Every block travels by itself: N-1 blocks inside, (m-1)n across.
                case ALL_TO_ALL -> new Shape(n > 1 ? big - 1 : 0, (m - 1) * (double) n, n > 1 ? (big - 1) / big : 0,
                        (m - 1) / (double) m, false, pieces);
                default -> throw new IllegalArgumentException(a + " does not plan " + c);
            };
            case PAT -> pat(c, m, n);
            default -> throw new IllegalArgumentException(a + " has a formula of its own (CostModel)");
        };
    }

    /**
     * Recursive halving then doubling: log2 of each level's ranks steps each way, moving
     * 2(k-1)/k of the buffer across the level of k; where N is not a power of two the extra ranks
     * fold into partners first (the whole buffer in and out, two hops).
     */
    private static Shape rhd(int m, int n) {
        long big = (long) m * n;
        int li = log2Ceil(n);
        int le = log2Ceil(m);
        double bi = n > 1 ? 2.0 * (n - 1) / big : 0;
        double be = m > 1 ? 2.0 * (m - 1) / m : 0;
        if (!powerOfTwo(big)) {
            return m > 1 ? new Shape(2.0 * li, 2.0 * le + 2, bi, be + 2, false, 1) : new Shape(2.0 * li + 2, 0, bi + 2, 0, false, 1);
        }
        return new Shape(2.0 * li, 2.0 * le, bi, be, false, 1);
    }

    /** Recursive doubling of the whole buffer: log2 of each level's ranks steps, the buffer each. */
    private static Shape butterfly(int m, int n) {
        long big = (long) m * n;
        int li = log2Ceil(n);
        int le = log2Ceil(m);
        int fold = powerOfTwo(big) ? 0 : 1;
        return new Shape(li, le + (m > 1 ? fold : 0), li, le + (m > 1 ? fold : 0), false, 1);
    }

    /**
     * PAT over N ranks: log2 N steps of doubling distance and one more where a step's blocks wrap
     * round; all-gather moves 1.5 - 2/N of the buffer, reduce-scatter 2 - (log2 N + 2)/N (its
     * partial sums travel further). Laid over the levels as the distances fall: the first
     * log2 n steps inside the server.
     */
    private static Shape pat(Collective c, int m, int n) {
        long big = (long) m * n;
        int lg = log2Ceil(big);
        double steps = big <= 2 ? lg : lg + 1;
        double bytes = c == Collective.REDUCE_SCATTER ? 2 - (lg + 2.0) / big : 1.5 - 2.0 / big;
        if (big <= 2) {
            bytes = (big - 1) / (double) big;
        }
        if (m == 1) {
            return new Shape(steps, 0, bytes, 0, false, 1);
        }
        if (n == 1) {
            return new Shape(0, steps, 0, bytes, false, 1);
        }
        int li = log2Ceil(n);
        double inside = (n - 1) / (double) big;
        return new Shape(li, steps - li, inside, bytes - inside, false, 1);
    }

    /**
     * Elements one rank combines beyond the ring's, per element of the call
     * ({@link ScheduleCost#extraReduced}): the butterfly combines the whole buffer at each of its
     * ceil(log2 N) steps where the ring combines (N-1)/N of it once; recursive halving as much as
     * the ring, plus about the whole buffer for a fold where N is not a power of two.
     */
    static double extraReduced(Collective c, Algorithm a, int nranks) {
        if (!c.reduces() || nranks < 2) {
            return 0;
        }
        return switch (a) {
            case BUTTERFLY -> log2Ceil(nranks) - (nranks - 1) / (double) nranks;
            case RHD -> powerOfTwo(nranks) ? 0 : 1 - 1.0 / (2 * nranks);
            default -> 0;
        };
    }
}
