// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Plan;
import io.jccl.verify.Verifier;
import io.jccl.verify.VerifyResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Channels across nodes: connectRings, connectTrees, duplication, and schedules on them. */
class LayoutTest {
    private static final boolean FULL = Boolean.getBoolean("jccl.test.full");
    private static final int[] NODES = {1, 2, 4, 8, 16};
    private static final Map<String, Layout> CACHE = new ConcurrentHashMap<>();

    private static Layout layout(String file, int nodes, TopoPattern pattern) {
        return CACHE.computeIfAbsent(file + " " + nodes + " " + pattern,
                k -> Layout.of(TopoSystemTest.load(file), nodes, pattern));
    }

    /** Rank {@code node * 8 + gpu} of the 4 x H100 job. */
    private static int r(int node, int gpu) {
        return node * 8 + gpu;
    }

    @Test
    void fourH100NodesMakeTheTreeOfTheDesign() {
        for (TopoPattern p : List.of(TopoPattern.TREE, TopoPattern.SPLIT_TREE, TopoPattern.BALANCED_TREE)) {
            Layout l = layout("dgx-h100", 4, p);
            // Inside each node the channel enters at GPU0 from NIC 0 and chains GPU0 ... GPU7.
            assertThat(l.treeGraph(0).channel(0).netIn()).isZero();
            assertThat(l.treeGraph(0).channel(0).gpus()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
            int k = l.nChannels();
            TreeNode[] first = l.channels().tree(0, 2 * k);
            TreeNode[] second = l.channels().tree(k, 2 * k);
            for (int node = 0; node < 4; node++) {
                for (int g = 1; g < 8; g++) {
                    assertThat(first[r(node, g)].parent()).isEqualTo(r(node, g - 1));
                    if (g < 7) {
                        // The chain child first; GPU1 may also receive a child node (split, balanced).
                        assertThat(first[r(node, g)].children().get(0)).isEqualTo(r(node, g + 1));
                    } else {
                        assertThat(first[r(node, g)].isLeaf()).isTrue();
                    }
                    assertThat(second[r(node, g)].parent()).isEqualTo(r(node, g - 1));
                }
            }
            // Nodes: first tree 0 -> 2 (child slot 1), 2 -> 1 (slot 0) and 3 (slot 1); the second
            // mirrors it: 3 -> 1 (slot 1), 1 -> 2 (slot 0) and 0 (slot 1).
            int c0 = p.child0Index();
            int c1 = p.child1Index();
            assertThat(first[r(0, 0)].isRoot()).isTrue();
            assertThat(first[r(2, 0)].parent()).isEqualTo(r(0, c1));
            assertThat(first[r(1, 0)].parent()).isEqualTo(r(2, c0));
            assertThat(first[r(3, 0)].parent()).isEqualTo(r(2, c1));
            assertThat(second[r(3, 0)].isRoot()).isTrue();
            assertThat(second[r(1, 0)].parent()).isEqualTo(r(3, c1));
            assertThat(second[r(2, 0)].parent()).isEqualTo(r(1, c0));
            assertThat(second[r(0, 0)].parent()).isEqualTo(r(1, c1));
            // The GPU a child node reaches lists it after its chain child, first child slot first.
            if (p == TopoPattern.TREE) {
                assertThat(first[r(2, 0)].children()).containsExactly(r(2, 1), r(1, 0), r(3, 0));
                assertThat(first[r(0, 0)].children()).containsExactly(r(0, 1), r(2, 0));
            }
            TopoRanks node2 = l.ranks(2);
            assertThat(node2.treeToParent().get(0)).isEqualTo(r(2, 0));
            assertThat(node2.treeToChild0().get(0)).isEqualTo(r(2, c0));
            assertThat(node2.treeToChild1().get(0)).isEqualTo(r(2, c1));
            assertThat(l.treeDepthEstimate()).isEqualTo(7 + 2);
        }
        // The ring goes through each node's GPUs in order and on to the next node.
        Layout ring = layout("dgx-h100", 4, TopoPattern.BALANCED_TREE);
        int[] expected = new int[32];
        java.util.Arrays.setAll(expected, i -> i);
        assertThat(ring.channels().ring(0).order()).containsExactly(expected);
        assertThat(ring.ranks(1).ringRecv().get(0)).isEqualTo(8);
        assertThat(ring.ranks(1).ringSend().get(0)).isEqualTo(15);
    }

    @Test
    void everyChannelSpansEveryRankOnAnyNumberOfNodes() {
        for (String file : List.of("dgx-h100", "dgx-a100", "pcie-4gpu")) {
            for (int nodes : NODES) {
                for (TopoPattern p : List.of(TopoPattern.TREE, TopoPattern.SPLIT_TREE, TopoPattern.BALANCED_TREE)) {
                    Layout l = layout(file, nodes, p);
                    String what = file + " x" + nodes + " " + p;
                    int local = l.localRanks(0);
                    int k = l.nChannels();
                    Channels ch = l.channels();
                    assertThat(ch.nranks()).as(what).isEqualTo(nodes * local);
                    assertThat(ch.count()).as(what).isEqualTo(2 * k);
                    assertThat(ch.treePairs()).as(what).isEqualTo(k);
                    for (int c = 0; c < k; c++) {
                        Ring ring = ch.ring(c);
                        assertThat(ch.ring(c + k)).isEqualTo(ring);
                        for (int n = 0; n < nodes; n++) {
                            // connectRings: node n's sender hands the ring to node n+1's receiver.
                            int send = l.ranks(n).ringSend().get(c);
                            int recv = l.ranks((n + 1) % nodes).ringRecv().get(c);
                            assertThat(ring.at(ring.positionOf(send) + 1)).as("%s channel %d node %d", what, c, n).isEqualTo(recv);
                            for (int i = 0; i < local; i++) {
                                assertThat(ring.at(n * local + i) / local).as(what).isEqualTo(n);
                            }
                        }
                        // Roots: node 0's head for the first tree, the mirrored or shifted root's for the second.
                        TreeNode[] first = ch.tree(c, 2 * k);
                        TreeNode[] second = ch.tree(c + k, 2 * k);
                        int secondRootNode = nodes % 2 == 1 && nodes > 1 ? 1 : nodes - 1;
                        assertThat(first[l.ranks(0).treeToParent().get(c)].isRoot()).as(what).isTrue();
                        assertThat(second[l.ranks(secondRootNode).treeToParent().get(c)].isRoot()).as(what).isTrue();
                        int nodeDepth = BinaryTrees.depth(BinaryTrees.first(nodes));
                        int depth = BinaryTrees.depth(first);
                        switch (p) {
                            case TREE -> assertThat(depth).as(what).isEqualTo(local - 1 + nodeDepth);
                            case SPLIT_TREE -> assertThat(depth).as(what).isEqualTo(local - 1 + (local > 1 ? 2 : 1) * nodeDepth);
                            default -> assertThat(depth).as(what).isBetween(local - 1 + nodeDepth, local - 1 + 2 * nodeDepth);
                        }
                        for (TreeNode t : first) {
                            assertThat(t.children()).as(what).hasSizeLessThanOrEqualTo(3);
                        }
                    }
                    assertThat(l.treeDepthEstimate()).isEqualTo(local - 1 + (31 - Integer.numberOfLeadingZeros(nodes)));
                }
            }
        }
    }

    @Test
    void nvlinkNodesKeepTheirRingsOnNvlink() {
        for (String file : List.of("dgx-h100", "dgx-a100")) {
            nvlinkRings(file);
        }
    }

    private static void nvlinkRings(String file) {
        TopoSystem h = TopoSystemTest.load(file);
        List<TopoNode> gpus = TopoSearch.gpusByRank(h);
        for (int nodes : NODES) {
            Layout l = layout(file, nodes, TopoPattern.BALANCED_TREE);
            for (int c = 0; c < l.nChannels(); c++) {
                Ring ring = l.channels().ring(c);
                for (int i = 0; i < ring.size(); i++) {
                    int a = ring.at(i);
                    int b = ring.at(i + 1);
                    if (a / 8 == b / 8 && nodes > 1 || nodes == 1) {
                        assertThat(h.path(gpus.get(a % 8), gpus.get(b % 8)).type()).as("%s x%d", file, nodes)
                                .isEqualTo(PathType.NVL);
                    }
                }
            }
        }
    }

    /**
     * Nodes of CPU ranks (NodeGraphs.ofRanks: channel c enters each node at local rank c), placed
     * contiguously and interleaved (rank r on node r mod N), on 1 to 16 nodes: ring and trees of
     * every collective they plan, checked by the verifier, and every local rank leaving its node
     * on exactly one of the searched channels.
     */
    @Test
    void schedulesOnRankChannelsOfAnyPlacementPassTheVerifier() {
        List<String> failures = new ArrayList<>();
        int cases = 0;
        for (int nodes : NODES) {
            for (boolean interleaved : new boolean[] {false, true}) {
                int local = 3;
                List<Integer> hostOf = new ArrayList<>();
                for (int r = 0; r < nodes * local; r++) {
                    hostOf.add(interleaved ? r % nodes : r / local);
                }
                ServerLayout hosts = ServerLayout.ofHosts(hostOf);
                Layout l = Layout.connect(java.util.Collections.nCopies(nodes, NodeGraphs.ofRanks(local, local)), hosts);
                int n = l.nranks();
                String what = nodes + " nodes" + (interleaved ? " interleaved" : "");
                if (nodes > 1) {
                    java.util.Set<Integer> leaving = new java.util.HashSet<>();
                    for (int c = 0; c < local; c++) {
                        Ring ring = l.channels(local).ring(c);
                        for (int p = 0; p < n; p++) {
                            if (hosts.serverOf(ring.at(p)) != hosts.serverOf(ring.at(p + 1)) && hosts.serverOf(ring.at(p)) == 0) {
                                leaving.add(ring.at(p));
                            }
                        }
                    }
                    assertThat(leaving).as(what).hasSize(local);
                }
                for (Collective coll : List.of(Collective.ALL_REDUCE, Collective.ALL_GATHER, Collective.REDUCE_SCATTER,
                        Collective.BROADCAST, Collective.REDUCE)) {
                    List<Algorithm> algos = coll == Collective.ALL_REDUCE
                            ? List.of(Algorithm.RING, Algorithm.TREE, Algorithm.SPLIT_TREE) : List.of(Algorithm.RING);
                    for (Algorithm a : algos) {
                        for (int channels : new int[] {1, local + 1}) {
                            Call call = new Call(coll, n, n + 3, coll.rooted() ? n / 2 + 1 : 0);
                            Plan plan = Algorithms.plan(call, a, l.channels(channels), 2);
                            VerifyResult res = Verifier.collective(plan, call, false, 2);
                            cases++;
                            if (!res.ok()) {
                                failures.add(what + " " + coll + " " + a.id() + " x" + channels + ": " + res.describe());
                            }
                        }
                    }
                }
            }
        }
        assertThat(failures).isEmpty();
        assertThat(cases).isGreaterThan(100);
    }

    @Test
    void schedulesOnSearchedChannelsPassTheVerifier() {
        List<String> failures = new ArrayList<>();
        int cases = 0;
        for (String file : List.of("dgx-h100", "pcie-4gpu")) {
            for (int nodes : NODES) {
                Layout l = layout(file, nodes, nodes % 2 == 0 ? TopoPattern.BALANCED_TREE : TopoPattern.SPLIT_TREE);
                int n = l.nranks();
                boolean big = n > 32 && !FULL;
                List<Collective> collectives = big ? List.of(Collective.ALL_REDUCE)
                        : List.of(Collective.ALL_REDUCE, Collective.ALL_GATHER, Collective.REDUCE_SCATTER,
                        Collective.BROADCAST, Collective.REDUCE);
                for (Collective coll : collectives) {
                    List<Algorithm> algos = coll == Collective.ALL_REDUCE
                            ? List.of(Algorithm.RING, Algorithm.TREE, Algorithm.SPLIT_TREE) : List.of(Algorithm.RING);
                    for (Algorithm a : algos) {
                        long[] counts = big ? new long[] {n + 3} : new long[] {1, n + 3};
                        for (long count : counts) {
                            Call call = new Call(coll, n, count, coll.rooted() ? n / 2 + 1 : 0);
                            Plan plan = Algorithms.plan(call, a, l.channels(), 2);
                            for (boolean inPlace : new boolean[] {false, true}) {
                                VerifyResult res = Verifier.collective(plan, call, inPlace, 2);
                                cases++;
                                if (!res.ok()) {
                                    failures.add(file + " x" + nodes + " " + coll + " " + a.id() + " count " + count
                                            + (inPlace ? " in place" : "") + ": " + res.describe());
                                }
                            }
                        }
                    }
                }
            }
        }
        assertThat(failures).isEmpty();
        assertThat(cases).isGreaterThan(100);
    }

    @Test
    void nodesOfDifferentKindsConnect() {
        TopoGraph hRing = TopoSearch.search(TopoSystemTest.load("dgx-h100"), TopoPattern.RING, true);
        TopoGraph hTree = TopoSearch.search(TopoSystemTest.load("dgx-h100"), TopoPattern.TREE, true);
        TopoGraph pRing = TopoSearch.search(TopoSystemTest.load("pcie-4gpu"), TopoPattern.RING, true);
        TopoGraph pTree = TopoSearch.search(TopoSystemTest.load("pcie-4gpu"), TopoPattern.TREE, true);
        Layout l = Layout.connect(List.of(hRing, pRing, hRing), List.of(hTree, pTree, hTree));
        assertThat(l.nranks()).isEqualTo(20);
        assertThat(l.firstRank(1)).isEqualTo(8);
        assertThat(l.firstRank(2)).isEqualTo(12);
        assertThat(l.nChannels()).as("the fewest any node has").isEqualTo(2);
        assertThat(l.ranks(1).ringRecv()).containsExactly(8, 10);
        Call call = new Call(Collective.ALL_REDUCE, 20, 41, 0);
        for (Algorithm a : List.of(Algorithm.RING, Algorithm.TREE, Algorithm.SPLIT_TREE)) {
            VerifyResult res = Verifier.collective(Algorithms.plan(call, a, l.channels(), 3), call, false, 2);
            assertThat(res.ok()).as(a.id() + ": " + res.describe()).isTrue();
        }
        assertThatThrownBy(() -> Layout.connect(List.of(hRing), List.of())).hasMessageContaining("1 ring graphs and 0 tree graphs");
        assertThatThrownBy(() -> Layout.of(TopoSystemTest.load("dgx-h100"), 2, TopoPattern.RING))
                .hasMessageContaining("not a tree pattern");
        assertThatThrownBy(() -> Layout.of(TopoSystemTest.load("dgx-h100"), 0, TopoPattern.TREE)).hasMessageContaining("nNodes 0");
    }
}
