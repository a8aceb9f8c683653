// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.engine.JobChannels;
import io.jccl.topo.Layout;
import io.jccl.topo.NodeGraphs;
import io.jccl.topo.ServerLayout;
import io.jccl.topo.TopoPattern;
import io.jccl.topo.TopoSystem;
import io.jccl.topo.TreeNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The channels a communicator runs come from its nodes at init: rings that leave each node by a
 * different rank per channel, NCCL's node-level trees with chains, ranks placed on hosts in any
 * order, and a node's topology file standing its ranks for the file's GPUs.
 */
class SearchedChannelsTest {
    private static final Path H100 = Path.of("src/test/resources/topo/dgx-h100.xml");

    @TempDir
    Path dir;

    @Test
    void everyRankOfANodeCarriesAChannelBetweenNodes() {
        Layout l = JobChannels.of(Config.defaults(), ServerLayout.uniform(2, 4));
        assertThat(l.nChannels()).isEqualTo(4);
        assertThat(l.describeRings()).startsWith("Channel 00/08 : 0 1 2 3 4 5 6 7", "Channel 01/08 : 1 2 3 0 5 6 7 4",
                "Channel 02/08 : 2 3 0 1 6 7 4 5", "Channel 03/08 : 3 0 1 2 7 4 5 6");
        // The rank that sends each channel to the other node: a different one of node 0 per channel.
        Set<Integer> leaving = new HashSet<>();
        for (int c = 0; c < 4; c++) {
            int[] order = l.channels(4).ring(c).order();
            leaving.add(order[3]);
            assertThat(order[3]).isLessThan(4);
            assertThat(order[4]).isGreaterThanOrEqualTo(4);
        }
        assertThat(leaving).containsExactlyInAnyOrder(0, 1, 2, 3);
        // Trees over 2 nodes: node 0's chain root, node 1's chain below the GPU its slot names.
        TreeNode[] first = l.channels(4).tree(0, 2);
        assertThat(first[0].isRoot()).isTrue();
        assertThat(first[1].parent()).isZero();
        assertThat(first[3].parent()).isEqualTo(2);
        // Node 1 is the root node's only child, slot 1, which a balanced tree serves at the chain's head.
        assertThat(first[4].parent()).isZero();
        assertThat(l.describeTrees(0)).startsWith("Trees [0] 1/4/-1->0->-1 [1] -1/-1/-1->0->3");
    }

    @Test
    void oneNodeWithoutAFileKeepsTheFlatChannels() {
        assertThat(JobChannels.of(Config.defaults(), ServerLayout.single(4))).isNull();
    }

    @Test
    void ranksPlacedInterleavedFormNodesOfTheirHosts() {
        ServerLayout hosts = ServerLayout.ofHosts(List.of("a", "b", "a", "b", "a", "b"));
        Layout l = JobChannels.of(Config.defaults(), hosts);
        assertThat(l.channels(3).ring(0).order()).containsExactly(0, 2, 4, 1, 3, 5);
        assertThat(l.channels(3).ring(1).order()).containsExactly(2, 4, 0, 3, 5, 1);
        assertThat(l.channels(3).layout()).isEqualTo(hosts);
    }

    @Test
    void aJobOnInterleavedHostsReducesRightOnEveryAlgorithmOfTheChannels() {
        List<String> hosts = List.of("a", "b", "c", "a", "b", "c");
        for (String algo : List.of("ring", "tree", "splittree")) {
            List<Config> configs = new ArrayList<>();
            for (String h : hosts) {
                configs.add(Config.defaults().withAlgorithms(algo).withHostId(h).withChannels(3, 3));
            }
            assertSums(Communicator.initAll(configs), 100_003);
        }
    }

    @Test
    void fourNodesOfEightH100sPrintTheRingsAndTreesOfTheDesignAndReduceRight() throws IOException {
        Path log = dir.resolve("graph.log");
        Config base = Config.defaults().withTopoFile(H100.toString()).withDebug(Config.Debug.INFO)
                .withDebugSubsys("GRAPH").withDebugFile(log.toString());
        Layout expected = Layout.of(TopoSystem.load(H100), 4, TopoPattern.BALANCED_TREE);
        for (String algo : List.of("ring", "tree")) {
            List<Config> configs = new ArrayList<>();
            for (int r = 0; r < 32; r++) {
                configs.add(base.withAlgorithms(algo).withHostId("node" + r / 8).withChannels(2, 2));
            }
            assertSums(Communicator.initAll(configs), 4099);
        }
        List<String> lines = Files.readAllLines(log);
        for (String ring : expected.describeRings()) {
            assertThat(lines).anySatisfy(line -> assertThat(line).endsWith(ring));
        }
        // Rank 0 roots the first tree with node 2's head (rank 16) as its child node; rank 8 (node
        // 1's head) hangs below node 2's GPU1, which serves child slot 0 in a balanced tree.
        assertThat(lines).anySatisfy(line -> assertThat(line).endsWith(expected.describeTrees(0)));
        assertThat(lines).anySatisfy(line -> assertThat(line).endsWith(expected.describeTrees(8)));
        assertThat(expected.describeTrees(0)).startsWith("Trees [0] 1/16/-1->0->-1");
        assertThat(expected.describeTrees(8)).startsWith("Trees [0] 9/-1/-1->8->17");
        assertThat(expected.describeRings().getFirst()).startsWith("Channel 00/").contains(" : 0 1 2 3 4 5 6 7 8 ");
    }

    @Test
    void aTopologyFileOfOtherGpusThanRanksIsRefusedNamingIt() {
        List<Config> configs = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            configs.add(Config.defaults().withTopoFile(H100.toString()));
        }
        assertThatThrownBy(() -> Communicator.initAll(configs)).isInstanceOf(JcclException.class)
                .hasMessageContaining("JCCL_TOPO_FILE").hasMessageContaining("8 GPUs for the 4 ranks");
    }

    @Test
    void nodeGraphsTravelWhole() {
        NodeGraphs g = NodeGraphs.search(TopoSystem.load(H100), 8, true);
        NodeGraphs back = NodeGraphs.decode(g.encode());
        assertThat(back.ring().channels()).isEqualTo(g.ring().channels());
        assertThat(back.tree().channels()).isEqualTo(g.tree().channels());
        assertThat(back.tree().pattern()).isEqualTo(g.tree().pattern());
        assertThatThrownBy(() -> NodeGraphs.decode("RING 0:1,x:0".getBytes())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void graphsDumpedByOneJobDriveAnotherAsNcclsGraphFilesDo() throws IOException {
        Path graphs = dir.resolve("graphs.xml");
        Config dumping = Config.defaults().withTopoFile(H100.toString()).withGraphDumpFile(graphs.toString());
        Layout searched = JobChannels.of(dumping, ServerLayout.uniform(2, 8));
        String xml = Files.readString(graphs);
        assertThat(xml).contains("<graphs version=\"1\">").contains("<graph id=\"0\" pattern=\"4\"")
                .contains("<net dev=\"0\"/>").contains("<gpu dev=\"7\"/>");
        Layout loaded = JobChannels.of(Config.defaults().withGraphFile(graphs.toString()), ServerLayout.uniform(2, 8));
        assertThat(loaded.describeRings()).isEqualTo(searched.describeRings());
        assertThat(loaded.describeTrees(9)).isEqualTo(searched.describeTrees(9));
        // A graph file of another node size, and one that is not a graph file, are refused naming the setting.
        assertThatThrownBy(() -> JobChannels.of(Config.defaults().withGraphFile(graphs.toString()), ServerLayout.uniform(2, 4)))
                .isInstanceOf(JcclException.class).hasMessageContaining("JCCL_GRAPH_FILE").hasMessageContaining("8 GPUs for the 4 ranks");
        assertThatThrownBy(() -> JobChannels.of(Config.defaults().withGraphFile(H100.toString()), ServerLayout.uniform(2, 8)))
                .isInstanceOf(JcclException.class).hasMessageContaining("JCCL_GRAPH_FILE").hasMessageContaining("not <graphs>");
    }

    /** An all-reduce of {@code count} ints on every rank (rank r gives r + i) comes out exact everywhere. */
    private static void assertSums(Communicator[] comms, int count) {
        int n = comms.length;
        try (Arena arena = Arena.ofShared()) {
            List<HostStream> streams = new ArrayList<>();
            MemorySegment[] bufs = new MemorySegment[n];
            for (int r = 0; r < n; r++) {
                streams.add(new HostStream());
                bufs[r] = arena.allocate(4L * count);
                for (int i = 0; i < count; i++) {
                    bufs[r].setAtIndex(ValueLayout.JAVA_INT, i, r + i);
                }
            }
            Group.start();
            for (int r = 0; r < n; r++) {
                comms[r].allReduce(bufs[r], bufs[r], count, DataType.INT32, RedOp.SUM, streams.get(r));
            }
            Group.end();
            for (int r = 0; r < n; r++) {
                streams.get(r).synchronize();
                for (int i = 0; i < count; i++) {
                    assertThat(bufs[r].getAtIndex(ValueLayout.JAVA_INT, i)).as("rank %d element %d", r, i)
                            .isEqualTo(n * (n - 1) / 2 + n * i);
                }
            }
            streams.forEach(HostStream::close);
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
        }
    }
}
