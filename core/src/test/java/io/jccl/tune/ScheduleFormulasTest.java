// SPDX-License-Identifier: Apache-2.0
package io.jccl.tune;

import io.jccl.Collective;
import io.jccl.algo.Algorithm;
import io.jccl.topo.ServerLayout;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The closed forms large jobs are priced by, against the schedules played where both are computable. */
class ScheduleFormulasTest {
    private static final double INF = Double.POSITIVE_INFINITY;
    private static final long BYTES = 1 << 20;

    private record Case(Collective c, Algorithm a, boolean twoLevels) {
    }

    private static final List<Case> CASES = List.of(
            new Case(Collective.ALL_REDUCE, Algorithm.HIER_RING, true), new Case(Collective.ALL_REDUCE, Algorithm.TORUS_2D, true),
            new Case(Collective.ALL_REDUCE, Algorithm.RHD, true), new Case(Collective.ALL_REDUCE, Algorithm.BUTTERFLY, true),
            new Case(Collective.ALL_GATHER, Algorithm.PIPELINE, true), new Case(Collective.ALL_GATHER, Algorithm.HIER_2PHASE, true),
            new Case(Collective.REDUCE_SCATTER, Algorithm.PIPELINE, true), new Case(Collective.REDUCE_SCATTER, Algorithm.HIER_2PHASE, true),
            new Case(Collective.ALL_TO_ALL, Algorithm.PIPELINE, true),
            new Case(Collective.ALL_GATHER, Algorithm.PAT, false), new Case(Collective.REDUCE_SCATTER, Algorithm.PAT, false));

    @Test
    void closedFormsAreThePlayedTermsOnPowersOfTwo() {
        int[][] layouts = {{2, 1}, {4, 1}, {8, 1}, {32, 1}, {1, 8}, {2, 2}, {2, 4}, {4, 2}, {4, 4}, {2, 8}, {8, 4}, {8, 8}};
        for (Case k : CASES) {
            for (int[] mn : layouts) {
                int m = mn[0];
                int n = mn[1];
                if (!k.twoLevels() && m > 1 && n > 1) {
                    continue; // PAT is weighed at one rank per server only
                }
                ScheduleCost played = new ScheduleCost(ServerLayout.uniform(m, n));
                ScheduleFormulas.Shape f = ScheduleFormulas.shape(k.c(), k.a(), m, n);
                String what = k.c() + " " + k.a() + " " + m + "x" + n;
                assertThat(f.latency(1, 0)).as("intra hops of %s", what)
                        .isEqualTo(played.time(k.c(), k.a(), 0, 1, 0, INF, INF));
                assertThat(f.latency(0, 1)).as("inter hops of %s", what)
                        .isEqualTo(played.time(k.c(), k.a(), 0, 0, 1, INF, INF));
                assertThat(f.perByte(1, INF)).as("intra bytes of %s", what)
                        .isCloseTo(played.time(k.c(), k.a(), BYTES, 0, 0, 1, INF) / BYTES, within(1e-9));
                assertThat(f.perByte(INF, 1)).as("inter bytes of %s", what)
                        .isCloseTo(played.time(k.c(), k.a(), BYTES, 0, 0, INF, 1) / BYTES, within(1e-9));
                // Both levels at once: where they overlap the formula adds a pipeline piece of the
                // faster level, which the played schedule may hide entirely (at most a quarter more).
                for (double[] bw : new double[][] {{1, 1}, {4, 1}, {1, 4}}) {
                    double p = played.time(k.c(), k.a(), BYTES, 0, 0, bw[0], bw[1]) / BYTES;
                    assertThat(f.perByte(bw[0], bw[1])).as("bytes of %s at %s/%s", what, bw[0], bw[1])
                            .isBetween(p * (1 - 1e-9), p * 1.25);
                }
                assertThat(ScheduleFormulas.extraReduced(k.c(), k.a(), m * n)).as("reductions of %s", what)
                        .isCloseTo(played.extraReduced(k.c(), k.a()), within(1e-9));
            }
        }
    }

    @Test
    void elsewhereTheyStayNearThePlayedTerms() {
        // Not powers of two: a fold, wrapped blocks. Within a factor of two of the played terms.
        int[][] layouts = {{3, 1}, {6, 1}, {3, 4}, {4, 3}, {2, 3}, {12, 1}};
        for (Case k : CASES) {
            for (int[] mn : layouts) {
                int m = mn[0];
                int n = mn[1];
                if (!k.twoLevels() && m > 1 && n > 1) {
                    continue;
                }
                ScheduleCost played = new ScheduleCost(ServerLayout.uniform(m, n));
                ScheduleFormulas.Shape f = ScheduleFormulas.shape(k.c(), k.a(), m, n);
                String what = k.c() + " " + k.a() + " " + m + "x" + n;
                double hops = played.time(k.c(), k.a(), 0, 1, 1, INF, INF);
                assertThat(f.latency(1, 1)).as("hops of %s", what).isBetween(hops / 2, hops * 2);
                double bytes = played.time(k.c(), k.a(), BYTES, 0, 0, 1, 1) / BYTES;
                assertThat(f.perByte(1, 1)).as("bytes of %s", what).isBetween(bytes / 2, bytes * 2);
            }
        }
    }

    @Test
    void aJobTooLargeToPlayIsPricedFromItsFormulasAndSampledRanks() {
        ServerLayout big = ServerLayout.uniform(128, 8);
        ScheduleCost cost = new ScheduleCost(big);
        long start = System.nanoTime();
        double hier = cost.time(Collective.ALL_REDUCE, Algorithm.HIER_RING, 0, 1, 10, INF, INF);
        // 2(m+1) hops, 2(m-1) of them across servers.
        assertThat(hier).isEqualTo(2 * 128 + 10 * 2 * 127);
        assertThat(cost.extraReduced(Collective.ALL_REDUCE, Algorithm.BUTTERFLY)).isCloseTo(10 - 1023.0 / 1024, within(1e-9));
        // Messages: the ring all-reduce sends 2(N-1) per rank, across servers from each server's ends.
        ScheduleCost.Sends ring = cost.sends(Collective.ALL_REDUCE, Algorithm.RING, 1 << 30, 0, 1);
        assertThat(ring.busiest()).isEqualTo(2 * 1023);
        assertThat(cost.sends(Collective.ALL_REDUCE, Algorithm.RING, 1 << 30, 1, 1).busiest()).isEqualTo(2 * 1023);
        assertThat(cost.sends(Collective.ALL_REDUCE, Algorithm.BUTTERFLY, 1 << 30, 1, 0).busiest()).isEqualTo(3);
        assertThat(cost.sends(Collective.ALL_REDUCE, Algorithm.BUTTERFLY, 1 << 30, 0, 1).busiest()).isEqualTo(7);
        assertThat((System.nanoTime() - start) / 1e9).as("seconds").isLessThan(20);
    }
}
