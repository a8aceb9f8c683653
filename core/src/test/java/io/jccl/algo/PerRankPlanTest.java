// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

import io.jccl.Collective;
import io.jccl.plan.Call;
import io.jccl.plan.Plan;
import io.jccl.plan.RankSet;
import io.jccl.plan.Segment;
import io.jccl.topo.BinaryTrees;
import io.jccl.topo.Channels;
import io.jccl.topo.Layout;
import io.jccl.topo.Ring;
import io.jccl.topo.ServerLayout;
import io.jccl.topo.TopoPattern;
import io.jccl.topo.TopoSystem;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Plans of some ranks ({@link RankSet}) hold exactly the steps the plan of every rank gives them,
 * for every generator, on flat, permuted, multi-server and searched channels; other ranks are
 * refused; and one rank of 16,384 plans in what its own steps cost.
 */
class PerRankPlanTest {
    private static final long SEED = 20270114L;

    /** The generators that plan rank by rank, with the collectives they plan. */
    private static final List<Collective> RING_COLLECTIVES = List.of(Collective.ALL_REDUCE, Collective.ALL_GATHER,
            Collective.REDUCE_SCATTER, Collective.BROADCAST, Collective.REDUCE);

    /** Every rank's steps in a plan of that rank alone, and in plans of a few ranks together, equal the full plan's. */
    private static int checkEveryRank(Collective c, Algorithm a, Channels ch, long count, long maxMessage, int root) {
        int n = ch.nranks();
        Call call = new Call(c, n, count, root);
        Plan full = Algorithms.plan(call, a, ch, maxMessage);
        int checked = 0;
        for (int r = 0; r < n; r++) {
            Plan one = Algorithms.plan(call.planning(RankSet.of(n, r)), a, ch, maxMessage);
            assertThat(one.ranks()).isEqualTo(RankSet.of(n, r));
            assertSameSteps(full, one, r, "%s %s on %s, count %d, root %d, rank %d", c, a.id(), describe(ch), count, root, r);
            checked++;
        }
        int[] few = n > 2 ? new int[] {n - 1, 0, n / 2} : new int[] {0};
        Plan some = Algorithms.plan(call.planning(RankSet.of(n, few)), a, ch, maxMessage);
        for (int r : few) {
            assertSameSteps(full, some, r, "%s %s on %s, ranks of %s", c, a.id(), describe(ch), some.ranks());
        }
        return checked;
    }

    private static String describe(Channels ch) {
        return ch.count() + " channels of " + ch.nranks() + " ranks, ring 0 " + ch.ring(0) + ", layout " + ch.layout();
    }

    /** The same segments, shifts and steps, lane by lane: the plans are equal for {@code rank}. */
    private static void assertSameSteps(Plan full, Plan part, int rank, String what, Object... args) {
        String as = String.format(what, args);
        assertThat(part.algorithm()).as(as).isEqualTo(full.algorithm());
        assertThat(part.collective()).as(as).isEqualTo(full.collective());
        assertThat(part.lanes()).as(as).isEqualTo(full.lanes());
        assertThat(part.nranks()).as(as).isEqualTo(full.nranks());
        List<Segment> a = full.segments(rank);
        List<Segment> b = part.segments(rank);
        assertThat(b).as(as).hasSize(a.size());
        for (int s = 0; s < a.size(); s++) {
            assertThat(b.get(s).firstShift()).as(as).isEqualTo(a.get(s).firstShift());
            assertThat(b.get(s).stride()).as(as).isEqualTo(a.get(s).stride());
            assertThat(b.get(s).repeat()).as(as).isEqualTo(a.get(s).repeat());
            for (int l = 0; l < full.lanes(); l++) {
                assertThat(b.get(s).schedule().stepArray(rank, l)).as("%s segment %d lane %d", as, s, l)
                        .containsExactly(a.get(s).schedule().stepArray(rank, l));
            }
        }
    }

    /** Rings in a seeded random order per channel, NCCL's double binary tree. */
    private static Channels permuted(int n, int channels, Random rnd) {
        Ring[] rings = new Ring[channels];
        for (int c = 0; c < channels; c++) {
            List<Integer> order = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                order.add(r);
            }
            java.util.Collections.shuffle(order, rnd);
            rings[c] = new Ring(order.stream().mapToInt(Integer::intValue).toArray());
        }
        return new Channels(n, rings, BinaryTrees.first(n), BinaryTrees.second(n));
    }

    /** Flat, permuted and multi-server channels over {@code n} ranks. */
    private static List<Channels> channelsOf(int n, Random rnd) {
        List<Channels> l = new ArrayList<>();
        for (int ch = 1; ch <= 3; ch++) {
            l.add(Channels.flat(n, ch));
            l.add(permuted(n, ch, rnd));
        }
        if (n % 4 == 0) {
            l.add(Channels.flat(ServerLayout.uniform(n / 4, 4), 2));
        }
        if (n > 2) {
            l.add(Channels.flat(ServerLayout.blocks(n, 2), 3));
        }
        return l;
    }

    private static int checkPerRankGenerators(Channels ch, long count, long maxMessage) {
        int n = ch.nranks();
        int checked = 0;
        for (Collective c : RING_COLLECTIVES) {
            for (int root : c.rooted() ? new int[] {0, n / 2, n - 1} : new int[] {0}) {
                checked += checkEveryRank(c, Algorithm.RING, ch, count, maxMessage, root);
            }
        }
        checked += checkEveryRank(Collective.ALL_REDUCE, Algorithm.TREE, ch, count, maxMessage, 0);
        checked += checkEveryRank(Collective.ALL_REDUCE, Algorithm.SPLIT_TREE, ch, count, maxMessage, 0);
        return checked;
    }

    @Test
    void ringAndTreePlansOfOneRankEqualTheFullPlans() {
        Random rnd = new Random(SEED);
        int checked = 0;
        for (int n : new int[] {1, 2, 3, 4, 5, 8, 13, 16, 24}) {
            for (Channels ch : channelsOf(n, rnd)) {
                // One tile, several tiles with a short last one, and a count smaller than the ranks.
                for (long[] countAndMessage : new long[][] {{7L * n * 3, 64}, {101, 3}, {Math.max(1, n / 2), 2}}) {
                    checked += checkPerRankGenerators(ch, countAndMessage[0], countAndMessage[1]);
                }
            }
        }
        assertThat(checked).isGreaterThan(10_000);
    }

    @Test
    void plansOfOneRankOnSearchedTopologiesEqualTheFullPlans() {
        int checked = 0;
        for (String file : List.of("dgx-h100", "dgx-a100", "pcie-4gpu")) {
            TopoSystem node = TopoSystem.load(Path.of("src/test/resources/topo", file + ".xml"));
            for (int nodes : new int[] {1, 2, 3}) {
                // Every tree pattern in the full run; by default the patterns differ only across nodes.
                List<TopoPattern> patterns = Matrix.FULL || nodes == 2
                        ? List.of(TopoPattern.TREE, TopoPattern.SPLIT_TREE, TopoPattern.BALANCED_TREE) : List.of(TopoPattern.TREE);
                for (TopoPattern p : patterns) {
                    Channels ch = Layout.of(node, nodes, p).channels();
                    checked += checkPerRankGenerators(ch, 4L * ch.nranks() * ch.count() + 5, 4);
                }
            }
        }
        assertThat(checked).isGreaterThan(500);
    }

    /** The generators that lay out every rank and keep the planned ones' steps give them their steps too. */
    @Test
    void everyOtherGeneratorGivesAPlanOfSomeRanksTheirSteps() {
        int checked = 0;
        for (ServerLayout layout : List.of(ServerLayout.uniform(2, 4), ServerLayout.uniform(3, 2), ServerLayout.uniform(4, 1))) {
            Channels ch = Channels.flat(layout, 2);
            int n = layout.nranks();
            for (Collective c : Collective.values()) {
                if (c == Collective.SEND_RECV) {
                    continue;
                }
                for (Algorithm a : Algorithms.supported(c)) {
                    for (int root : c.rooted() ? new int[] {0, n - 1} : new int[] {0}) {
                        checked += checkEveryRank(c, a, ch, 3L * n + 1, 5, root);
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(100);
    }

    @Test
    void aRankThatWasNotPlannedIsRefused() {
        Call call = new Call(Collective.ALL_REDUCE, 8, 1000, 0).planning(RankSet.of(8, 3, 5));
        for (Algorithm a : List.of(Algorithm.RING, Algorithm.TREE, Algorithm.SPLIT_TREE, Algorithm.BUTTERFLY)) {
            Plan p = Algorithms.plan(call, a, Channels.flat(8, 2), 16);
            assertThat(p.segments(3)).isNotEmpty();
            assertThatThrownBy(() -> p.segments(4)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("rank 4 was not planned").hasMessageContaining("ranks [3, 5] of 8");
            assertThatThrownBy(() -> p.tiles(0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("rank 0 was not planned");
            assertThatThrownBy(() -> p.segments(3).getFirst().schedule().stepArray(7, 0))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rank 7 was not planned");
        }
        assertThatThrownBy(() -> call.planning(RankSet.of(4, 1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void oneRankOfSixteenThousandPlansItsOwnSteps() {
        int n = 16_384;
        int channels = 2;
        Channels ch = Channels.flat(ServerLayout.uniform(n / 8, 8), channels);
        int rank = 12_345;
        long maxMessage = 4;
        // One tile: n chunks of maxMessage elements on each channel.
        long count = maxMessage * n * channels;
        Call call = Call.of(Collective.ALL_REDUCE, n, count).planning(RankSet.of(n, rank));

        Plan ring = Algorithms.plan(call, Algorithm.RING, ch, maxMessage);
        assertThat(ring.segments(rank)).hasSize(1);
        assertThat(ring.segments(rank).getFirst().repeat()).isEqualTo(1);
        // 2(n-1) messages out and as many in on each lane: a first send, n-2 receive-reduce-sends, the
        // receive-reduce-copy-send of the rank's own chunk, n-2 receive-copy-sends and a last receive.
        for (int l = 0; l < channels; l++) {
            assertThat(ring.segments(rank).getFirst().schedule().stepArray(rank, l)).hasSize(2 * n - 1);
        }
        assertThat(ring.segments(rank).getFirst().schedule().ranks().size()).isEqualTo(1);

        // The tree: one step per lane going up and one coming down, or a pair on the split tree's lanes.
        Plan tree = Algorithms.plan(call, Algorithm.TREE, ch, maxMessage);
        assertThat(tree.segments(rank)).hasSize(2);
        for (Segment s : tree.segments(rank)) {
            for (int l = 0; l < tree.lanes(); l++) {
                assertThat(s.schedule().stepArray(rank, l)).hasSize(1);
            }
        }
        Plan split = Algorithms.plan(call, Algorithm.SPLIT_TREE, ch, maxMessage);
        int steps = 0;
        for (int l = 0; l < split.lanes(); l++) {
            steps += split.segments(rank).getFirst().schedule().stepArray(rank, l).length;
        }
        assertThat(steps).isEqualTo(split.lanes());

        Plan broadcast = Algorithms.plan(new Call(Collective.BROADCAST, n, count, 77).planning(RankSet.of(n, rank)),
                Algorithm.RING, ch, count);
        for (int l = 0; l < channels; l++) {
            assertThat(broadcast.segments(rank).getFirst().schedule().stepArray(rank, l)).hasSize(1);
        }
    }
}
