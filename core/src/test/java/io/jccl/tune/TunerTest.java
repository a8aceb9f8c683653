// SPDX-License-Identifier: Apache-2.0
package io.jccl.tune;

import io.jccl.Config;
import io.jccl.algo.Algorithm;
import io.jccl.Collective;
import io.jccl.proto.Protocol;
import io.jccl.topo.ServerLayout;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The tuner's choices: model, calibrated table, NCCL rules, and the configuration's overrides. */
class TunerTest {
    private static final Set<Algorithm> ALL_ALGOS = EnumSet.allOf(Algorithm.class);
    private static final Set<Protocol> ALL_PROTOS = EnumSet.allOf(Protocol.class);

    private static Tuner tuner(Config c, int n, TuningTable t) {
        return Tuner.of(c, n, 1, 2, CostModel.HOST, t);
    }

    @Test
    void theModelFollowsTheHostsMeasurements() {
        // On the host LL's latency is a little lower than Simple's (8 B, 2 processes: 0.56-0.63
        // against 0.70-0.79 us) and its bandwidth far lower, so LL wins the smallest calls and
        // Simple the rest, from 128 B; small all-reduces take the butterfly's one exchange (ring:
        // 0.8-1.1 us), large ones the ring, which reduces half the elements the butterfly does
        // (2 threads, 2 MiB: 352 against 532 us). With 8 ranks on 2 cores every hop hands over a
        // core and the butterfly's log2 n hops win the small calls (8 B: butterfly 15 us, ring 20,
        // tree 107: its two lanes a rank double the threads; the model, which prices a thread per
        // core linearly, would still take the tree over the ring there, with JCCL_ALGO=^butterfly).
        Tuner t = tuner(Config.defaults(), 2, null);
        Choice small = t.choose(Collective.ALL_REDUCE, 2, 4, 0);
        Choice large = t.choose(Collective.ALL_REDUCE, 16 << 20, 4, 0);
        assertThat(small.protocol()).isEqualTo(Protocol.LL);
        assertThat(t.choose(Collective.ALL_REDUCE, 128, 4, 0).protocol()).isEqualTo(Protocol.SIMPLE);
        assertThat(small.algorithm()).isEqualTo(Algorithm.BUTTERFLY);
        assertThat(large.protocol()).isEqualTo(Protocol.SIMPLE);
        assertThat(large.algorithm()).isEqualTo(Algorithm.RING);
        Tuner eight = tuner(Config.defaults(), 8, null);
        assertThat(eight.choose(Collective.ALL_REDUCE, 2, 4, 0).algorithm()).isEqualTo(Algorithm.BUTTERFLY);
        assertThat(eight.choose(Collective.ALL_REDUCE, 64 << 20, 4, 0).algorithm()).isEqualTo(Algorithm.RING);
        // ... but not where its two lanes per rank double the threads taking turns on the cores
        // (4 ranks on 2 cores, 128 KiB: ring 62 us, tree 145, butterfly 86).
        Tuner four = tuner(Config.defaults(), 4, null);
        assertThat(four.choose(Collective.ALL_REDUCE, 32 << 10, 4, 0).algorithm()).isEqualTo(Algorithm.RING);
        assertThat(tuner(Config.defaults().withAlgorithms("^butterfly"), 4, null).choose(Collective.ALL_REDUCE, 32 << 10, 4, 0)
                .algorithm()).isEqualTo(Algorithm.RING);
        // Below, the butterfly's 2 hops beat the ring's 6 (8 KiB: 11 against 15 us); above, its
        // reductions (log2 4 = 2 buffers against the ring's 3/4) cost more than its hops save.
        assertThat(four.choose(Collective.ALL_REDUCE, 2 << 10, 4, 0).algorithm()).isEqualTo(Algorithm.BUTTERFLY);
        // 1 MiB, depth 2: the tree's chunk shrinks to 128 KiB, so each of its 2 lanes sends 4 in turn;
        // the ring's tile is a 512 KiB slot per rank: one.
        assertThat(four.tiles(Collective.ALL_REDUCE, Algorithm.TREE, Protocol.SIMPLE, 1 << 20, 1, 2)).isEqualTo(4);
        assertThat(four.tiles(Collective.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE, 1 << 20, 1, 1)).isEqualTo(1);
        // Where LL's latency is lower (a GPU-like model), it wins the small calls.
        double[][] base = new double[4][3];
        double[][] hop = new double[4][3];
        for (int a = 0; a < 4; a++) {
            base[a] = new double[] {4, 6, 8};
            hop[a] = new double[] {0.6, 1.2, 2.0};
        }
        CostModel gpuLike = new CostModel(base, hop, hop, new double[] {5, 5, 5}, new double[] {10, 20, 24}, new double[] {100, 200, 240});
        Tuner g = Tuner.of(Config.defaults(), 8, 1, 64, gpuLike, null);
        assertThat(g.choose(Collective.ALL_REDUCE, 2, 4, 0).protocol()).isEqualTo(Protocol.LL);
        assertThat(g.choose(Collective.ALL_REDUCE, 16 << 20, 4, 0).protocol()).isEqualTo(Protocol.SIMPLE);
        assertThat(small.source()).isEqualTo(Choice.Source.MODEL);
        assertThat(small.predictedMicros()).isLessThan(large.predictedMicros());
        // Predictions grow with size for every (algorithm, protocol).
        for (Algorithm a : List.of(Algorithm.RING, Algorithm.TREE)) {
            for (Protocol p : Protocol.values()) {
                double prev = 0;
                for (long b = 8; b <= 1 << 26; b *= 4) {
                    double time = CostModel.HOST.time(Collective.ALL_REDUCE, a, p, b, 4, 1, 1, 2, 0.5, 1);
                    assertThat(time).isGreaterThan(prev);
                    prev = time;
                }
            }
        }
    }

    @Test
    void theModelFollowsNcclsFormulas() {
        CostModel m = CostModel.HOST;
        int s = Protocol.SIMPLE.ordinal();
        int r = Algorithm.RING.ordinal();
        double busBw = Math.min(m.maxBusBw()[s], m.channelBw()[s]) * 1000;
        // Ring all-reduce on 4 ranks: base + 2(n-1) hops, algbw = busbw * n / (2(n-1)).
        double ring = m.baseLatency()[r][s] + 6 * m.hopLatency()[r][s] + (1 << 20) / (busBw * 4 / 6.0);
        assertThat(m.time(Collective.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE, 1 << 20, 4, 1, 1, 2, 0.5, 1)).isCloseTo(ring,
                org.assertj.core.data.Offset.offset(1e-9));
        // Tree: base + 2 * depth hops, algbw = busbw / 2.
        int tr = Algorithm.TREE.ordinal();
        double tree = m.baseLatency()[tr][s] + 2 * 3 * m.hopLatency()[tr][s] + (1 << 20) / (busBw * 0.5);
        assertThat(m.time(Collective.ALL_REDUCE, Algorithm.TREE, Protocol.SIMPLE, 1 << 20, 8, 1, 1, 3, 1.0, 1)).isCloseTo(tree,
                org.assertj.core.data.Offset.offset(1e-9));
        // More threads than cores: every hop is a wake-up.
        double parked = m.baseLatency()[tr][s] + 2 * 3 * (4.0 * 5) * m.parkedHopLatency()[s] + (1 << 20) / (busBw * 0.5);
        assertThat(m.time(Collective.ALL_REDUCE, Algorithm.TREE, Protocol.SIMPLE, 1 << 20, 8, 1, 1, 3, 4.0, 5)).isCloseTo(parked,
                org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void configurationRestrictsTheCandidates() {
        Config c = Config.fromVariables(Map.of("JCCL_PROTO", "^LL", "JCCL_ALGO", "tree", "JCCL_MIN_NCHANNELS", "2"));
        Choice ch = tuner(c, 4, null).choose(Collective.ALL_REDUCE, 2, 4, 0);
        assertThat(ch.protocol()).isNotEqualTo(Protocol.LL);
        assertThat(ch.algorithm()).isEqualTo(Algorithm.TREE);
        assertThat(ch.channels()).isGreaterThanOrEqualTo(2);
        assertThat(tuner(Config.defaults().withProtocols("LL128"), 2, null).choose(Collective.ALL_GATHER, 1 << 20, 4, 0)
                .protocol()).isEqualTo(Protocol.LL128);
        assertThatThrownBy(() -> tuner(Config.defaults().withAlgorithms("tree"), 2, null).choose(Collective.ALL_GATHER, 8, 4, 1))
                .hasMessageContaining("JCCL_ALGO").hasMessageContaining("allgather");
    }

    @Test
    void perCollectiveChoicesHoldForTheirCollectiveOnly() {
        // Unrestricted, 2 ranks take the butterfly and LL for 8 B all-reduces (theModelFollowsTheHostsMeasurements).
        Tuner t = tuner(Config.defaults().withAlgorithms("ring;allreduce:tree").withProtocols("LL;allreduce:Simple"), 2, null);
        Choice allReduce = t.choose(Collective.ALL_REDUCE, 2, 4, 0);
        assertThat(allReduce.algorithm()).isEqualTo(Algorithm.TREE);
        assertThat(allReduce.protocol()).isEqualTo(Protocol.SIMPLE);
        Choice allGather = t.choose(Collective.ALL_GATHER, 1 << 20, 4, 0);
        assertThat(allGather.algorithm()).isEqualTo(Algorithm.RING);
        assertThat(allGather.protocol()).isEqualTo(Protocol.LL);
        // NCCL's name, a collective's list alone: the others keep every algorithm.
        Tuner nccl = tuner(Config.fromVariables(Map.of("NCCL_ALGO", "allreduce:ring")), 2, null);
        assertThat(nccl.choose(Collective.ALL_REDUCE, 2, 4, 0).algorithm()).isEqualTo(Algorithm.RING);
        assertThat(nccl.algorithms(Collective.BROADCAST, 0)).isEqualTo(tuner(Config.defaults(), 2, null)
                .algorithms(Collective.BROADCAST, 0));
        assertThatThrownBy(() -> tuner(Config.defaults().withAlgorithms("ring;allgather:tree"), 2, null)
                .choose(Collective.ALL_GATHER, 8, 4, 1)).hasMessageContaining("JCCL_ALGO allows [tree]")
                .hasMessageContaining("allgather");
    }

    @Test
    void protocolSelectionUsesNcclsGrammar() {
        assertThat(Config.fromVariables(Map.of("JCCL_PROTO", "ll128,SIMPLE")).protocols())
                .containsExactlyInAnyOrder("LL128", "Simple");
        assertThat(Protocol.allowed(Config.fromVariables(Map.of("JCCL_PROTO", "^LL"))))
                .containsExactlyInAnyOrder(Protocol.LL128, Protocol.SIMPLE);
        assertThat(Protocol.allowed(Config.defaults())).containsExactlyInAnyOrder(Protocol.values());
        assertThatThrownBy(() -> Config.fromVariables(Map.of("JCCL_PROTO", "LL,LL256"))).hasMessageContaining("JCCL_PROTO")
                .hasMessageContaining("LL256");
        assertThatThrownBy(() -> Config.defaults().withProtocols("^LL,LL128,Simple")).hasMessageContaining("leaves nothing");
        assertThatThrownBy(() -> Config.fromVariables(Map.of("JCCL_LL128_BUFFSIZE", "1000")))
                .hasMessageContaining("JCCL_LL128_BUFFSIZE").hasMessageContaining("multiple of 1024");
        assertThat(Config.fromVariables(Map.of("JCCL_LL_BUFFSIZE", "64K")).buffSize("LL")).isEqualTo(64 << 10);
        assertThatThrownBy(() -> Config.fromVariables(Map.of("JCCL_DEBUG", "LOUD"))).hasMessageContaining("JCCL_DEBUG");
    }

    private static TuningTable table() {
        var r = List.of(new TuningTable.Result(Algorithm.TREE, Protocol.LL128, 1, 5.0),
                new TuningTable.Result(Algorithm.RING, Protocol.SIMPLE, 1, 9.0));
        var big = List.of(new TuningTable.Result(Algorithm.RING, Protocol.SIMPLE, 1, 500.0),
                new TuningTable.Result(Algorithm.TREE, Protocol.LL, 1, 2000.0));
        return new TuningTable(Map.of("host", "test"), List.of(new TuningTable.Entry(Collective.ALL_REDUCE, 2, 1024, r),
                new TuningTable.Entry(Collective.ALL_REDUCE, 2, 1 << 20, big)));
    }

    @Test
    void aTableDecidesWhereItHasDataAndTheModelElsewhere() {
        Tuner t = tuner(Config.defaults(), 2, table());
        Choice at1k = t.choose(Collective.ALL_REDUCE, 256, 4, 0);
        assertThat(at1k.source()).isEqualTo(Choice.Source.TABLE);
        assertThat(at1k.algorithm()).isEqualTo(Algorithm.TREE);
        assertThat(at1k.protocol()).isEqualTo(Protocol.LL128);
        // 8 B is in the first bucket (it reaches down to 0); 32 KiB = sqrt(1K * 1M) starts the second.
        assertThat(t.choose(Collective.ALL_REDUCE, 2, 4, 0).source()).isEqualTo(Choice.Source.TABLE);
        assertThat(t.choose(Collective.ALL_REDUCE, 8191, 4, 0).protocol()).isEqualTo(Protocol.LL128);
        assertThat(t.choose(Collective.ALL_REDUCE, 8192, 4, 0).protocol()).isEqualTo(Protocol.SIMPLE);
        // Beyond twice the largest size, another collective, another rank count: the model.
        assertThat(t.choose(Collective.ALL_REDUCE, 1 << 20, 4, 0).source()).isEqualTo(Choice.Source.MODEL);
        assertThat(t.choose(Collective.ALL_GATHER, 256, 4, 0).source()).isEqualTo(Choice.Source.MODEL);
        assertThat(tuner(Config.defaults(), 4, table()).choose(Collective.ALL_REDUCE, 256, 4, 0).source())
                .isEqualTo(Choice.Source.MODEL);
        // The table's best among what JCCL_PROTO allows.
        Choice noLl128 = tuner(Config.defaults().withProtocols("^LL128"), 2, table()).choose(Collective.ALL_REDUCE, 256, 4, 0);
        assertThat(noLl128.protocol()).isEqualTo(Protocol.SIMPLE);
        assertThat(noLl128.source()).isEqualTo(Choice.Source.TABLE);
    }

    @Test
    void ranksThatOutnumberTheCoresPayAHandOverOfACorePerHop() {
        // 4 ranks on 2 cores: a hop is a yield to the rank waited for (about 2 us at 2 threads a
        // core), so the ring's bandwidth wins from 32 KiB (processes: ring 43-51 us, butterfly
        // 58-76; threads, 128 KiB: ring 62, butterfly 86), the butterfly's fewer hops below.
        Tuner four = Tuner.create(Config.defaults(), ServerLayout.single(4), 2, null);
        assertThat(four.choose(Collective.ALL_REDUCE, 2, 4, 0).algorithm()).isEqualTo(Algorithm.BUTTERFLY);
        assertThat(four.choose(Collective.ALL_REDUCE, 8 << 10, 4, 0).algorithm()).isEqualTo(Algorithm.RING);
        // 8 B: the butterfly's 2 hops at 2 threads per core, 1 us each, on top of LL's base.
        assertThat(four.choose(Collective.ALL_REDUCE, 2, 4, 0).predictedMicros()).isCloseTo(1.1 + 2 * 2 * 1.0, within(0.1));
        // Ranks that fit on the cores spin: the same ranks on 4 cores pay a cache-line transfer a hop.
        Tuner roomy = Tuner.create(Config.defaults(), ServerLayout.single(4), 4, null);
        assertThat(roomy.choose(Collective.ALL_REDUCE, 2, 4, 0).predictedMicros()).isCloseTo(1.1 + 2 * 0.2, within(0.1));
    }

    @Test
    void aTableSurvivesItsJsonAndBadTablesAreRefusedSayingWhere() {
        TuningTable t = table();
        TuningTable back = TuningTable.parse(t.toJson());
        assertThat(back.entries()).isEqualTo(t.entries());
        assertThat(back.about()).containsEntry("host", "test");
        assertThat(t.toJson()).contains("\"best\"").contains("\"format\":\"jccl-tuning-table\"");
        assertThatThrownBy(() -> TuningTable.parse("{\"format\": \"other\"}")).hasMessageContaining("not a jccl tuning table");
        String bad = t.toJson().replace("\"LL128\"", "\"LL64\"");
        assertThatThrownBy(() -> TuningTable.parse(bad)).hasMessageContaining("entries[0].results[0]").hasMessageContaining("LL64");
        assertThatThrownBy(() -> TuningTable.parse(t.toJson().replace("\"us\":5.0", "\"us\":-5.0")))
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> TuningTable.parse("{\"format\": \"jccl-tuning-table\", \"version\": 1, \"entries\": [")).hasMessageContaining("JSON line 1");
    }

    @Test
    void ncclTunerRulesAreReadAndTheFirstAllowedMatchWins() {
        String csv = """
                # colltype,minbytes,maxbytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff
                allreduce,0,65536,nvls,simple,-1,-1,-1
                allreduce,0,65536,tree,ll,4,1,-1,-1,-1
                allreduce,65537,1073741824,ring,simple,-1,-1,2
                allgather,0,1024,ring,ll128,-1,-1,-1,1,0
                allgather,0,1024,ring,ll,-1,-1,-1,2,1
                """;
        TunerRules rules = TunerRules.parse(csv, "nccl_tuner.conf");
        assertThat(rules.rules()).hasSize(5);
        assertThat(rules.rules().getFirst().algorithm()).as("nvls: not in jccl").isNull();
        var small = rules.match(Collective.ALL_REDUCE, 4096, 1, 8, ALL_ALGOS, ALL_PROTOS).orElseThrow();
        assertThat(small.algorithm()).isEqualTo(Algorithm.TREE);
        assertThat(small.protocol()).isEqualTo(Protocol.LL);
        assertThat(small.channels()).isEqualTo(4);
        assertThat(rules.match(Collective.ALL_REDUCE, 1 << 20, 1, 8, ALL_ALGOS, ALL_PROTOS)).as("nRanks 2 only").isEmpty();
        assertThat(rules.match(Collective.ALL_REDUCE, 1 << 20, 1, 2, ALL_ALGOS, ALL_PROTOS)).isPresent();
        assertThat(rules.match(Collective.ALL_REDUCE, 4096, 1, 8, ALL_ALGOS, EnumSet.of(Protocol.SIMPLE))).isEmpty();
        assertThat(rules.match(Collective.ALL_GATHER, 512, 1, 8, ALL_ALGOS, ALL_PROTOS).orElseThrow().protocol())
                .isEqualTo(Protocol.LL128);
        assertThatThrownBy(() -> TunerRules.parse("allreduce,0,10,ring\n", "f.conf")).hasMessageContaining("f.conf line 1");
        assertThatThrownBy(() -> TunerRules.parse("\n\nallreduce,10,0,ring,ll,-1,-1,-1\n", "f.conf"))
                .hasMessageContaining("line 3").hasMessageContaining("empty");
        assertThatThrownBy(() -> TunerRules.parse("allreduce,0,10,warp,ll,-1,-1,-1\n", "f.conf")).hasMessageContaining("warp");
        assertThatThrownBy(() -> TunerRules.parse("alltoone,0,10,ring,ll,-1,-1,-1\n", "f.conf")).hasMessageContaining("alltoone");
    }

    @Test
    void treeChunksShrinkWithDepthAsNcclDoes() {
        Tuner t = tuner(Config.defaults(), 8, null);
        assertThat(t.treeDepth()).isEqualTo(3);
        // 1 MiB on one channel, depth 3: 512K -> 128K (while < 24 chunks), -> 64K (while < 12); 16 chunks >= 3.
        assertThat(t.treeChunkBytes(512 << 10, 1 << 20, 1)).isEqualTo(64 << 10);
        // A huge call keeps the full chunk; a tiny one stops at 32 KiB.
        assertThat(t.treeChunkBytes(512 << 10, 1L << 34, 1)).isEqualTo(512 << 10);
        assertThat(t.treeChunkBytes(512 << 10, 1024, 1)).isEqualTo(32 << 10);
        assertThat(Tuner.depth(io.jccl.topo.BinaryTrees.first(14))).isEqualTo(4);
    }
}
