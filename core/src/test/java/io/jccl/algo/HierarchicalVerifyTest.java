// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Plan;
import io.jccl.topo.Channels;
import io.jccl.topo.ServerLayout;
import io.jccl.verify.Verifier;
import io.jccl.verify.VerifyResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The algorithms laid on servers, proved by the symbolic verifier on S x R layouts (1..8 each),
 * numbered server by server and interleaved, for counts that divide by nothing, the empty and the
 * single element, tiles of 1, 3 and 64 elements, 1 to 3 channels, in place and out of place:
 * every combination with -Pfull, a seeded sample otherwise (two algorithms per layout), and every
 * algorithm on the 2x2, 2x4, 4x2 and 3x3 layouts.
 */
class HierarchicalVerifyTest {
    private static final long SEED = 9_2026_11_22L;

    /** Each layered algorithm with the collectives it plans. */
    private static List<Object[]> layered() {
        List<Object[]> l = new ArrayList<>();
        for (Collective c : Collective.values()) {
            if (c == Collective.SEND_RECV) {
                continue;
            }
            for (Algorithm a : Algorithms.supported(c)) {
                if (a.needsServers()) {
                    l.add(new Object[] {c, a});
                }
            }
        }
        return l;
    }

    private static void check(Collective c, Algorithm a, ServerLayout layout, int channels, long count, long maxMessage) {
        int n = layout.nranks();
        Call call = new Call(c, n, count, 0);
        Plan plan = Algorithms.plan(call, a, Channels.flat(layout, channels), maxMessage);
        for (boolean inPlace : c == Collective.ALL_TO_ALL ? new boolean[] {false} : new boolean[] {false, true}) {
            VerifyResult r = Verifier.collective(plan, call, inPlace, 2);
            assertThat(r.ok()).as("%s %s layout %s channels=%d count=%d maxMessage=%d inPlace=%s:%n%s",
                    c, a.id(), layout, channels, count, maxMessage, inPlace, r.describe()).isTrue();
        }
    }

    /** Rank r on server r mod S: no server's ranks are consecutive. */
    private static ServerLayout interleaved(int servers, int perServer) {
        List<Integer> host = new ArrayList<>();
        for (int r = 0; r < servers * perServer; r++) {
            host.add(r % servers);
        }
        return ServerLayout.ofHosts(host);
    }

    @Test
    void layeredAlgorithmsAreCorrectOnEveryLayout() {
        Random rnd = new Random(SEED);
        int cases = 0;
        List<Object[]> algos = layered();
        assertThat(algos).hasSize(7);
        for (int servers = 1; servers <= 8; servers++) {
            for (int per = 1; per <= 8; per++) {
                int n = servers * per;
                List<Object[]> these = new ArrayList<>(algos);
                if (!Matrix.FULL) {
                    // Two of them per layout by default; theTwoLevelLayoutsOfTheMatrixEveryWay takes all.
                    java.util.Collections.shuffle(these, rnd);
                    these = these.subList(0, 2);
                }
                for (Object[] ca : these) {
                    Collective c = (Collective) ca[0];
                    Algorithm a = (Algorithm) ca[1];
                    long[] counts = Matrix.FULL ? new long[] {0, 1, 7, n + 1L, 3L * n + 5}
                            : new long[] {new long[] {0, 1, 7, n + 1L, 3L * n + 5}[rnd.nextInt(5)]};
                    for (long count : counts) {
                        int[] channelChoices = Matrix.FULL ? new int[] {1, 2, 3} : new int[] {1 + rnd.nextInt(3)};
                        long[] messages = Matrix.FULL ? new long[] {1, 3, 64} : new long[] {new long[] {1, 3, 64}[rnd.nextInt(3)]};
                        if (n > 16 && count > 7 && !Matrix.FULL) {
                            messages = new long[] {64}; // tiny tiles on many ranks: -Pfull's
                        }
                        for (int ch : channelChoices) {
                            for (long m : messages) {
                                ServerLayout layout = rnd.nextInt(4) == 0 ? interleaved(servers, per) : ServerLayout.uniform(servers, per);
                                check(c, a, layout, ch, count, m);
                                cases++;
                            }
                        }
                    }
                }
            }
        }
        assertThat(cases).isGreaterThanOrEqualTo(64 * 2);
    }

    @Test
    void theTwoLevelLayoutsOfTheMatrixEveryWay() {
        for (int[] sr : new int[][] {{2, 2}, {2, 4}, {4, 2}, {3, 3}}) {
            ServerLayout layout = ServerLayout.uniform(sr[0], sr[1]);
            for (Object[] ca : layered()) {
                for (long count : new long[] {0, 1, 13, 203}) {
                    for (long m : new long[] {1, 5, 64}) {
                        check((Collective) ca[0], (Algorithm) ca[1], layout, 2, count, m);
                    }
                }
            }
        }
    }

    @Test
    void recursiveAndPatAlgorithmsOnAwkwardRankCounts() {
        // Non-powers of two take the fold-up of the first ranks (rhd, butterfly) or a short last step (pat).
        for (int n = 1; n <= 12; n++) {
            for (long count : new long[] {0, 1, 7, 2L * n + 3, 61}) {
                for (long m : new long[] {1, 4, 64}) {
                    for (int ch : new int[] {1, 2}) {
                        ServerLayout one = ServerLayout.uniform(n, 1);
                        check(Collective.ALL_REDUCE, Algorithm.RHD, one, ch, count, m);
                        check(Collective.ALL_REDUCE, Algorithm.BUTTERFLY, one, ch, count, m);
                        check(Collective.ALL_GATHER, Algorithm.PAT, one, ch, count, m);
                        check(Collective.REDUCE_SCATTER, Algorithm.PAT, one, ch, count, m);
                    }
                }
            }
        }
    }

    @Test
    void nonUniformLayoutsAreRefusedNamingTheLayout() {
        ServerLayout uneven = ServerLayout.ofHosts(List.of("a", "a", "a", "b", "b"));
        assertThat(uneven.uniform()).isFalse();
        for (Object[] ca : layered()) {
            Call call = Call.of((Collective) ca[0], 5, 10);
            assertThatThrownBy(() -> Algorithms.plan(call, (Algorithm) ca[1], Channels.flat(uneven, 1), 4))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(((Algorithm) ca[1]).id())
                    .hasMessageContaining("servers of 3+2 ranks");
        }
        // The algorithms that need no servers plan there all the same.
        for (Algorithm a : List.of(Algorithm.RHD, Algorithm.BUTTERFLY)) {
            check(Collective.ALL_REDUCE, a, uneven, 1, 10, 4);
        }
    }

    @Test
    void wrongCollectivesAreRefused() {
        for (Algorithm a : List.of(Algorithm.HIER_RING, Algorithm.TORUS_2D, Algorithm.RHD, Algorithm.BUTTERFLY)) {
            assertThatThrownBy(() -> Algorithms.generator(Collective.ALL_GATHER, a)).hasMessageContaining(a.id());
        }
        assertThatThrownBy(() -> Algorithms.generator(Collective.BROADCAST, Algorithm.PIPELINE)).hasMessageContaining("pipeline");
        assertThatThrownBy(() -> Algorithms.generator(Collective.ALL_TO_ALL, Algorithm.PAT)).hasMessageContaining("pat");
        assertThatThrownBy(() -> Algorithms.generator(Collective.ALL_REDUCE, Algorithm.HIER_2PHASE)).hasMessageContaining("hier2phase");
    }

    @Test
    void pipelineLandsBlocksInPlaceWithoutLocalCopies() {
        // In place, a rank's own block is already where it belongs: the pipeline copies nothing
        // locally (its first step sends straight from the block), and every received block is
        // written once, into its final place.
        ServerLayout layout = ServerLayout.uniform(2, 4);
        Plan p = Algorithms.plan(Call.of(Collective.ALL_GATHER, 8, 16), Algorithm.PIPELINE, Channels.flat(layout, 1), 16);
        var schedule = p.segments(0).getFirst().schedule();
        for (int r = 0; r < 8; r++) {
            long writes = schedule.steps(r, 0).stream().filter(s -> s.dst() != null).count();
            assertThat(writes).as("rank %d writes its 8 blocks once each", r).isEqualTo(8);
            assertThat(schedule.steps(r, 0).stream().filter(s -> s.kind() == io.jccl.plan.StepKind.LOCAL_COPY)).isEmpty();
            assertThat(schedule.scratch()).isZero();
        }
        // Inter-server connections carry only S-1 blocks per rank, each block once.
        long inter = schedule.volume().entrySet().stream()
                .filter(e -> layout.serverOf(e.getKey().from()) != layout.serverOf(e.getKey().to()))
                .mapToLong(java.util.Map.Entry::getValue).sum();
        assertThat(inter).isEqualTo(8L * (2 - 1) * 16);
    }
}
