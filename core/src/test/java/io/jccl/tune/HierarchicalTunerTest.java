// SPDX-License-Identifier: Apache-2.0
package io.jccl.tune;

import io.jccl.Config;
import io.jccl.JcclException;
import io.jccl.algo.Algorithm;
import io.jccl.Collective;
import io.jccl.proto.Protocol;
import io.jccl.topo.ServerLayout;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The schedule-derived costs against DESIGN.md's formulas, and the tuner's choices on one and two levels. */
class HierarchicalTunerTest {
    private static final Set<Algorithm> FLAT = Set.of(Algorithm.RING, Algorithm.TREE, Algorithm.SPLIT_TREE, Algorithm.DIRECT);
    /** Elements enough for every block of every schedule of 8 ranks to hold some. */
    private static final long MANY = 1 << 20;

    private static Set<Algorithm> union(Set<Algorithm> s, Algorithm a) {
        Set<Algorithm> u = new java.util.HashSet<>(s);
        u.add(a);
        return u;
    }

    /** Hops on the critical path with only intra-server (or only inter-server) hops costing 1. */
    private static double hops(ServerLayout l, Collective c, Algorithm a, boolean inter) {
        return new ScheduleCost(l).time(c, a, 0, inter ? 0 : 1, inter ? 1 : 0, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
    }

    /** µs per byte of the call with the two levels at {@code intra} and {@code inter} bytes per µs, no latency. */
    private static double perByte(ServerLayout l, Collective c, Algorithm a, double intra, double inter) {
        return new ScheduleCost(l).time(c, a, 1 << 20, 0, 0, intra, inter) / (1 << 20);
    }

    @Test
    void schedulesGiveTheReferenceFormulas() {
        ServerLayout eight = ServerLayout.uniform(8, 1);
        // Butterfly: log2 N (alpha + S/B).
        assertThat(hops(eight, Collective.ALL_REDUCE, Algorithm.BUTTERFLY, true)).isEqualTo(3);
        assertThat(perByte(eight, Collective.ALL_REDUCE, Algorithm.BUTTERFLY, 1, 1)).isCloseTo(3, within(1e-9));
        // It combines the whole buffer at each step: 3 where the ring combines 7/8 of it once.
        ScheduleCost flat = new ScheduleCost(eight);
        assertThat(flat.extraReduced(Collective.ALL_REDUCE, Algorithm.BUTTERFLY)).isCloseTo(3 - 7.0 / 8, within(1e-9));
        assertThat(flat.extraReduced(Collective.ALL_REDUCE, Algorithm.RHD)).isCloseTo(0, within(1e-9));
        assertThat(flat.extraReduced(Collective.ALL_REDUCE, Algorithm.RING)).isZero();
        assertThat(flat.extraReduced(Collective.ALL_GATHER, Algorithm.PAT)).isZero();
        // Rabenseifner: 2 log2 N alpha + 2 (N-1)/N S/B.
        assertThat(hops(eight, Collective.ALL_REDUCE, Algorithm.RHD, true)).isEqualTo(6);
        assertThat(perByte(eight, Collective.ALL_REDUCE, Algorithm.RHD, 1, 1)).isCloseTo(2.0 * 7 / 8, within(1e-9));
        // PAT: log2 N steps of aggregated messages (one more where a step's blocks wrap round), the
        // bytes of a ring.
        assertThat(hops(eight, Collective.ALL_GATHER, Algorithm.PAT, true)).isBetween(3.0, 4.0);
        assertThat(hops(eight, Collective.REDUCE_SCATTER, Algorithm.PAT, true)).isBetween(3.0, 4.0);
        assertThat(hops(ServerLayout.uniform(64, 1), Collective.REDUCE_SCATTER, Algorithm.PAT, true)).isBetween(6.0, 8.0);
        // On one rank per server the layered algorithms are rings across servers: 2(N-1) and (N-1) steps.
        assertThat(hops(eight, Collective.ALL_REDUCE, Algorithm.HIER_RING, true)).isEqualTo(14);
        assertThat(perByte(eight, Collective.ALL_GATHER, Algorithm.PIPELINE, 1, 1)).isCloseTo(7.0 / 8, within(1e-9));

        ServerLayout twoByFour = ServerLayout.uniform(2, 4);
        // Hierarchical ring: 2(m-1) hops across servers and one inside each way; across servers each
        // rank carries 1/R of the ring all-reduce, 2(m-1)/m * S/n.
        assertThat(hops(twoByFour, Collective.ALL_REDUCE, Algorithm.HIER_RING, true)).isEqualTo(2);
        assertThat(hops(twoByFour, Collective.ALL_REDUCE, Algorithm.HIER_RING, false)).isEqualTo(4);
        assertThat(perByte(twoByFour, Collective.ALL_REDUCE, Algorithm.HIER_RING, Double.POSITIVE_INFINITY, 1))
                .isCloseTo(2.0 * 1 / 2 / 4, within(1e-9));
        // 2D torus: the same bytes across servers, its reduce-scatter and all-gather going round the server's ring.
        assertThat(perByte(twoByFour, Collective.ALL_REDUCE, Algorithm.TORUS_2D, Double.POSITIVE_INFINITY, 1))
                .isCloseTo(2.0 * 1 / 2 / 4, within(1e-9));
        assertThat(hops(twoByFour, Collective.ALL_REDUCE, Algorithm.TORUS_2D, false))
                .isGreaterThan(hops(twoByFour, Collective.ALL_REDUCE, Algorithm.HIER_RING, false));
        // The pipeline's all-gather: (m-1) blocks per rank cross servers; the full mesh moves (n-1) m
        // blocks, and both levels work at once, so with equal links it takes the larger,
        // m (n-1) / N = 0.75 of the buffer, where the two-phase algorithm adds them, 0.875.
        assertThat(perByte(twoByFour, Collective.ALL_GATHER, Algorithm.PIPELINE, Double.POSITIVE_INFINITY, 1))
                .isCloseTo(1.0 / 8, within(1e-9));
        assertThat(perByte(twoByFour, Collective.ALL_GATHER, Algorithm.PIPELINE, 1, 1)).isCloseTo(0.75, within(1e-9));
        assertThat(perByte(twoByFour, Collective.ALL_GATHER, Algorithm.HIER_2PHASE, 1, 1)).isCloseTo(0.875, within(1e-9));
        assertThat(perByte(twoByFour, Collective.REDUCE_SCATTER, Algorithm.PIPELINE, 1, 1)).isCloseTo(0.75, within(1e-9));
        assertThat(perByte(twoByFour, Collective.REDUCE_SCATTER, Algorithm.HIER_2PHASE, 1, 1)).isCloseTo(0.875, within(1e-9));
        // With two ranks per server the two phases are equal, and the pipeline approaches 2x over
        // the two-phase algorithm as servers grow: (m-1+m)/m.
        ServerLayout eightByTwo = ServerLayout.uniform(8, 2);
        double twoPhase = perByte(eightByTwo, Collective.ALL_GATHER, Algorithm.HIER_2PHASE, 1, 1);
        double pipeline = perByte(eightByTwo, Collective.ALL_GATHER, Algorithm.PIPELINE, 1, 1);
        assertThat(twoPhase / pipeline).isCloseTo(15.0 / 8, within(1e-9));
    }

    /**
     * A fabric whose links between servers are {@code slower} times slower than inside (each level
     * at its cap whatever the channels) and 5x longer.
     */
    private static CostModel twoLevel(double slower) {
        int na = Algorithm.values().length;
        double[][] base = new double[na][3];
        double[][] hop = new double[na][3];
        double[][] interHop = new double[na][3];
        for (int a = 0; a < na; a++) {
            base[a] = new double[] {4, 6, 8};
            hop[a] = new double[] {0.6, 1.2, 2.0};
            interHop[a] = new double[] {3, 6, 10};
        }
        double[] max = {100, 200, 240};
        double[] bw = max;
        double[] inter = {max[0] / slower, max[1] / slower, max[2] / slower};
        return new CostModel(base, hop, interHop, new double[] {5, 5, 5}, bw, max, inter);
    }

    private static Tuner tuner(Config c, ServerLayout l, CostModel m) {
        return Tuner.of(c, l, 64, m, null);
    }

    @Test
    void onTwoLevelsWithSlowLinksBetweenServersTheLayeredAlgorithmsWinLargeCalls() {
        Tuner t = tuner(Config.defaults(), ServerLayout.uniform(2, 4), twoLevel(8));
        long big = 64L << 20;
        assertThat(t.choose(Collective.ALL_REDUCE, big / 4, 4, 0).algorithm()).isEqualTo(Algorithm.HIER_RING);
        assertThat(t.choose(Collective.ALL_GATHER, big / 4 / 8, 4, 0).algorithm()).isEqualTo(Algorithm.PIPELINE);
        assertThat(t.choose(Collective.REDUCE_SCATTER, big / 4 / 8, 4, 0).algorithm()).isEqualTo(Algorithm.PIPELINE);
        // (All-to-all: the pipeline moves as many bytes across servers as the direct exchange; what
        // it saves, R times fewer connections between servers, the model does not weigh.)
        // Small all-reduces go by the fewest hops: the butterfly's log2 N.
        assertThat(t.choose(Collective.ALL_REDUCE, 2, 4, 0).algorithm()).isEqualTo(Algorithm.BUTTERFLY);
        // The choice is the model's fastest: no candidate predicts less.
        Choice c = t.choose(Collective.ALL_REDUCE, big / 4, 4, 0);
        Choice ring = t.modelChoice(Collective.ALL_REDUCE, big / 4, 4, Set.of(Algorithm.RING), Set.of(Protocol.values()));
        assertThat(c.predictedMicros()).isLessThan(ring.predictedMicros() / 2);
    }

    @Test
    void onOneLevelTheyAreNeverChosenUnlessForced() {
        for (ServerLayout l : List.of(ServerLayout.single(8), ServerLayout.single(3))) {
            Tuner t = tuner(Config.defaults(), l, twoLevel(1));
            for (Collective c : List.of(Collective.ALL_REDUCE, Collective.ALL_GATHER, Collective.REDUCE_SCATTER,
                    Collective.ALL_TO_ALL, Collective.BROADCAST)) {
                for (long count = 1; count <= 1 << 24; count *= 16) {
                    // The butterfly is no layered algorithm: it is weighed on one host too.
                    assertThat(t.choose(c, count, 4, 0).algorithm()).as("%s of %d on %s", c, count, l)
                            .isIn(c == Collective.ALL_REDUCE ? union(FLAT, Algorithm.BUTTERFLY) : FLAT);
                }
            }
            // Forced, they run: a single server is a uniform layout.
            Tuner forced = tuner(Config.defaults().withAlgorithms("hierring"), l, twoLevel(1));
            assertThat(forced.choose(Collective.ALL_REDUCE, 1000, 4, 0).algorithm()).isEqualTo(Algorithm.HIER_RING);
        }
        // One rank per server: PAT is weighed, the layered algorithms are not.
        Tuner perNode = tuner(Config.defaults(), ServerLayout.uniform(8, 1), twoLevel(1));
        for (long count = 1; count <= 1 << 24; count *= 16) {
            assertThat(perNode.choose(Collective.ALL_GATHER, count, 4, 0).algorithm()).isIn(Algorithm.RING, Algorithm.PAT);
            assertThat(perNode.choose(Collective.ALL_REDUCE, count, 4, 0).algorithm().needsServers()).isFalse();
        }
        assertThat(perNode.choose(Collective.ALL_GATHER, 1, 4, 0).algorithm()).isEqualTo(Algorithm.PAT);
    }

    @Test
    void unevenServersRefuseForcedLayeredAlgorithmsNamingTheLayout() {
        ServerLayout uneven = ServerLayout.ofHosts(List.of("a", "a", "a", "b", "b", "c"));
        Tuner any = tuner(Config.defaults(), uneven, twoLevel(8));
        for (Collective c : List.of(Collective.ALL_REDUCE, Collective.ALL_GATHER, Collective.REDUCE_SCATTER, Collective.ALL_TO_ALL)) {
            for (long count = 1; count <= 1 << 24; count *= 64) {
                assertThat(any.choose(c, count, 4, 0).algorithm().needsServers()).isFalse();
            }
        }
        Tuner forced = tuner(Config.defaults().withAlgorithms("pipeline,hier2phase"), uneven, twoLevel(8));
        assertThatThrownBy(() -> forced.choose(Collective.ALL_GATHER, 100, 4, 3))
                .isInstanceOf(JcclException.class)
                .hasMessageContaining("pipeline")
                .hasMessageContaining("servers of 3+2+1 ranks")
                .hasMessageContaining("rank 3");
        Tuner wrong = tuner(Config.defaults().withAlgorithms("torus2d"), ServerLayout.uniform(2, 2), twoLevel(8));
        assertThatThrownBy(() -> wrong.choose(Collective.BROADCAST, 100, 4, 0))
                .isInstanceOf(JcclException.class)
                .hasMessageContaining("JCCL_ALGO")
                .hasMessageContaining("broadcast");
    }

    @Test
    void tunersOfOneLayoutAndConfigurationChooseAlike() {
        // What every rank of a communicator has: the same layout (from the exchanged host
        // identities) and rank 0's configuration; the choice depends on nothing else.
        ServerLayout l = ServerLayout.ofHosts(List.of("x", "x", "y", "y", "x", "x", "y", "y"));
        Tuner a = tuner(Config.defaults(), l, twoLevel(4));
        Tuner b = tuner(Config.defaults(), ServerLayout.ofHosts(List.of("p", "p", "q", "q", "p", "p", "q", "q")), twoLevel(4));
        for (long count = 1; count <= 1 << 24; count *= 4) {
            assertThat(b.choose(Collective.ALL_REDUCE, count, 4, 5)).isEqualTo(a.choose(Collective.ALL_REDUCE, count, 4, 0));
        }
    }

    @Test
    void theHostModelLearnsTheFabricBetweenServersFromTheConfiguration() {
        // The emulated fabric: servers joined at 1 Gbit/s with 50 µs hops (JCCL_INTER_BW=0.125,
        // JCCL_INTER_LATENCY=50); inside a server the host engine's own figures.
        Config fabric = Config.fromVariables(java.util.Map.of("JCCL_INTER_BW", "0.125", "JCCL_INTER_LATENCY", "50"));
        assertThat(fabric.interBandwidth()).isEqualTo(0.125);
        assertThat(fabric.interLatency()).isEqualTo(50);
        Tuner t = Tuner.create(fabric, ServerLayout.uniform(2, 4), 64, null);
        assertThat(t.choose(Collective.ALL_GATHER, 4 << 20, 4, 0).algorithm()).isEqualTo(Algorithm.PIPELINE);
        assertThat(t.choose(Collective.ALL_REDUCE, 16 << 20, 4, 0).algorithm()).isIn(Algorithm.HIER_RING, Algorithm.TORUS_2D);
        // A ring crossing servers is held to their bandwidth: 64 MiB at 0.125 GB/s is half a second and more.
        Choice ring = t.modelChoice(Collective.ALL_REDUCE, 16L << 20, 4, Set.of(Algorithm.RING), Set.of(Protocol.SIMPLE));
        assertThat(ring.predictedMicros()).isGreaterThan(2 * 7.0 / 8 * (64 << 20) / 125_000.0 * 0.99);
        // Unset, the host's model sees no difference between the levels.
        assertThat(Config.defaults().interBandwidth()).isNaN();
        assertThatThrownBy(() -> Config.fromVariables(java.util.Map.of("JCCL_INTER_BW", "fast")))
                .isInstanceOf(JcclException.class).hasMessageContaining("JCCL_INTER_BW");
        assertThatThrownBy(() -> Config.defaults().withInterServer(1, -2))
                .isInstanceOf(JcclException.class).hasMessageContaining("JCCL_INTER_LATENCY");
    }

    @Test
    void theHostModelLearnsTheLinksInsideServersFromTheConfiguration() {
        // The emulated 2 x 4 fabric of docs/hierarchical.md: every rank in its own network
        // namespace, so a hop inside a server is a socket too: 800 Mbit/s inside, 200 between, 20 µs
        // a hop beyond the socket's cost per message (8 JVMs on 2 cores). Forced, the butterfly was
        // the fastest from 64 B to 4 KiB (0.57-0.69 ms) and hierring 1.9-3.7x slower there; at 32 KiB
        // the tree, butterfly and rhd 1.37-1.46 ms, hierring 1.77-2.31; hierring or torus2d the
        // fastest from 256 KiB.
        Map<String, String> links = Map.of("JCCL_INTER_BW", "0.025", "JCCL_INTER_LATENCY", "20");
        Map<String, String> both = new java.util.HashMap<>(links);
        both.put("JCCL_INTRA_BW", "0.1");
        both.put("JCCL_INTRA_LATENCY", "20");
        Config fabric = Config.fromVariables(both);
        assertThat(fabric.intraBandwidth()).isEqualTo(0.1);
        assertThat(fabric.intraLatency()).isEqualTo(20);
        Tuner told = Tuner.create(fabric, ServerLayout.uniform(2, 4), 2, null);
        for (long bytes : new long[] {64, 512, 4096}) {
            assertThat(told.choose(Collective.ALL_REDUCE, bytes / 4, 4, 0).algorithm()).as("%d B", bytes).isEqualTo(Algorithm.BUTTERFLY);
        }
        // 2 elements: recursive halving leaves most ranks idle (16 messages in all, the butterfly's
        // 24), which on 2 cores is what counts.
        assertThat(told.choose(Collective.ALL_REDUCE, 2, 4, 0).algorithm()).isEqualTo(Algorithm.RHD);
        // Hierring's full mesh sends three messages a step where these send one; priced per hop
        // only, the model chose hierring here.
        assertThat(told.choose(Collective.ALL_REDUCE, (32 << 10) / 4, 4, 0).algorithm())
                .isIn(Algorithm.TREE, Algorithm.BUTTERFLY, Algorithm.RHD);
        for (long bytes : new long[] {256 << 10, 4 << 20, 64 << 20}) {
            assertThat(told.choose(Collective.ALL_REDUCE, bytes / 4, 4, 0).algorithm()).as("%d B", bytes)
                    .isIn(Algorithm.HIER_RING, Algorithm.TORUS_2D);
        }
        // Over sockets LL moves its host share of a link's bandwidth: a ring at 1 MiB goes in Simple
        // (measured: LL 229 ms, Simple 78).
        Choice ringMiB = told.modelChoice(Collective.ALL_REDUCE, 1 << 18, 4, Set.of(Algorithm.RING), told.protocols());
        assertThat(ringMiB.protocol()).isEqualTo(Protocol.SIMPLE);
        // A hop inside costs at least the link's latency, even where it is priced as a hand-over of
        // a core, and the ring's messages cost the socket's core time: of 2 elements, 28 messages
        // in all (each element's block around the ring twice), 3.5 a rank, 4 threads sharing each core.
        Choice ring = told.modelChoice(Collective.ALL_REDUCE, 2, 4, Set.of(Algorithm.RING), Set.of(Protocol.SIMPLE));
        assertThat(ring.predictedMicros()).isGreaterThan(14 * 20 + 14 * CostModel.SOCKET_MESSAGE_CPU);
        assertThatThrownBy(() -> Config.fromVariables(Map.of("JCCL_INTRA_BW", "-1")))
                .isInstanceOf(JcclException.class).hasMessageContaining("JCCL_INTRA_BW");
        assertThatThrownBy(() -> Config.defaults().withIntraServer(1, Double.POSITIVE_INFINITY))
                .isInstanceOf(JcclException.class).hasMessageContaining("JCCL_INTRA_LATENCY");
    }

    @Test
    void aMessageOverASocketCostsItsSenderCoreTime() {
        ScheduleCost cost = new ScheduleCost(ServerLayout.uniform(2, 4));
        // Per run of the schedule, the busiest rank's sends inside its server and across servers:
        // hierring's full mesh 12 inside (3 a step, 4 steps) and 2 across; the butterfly 2 and 1;
        // the ring 14 to its one neighbour, across servers for the ranks at a server's end.
        assertThat(cost.sends(Collective.ALL_REDUCE, Algorithm.HIER_RING, MANY, 1, 0).busiest()).isEqualTo(12);
        assertThat(cost.sends(Collective.ALL_REDUCE, Algorithm.HIER_RING, MANY, 0, 1).busiest()).isEqualTo(2);
        assertThat(cost.sends(Collective.ALL_REDUCE, Algorithm.BUTTERFLY, MANY, 1, 0).busiest()).isEqualTo(2);
        assertThat(cost.sends(Collective.ALL_REDUCE, Algorithm.BUTTERFLY, MANY, 0, 1).busiest()).isEqualTo(1);
        assertThat(cost.sends(Collective.ALL_REDUCE, Algorithm.RING, MANY, 0, 1).busiest()).isEqualTo(14);
        assertThat(cost.sends(Collective.ALL_REDUCE, Algorithm.RING, MANY, 1, 1).busiest()).isEqualTo(14);
        // Every algorithm of every collective the tuner chooses for (not point-to-point groups) has
        // a schedule to count.
        for (Collective c : Collective.values()) {
            if (c == Collective.SEND_RECV) {
                continue;
            }
            for (Algorithm a : io.jccl.algo.Algorithms.supported(c)) {
                if (io.jccl.algo.Algorithms.fits(a, ServerLayout.uniform(2, 4))) {
                    assertThat(cost.sends(c, a, MANY, 1, 1).busiest()).as("%s %s", c, a).isPositive();
                }
            }
        }
        // Only a level described as a link pays it: the host's own model (shared memory), nothing;
        // told the link between servers only, the messages across servers.
        assertThat(CostModel.HOST.messageTime(cost, Collective.ALL_REDUCE, Algorithm.HIER_RING, MANY, 4, 1)).isZero();
        CostModel inter = CostModel.HOST.withInterServer(0.025, Double.NaN);
        assertThat(inter.messageTime(cost, Collective.ALL_REDUCE, Algorithm.HIER_RING, MANY, 4, 3))
                .isCloseTo(3 * 2 * CostModel.SOCKET_MESSAGE_CPU * 4, within(1e-9));
        CostModel both = inter.withIntraServer(Double.NaN, 20);
        assertThat(both.messageTime(cost, Collective.ALL_REDUCE, Algorithm.HIER_RING, MANY, 0.5, 1))
                .isCloseTo(14 * CostModel.SOCKET_MESSAGE_CPU, within(1e-9));
        assertThat(CostModel.HOST.withIntraServer(Double.NaN, Double.NaN).messageTime(cost, Collective.ALL_REDUCE,
                Algorithm.RING, MANY, 4, 1)).isZero();
    }

    @Test
    void aCallOfFewerElementsThanRanksIsCountedFromItsOwnSchedule() {
        ScheduleCost cost = new ScheduleCost(ServerLayout.uniform(2, 4));
        // 2 elements on 8 ranks: rhd halves them onto 2 ranks, so its busiest rank sends 4 messages
        // (3 inside, 1 across) but the mean rank 2; the butterfly sends the whole buffer at each
        // of its 3 steps from every rank; the ring only the 2 blocks that hold an element.
        ScheduleCost.Sends rhd = cost.sends(Collective.ALL_REDUCE, Algorithm.RHD, 2, 1, 1);
        assertThat(rhd.busiest()).isEqualTo(4);
        assertThat(rhd.mean()).isEqualTo(2);
        ScheduleCost.Sends butterfly = cost.sends(Collective.ALL_REDUCE, Algorithm.BUTTERFLY, 2, 1, 1);
        assertThat(butterfly.busiest()).isEqualTo(3);
        assertThat(butterfly.mean()).isEqualTo(3);
        assertThat(cost.sends(Collective.ALL_REDUCE, Algorithm.RING, 2, 1, 1).mean()).isEqualTo(3.5);
        // One element short of one per rank leaves a block empty; with every block holding an
        // element, every rank sends its full count.
        assertThat(cost.sends(Collective.ALL_REDUCE, Algorithm.RHD, 7, 1, 1).mean())
                .isLessThan(cost.sends(Collective.ALL_REDUCE, Algorithm.RHD, MANY, 1, 1).mean());
        assertThat(cost.sends(Collective.ALL_REDUCE, Algorithm.RHD, 8, 1, 1)).isEqualTo(cost.sends(Collective.ALL_REDUCE,
                Algorithm.RHD, MANY, 1, 1));
        assertThat(cost.sends(Collective.ALL_REDUCE, Algorithm.RHD, MANY, 1, 1).busiest()).isEqualTo(6);
        assertThat(cost.sends(Collective.ALL_REDUCE, Algorithm.RHD, 0, 1, 1)).isEqualTo(new ScheduleCost.Sends(0, 0));
        // The mean rank's messages times the threads per core where the threads outnumber the
        // cores, the busiest rank's where they do not.
        CostModel told = CostModel.HOST.withInterServer(0.025, 20).withIntraServer(0.1, 20);
        double o = CostModel.SOCKET_MESSAGE_CPU;
        assertThat(told.messageTime(cost, Collective.ALL_REDUCE, Algorithm.RHD, 2, 4, 1)).isCloseTo(8 * o, within(1e-9));
        assertThat(told.messageTime(cost, Collective.ALL_REDUCE, Algorithm.BUTTERFLY, 2, 4, 1)).isCloseTo(12 * o, within(1e-9));
        assertThat(told.messageTime(cost, Collective.ALL_REDUCE, Algorithm.RHD, 2, 0.5, 1)).isCloseTo(4 * o, within(1e-9));
    }

    @Test
    void patRulesOfNcclsTunerPluginNowMatch() {
        TunerRules r = TunerRules.parse("allgather,0,65536,pat,simple,-1,-1,-1\n", "rules.csv");
        assertThat(r.rules().getFirst().algorithm()).isEqualTo(Algorithm.PAT);
    }
}
