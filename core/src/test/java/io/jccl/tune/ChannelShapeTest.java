// SPDX-License-Identifier: Apache-2.0
package io.jccl.tune;

import io.jccl.Collective;
import io.jccl.Config;
import io.jccl.algo.Algorithm;
import io.jccl.proto.Protocol;
import io.jccl.topo.BinaryTrees;
import io.jccl.topo.Channels;
import io.jccl.topo.Layout;
import io.jccl.topo.NodeGraphs;
import io.jccl.topo.PathType;
import io.jccl.topo.ServerLayout;
import io.jccl.topo.TopoGraph;
import io.jccl.topo.TopoPattern;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The cost model on the channels a call runs: placement, searched channels, shared or per-rank NICs. */
class ChannelShapeTest {
    private static final long BIG = 256L << 20;

    /** Links between servers 4x slower than inside and 10x longer. */
    private static CostModel twoLevel() {
        int na = Algorithm.values().length;
        double[][] base = new double[na][3];
        double[][] hop = new double[na][3];
        double[][] interHop = new double[na][3];
        for (int a = 0; a < na; a++) {
            base[a] = new double[] {4, 6, 8};
            hop[a] = new double[] {1, 1, 1};
            interHop[a] = new double[] {10, 10, 10};
        }
        return new CostModel(base, hop, interHop, new double[] {5, 5, 5}, new double[] {10, 10, 10},
                new double[] {80, 80, 80}, new double[] {2.5, 2.5, 2.5});
    }

    /** Rank r on server r mod servers. */
    private static ServerLayout interleaved(int servers, int perServer) {
        List<Integer> host = new ArrayList<>();
        for (int r = 0; r < servers * perServer; r++) {
            host.add(r % servers);
        }
        return ServerLayout.ofHosts(host);
    }

    private static double ring(Tuner t, Collective c, long count) {
        return t.modelChoice(c, count, 4, Set.of(Algorithm.RING), Set.of(Protocol.SIMPLE)).predictedMicros();
    }

    private static double tree(Tuner t, long count) {
        return t.modelChoice(Collective.ALL_REDUCE, count, 4, Set.of(Algorithm.TREE), Set.of(Protocol.SIMPLE)).predictedMicros();
    }

    private static Tuner tuner(ServerLayout l) {
        return Tuner.of(Config.defaults(), l, 64, twoLevel(), null);
    }

    /** Every node's graphs as {@code NodeGraphs.ofRanks}, or all its channels by one NIC port (0). */
    private static Layout searched(ServerLayout hosts, int channels, boolean sharedNic) {
        int perServer = hosts.perServer();
        NodeGraphs g = NodeGraphs.ofRanks(perServer, channels);
        if (sharedNic) {
            List<TopoGraph.Channel> ch = new ArrayList<>();
            for (TopoGraph.Channel c : g.ring().channels()) {
                ch.add(new TopoGraph.Channel(0, c.gpus(), 0));
            }
            TopoGraph ring = new TopoGraph(TopoPattern.RING, ch, 0, 0, PathType.LOC, PathType.NET, false, false);
            TopoGraph tree = new TopoGraph(TopoPattern.BALANCED_TREE, ch, 0, 0, PathType.LOC, PathType.NET, false, false);
            g = new NodeGraphs(ring, tree);
        }
        return Layout.connect(Collections.nCopies(hosts.servers(), g), hosts);
    }

    @Test
    void aRingOverInterleavedRanksCrossesBetweenNodesAtEveryHop() {
        ServerLayout contiguous = ServerLayout.uniform(4, 4);
        ServerLayout mixed = interleaved(4, 4);
        ChannelShape c = ChannelShape.of(Channels.flat(contiguous, 1), 2, contiguous, null);
        ChannelShape m = ChannelShape.of(Channels.flat(mixed, 1), 2, mixed, null);
        assertThat(c.ringCrossings()).isEqualTo(4);
        assertThat(m.ringCrossings()).isEqualTo(4);
        // Channels.flat follows the servers, so placement alone changes nothing; the ring 0..15
        // (what a flat layout without servers runs) crosses at all 16 edges.
        Channels identity = new Channels(16, new io.jccl.topo.Ring[] {io.jccl.topo.Ring.identity(16)},
                BinaryTrees.first(16), BinaryTrees.second(16)).withLayout(mixed);
        ChannelShape id = ChannelShape.of(identity, 2, mixed, null);
        assertThat(id.ringCrossings()).isEqualTo(16);
        // Each rank's link carries one ring edge out: no sharing, but 2x15 hops between nodes
        // for an all-reduce where the contiguous ring pays 2x3.
        assertThat(id.ringShare()).containsExactly(1);
        CostModel model = twoLevel();
        double small = 16 * 4;
        double onIdentity = model.time(Collective.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE, (long) small, 16, 1, id, 0.1, 1);
        double onServers = model.time(Collective.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE, (long) small, 16, 1, c, 0.1, 1);
        assertThat(onIdentity - onServers).isCloseTo(2 * 12 * (10 - 1), within(1e-6));
        // The binary tree over ranks 0..15 (0 -> 8 -> 4 -> 2 -> 1 deepest): interleaved, 0, 8 and
        // 4 share a server and the path crosses twice; contiguous, it crosses at 0-8, 8-4 and 4-2.
        assertThat(id.treeDepth(1, 1)).isEqualTo(4);
        assertThat(c.treeDepth(1, 1)).isEqualTo(4);
        assertThat(id.treeDepth(0, 1)).isEqualTo(2);
        assertThat(c.treeDepth(0, 1)).isEqualTo(3);
    }

    @Test
    void searchedChannelsOverInterleavedRanksCrossAsOftenAsContiguousOnes() {
        ServerLayout contiguous = ServerLayout.uniform(4, 4);
        ServerLayout mixed = interleaved(4, 4);
        Tuner flat = tuner(contiguous);
        Tuner onSearched = tuner(mixed).withTopology(searched(mixed, 4, false));
        Tuner contiguousSearched = tuner(contiguous).withTopology(searched(contiguous, 4, false));
        // Placement does not matter to searched channels: they are laid over each node's ranks.
        assertThat(ring(onSearched, Collective.ALL_REDUCE, 1024)).isCloseTo(ring(contiguousSearched, Collective.ALL_REDUCE, 1024), within(1e-9));
        assertThat(ring(onSearched, Collective.ALL_REDUCE, BIG / 4)).isCloseTo(ring(contiguousSearched, Collective.ALL_REDUCE, BIG / 4), within(1e-9));
        // Four channels leaving each node by four ranks, each its own link: four links' worth
        // between nodes where the flat channels all leave by the node's last rank.
        ChannelShape s = onSearched.shapeOf(4);
        assertThat(s.ringCrossings()).isEqualTo(4);
        assertThat(s.ringShare()).containsExactly(1, 1, 1, 1);
        assertThat(flat.shapeOf(4).ringShare()).containsExactly(4, 4, 4, 4);
        assertThat(ring(onSearched, Collective.ALL_REDUCE, BIG / 4)).isLessThan(ring(flat, Collective.ALL_REDUCE, BIG / 4) / 3);
    }

    @Test
    void channelsSharingOneNicShareItsBandwidth() {
        ServerLayout hosts = ServerLayout.uniform(4, 4);
        Tuner rails = tuner(hosts).withTopology(searched(hosts, 4, false));
        Tuner shared = tuner(hosts).withTopology(searched(hosts, 4, true));
        assertThat(shared.shapeOf(4).ringShare()).containsExactly(4, 4, 4, 4);
        double r = ring(rails, Collective.ALL_REDUCE, BIG / 4);
        double s = ring(shared, Collective.ALL_REDUCE, BIG / 4);
        // Bandwidth-bound: four rails carry four times what one NIC does.
        assertThat(s / r).isCloseTo(4, within(0.05));
        assertThat(tree(shared, BIG / 4)).isGreaterThan(tree(rails, BIG / 4) * 1.5);
        // Latency-bound calls pay the same hops either way.
        assertThat(ring(shared, Collective.ALL_REDUCE, 16)).isCloseTo(ring(rails, Collective.ALL_REDUCE, 16), within(0.1));
    }

    @Test
    void onOneNodeTheChannelsChangeNoPrediction() {
        CostModel host = CostModel.HOST;
        for (int n : new int[] {2, 3, 4, 7, 8, 16}) {
            Tuner t = Tuner.of(Config.defaults(), ServerLayout.single(n), 2, host, null);
            for (long count : new long[] {1, 256, 1 << 14, 1 << 20, 1 << 24}) {
                for (Collective c : List.of(Collective.ALL_REDUCE, Collective.ALL_GATHER, Collective.BROADCAST, Collective.ALL_TO_ALL)) {
                    for (Algorithm a : io.jccl.algo.Algorithms.supported(c)) {
                        if (Tuner.scheduleCosted(a)) {
                            continue;
                        }
                        for (Protocol p : Protocol.values()) {
                            long bytes = CallSize.bytes(c, count, 4, n);
                            int ch = t.channels(bytes, p);
                            double perCore = (double) n * io.jccl.algo.Algorithms.lanes(a, ch) / 2;
                            long tiles = t.tiles(c, a, p, bytes, ch, io.jccl.algo.Algorithms.lanes(a, ch));
                            double flat = host.time(c, a, p, bytes, n, 1, ch, t.treeDepth(), perCore, tiles);
                            double read = host.time(c, a, p, bytes, n, ch, t.shapeOf(ch), perCore, tiles);
                            assertThat(read).as("%s %s %s n=%d count=%d", c, a, p, n, count).isCloseTo(flat, within(1e-9));
                        }
                    }
                }
            }
        }
    }
}
