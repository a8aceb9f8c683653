// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jccl.Config;
import io.jccl.JcclException;
import io.jccl.cuda.CudaGpuProbe;
import io.jccl.topo.GpuProbe;
import io.jccl.topo.Layout;
import io.jccl.topo.NodeGraphs;
import io.jccl.topo.ServerLayout;
import io.jccl.topo.TopoGraph;
import io.jccl.topo.XmlElement;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CUDA engine's path without a topology file (JobChannels with {@link JobChannels.Gpus}): the
 * node is detected from a probe's GPUs and searched, each rank standing for the GPU of its bus id.
 * The probe here is made up (no driver); FakeDriverEngineTest runs the same path on the fake
 * driver and NVML.
 */
class GpuProbeChannelsTest {
    /** Four GPUs whose NVLinks make the ring 0-2-1-3 (two links each way), in a domain no machine has. */
    static final List<String> BUS = List.of("0001:18:00.0", "0001:2a:00.0", "0001:3b:00.0", "0001:4c:00.0");
    static final int[][] NVLINKED = {{2, 3}, {2, 3}, {0, 1}, {0, 1}};

    static GpuProbe cubeRing() {
        List<GpuProbe.Gpu> gpus = new ArrayList<>();
        for (int g = 0; g < 4; g++) {
            List<GpuProbe.NvLink> links = new ArrayList<>();
            for (int peer : NVLINKED[g]) {
                links.add(new GpuProbe.NvLink(BUS.get(peer), 2, "0x030200"));
            }
            gpus.add(new GpuProbe.Gpu(BUS.get(g), g, 80, links));
        }
        return () -> gpus;
    }

    /** Rank r on device devOf[r]: the GPUs' bus ids the way the driver writes them (upper case). */
    static JobChannels.Gpus ranksOn(int... devOf) {
        return new JobChannels.Gpus(cubeRing(), Arrays.stream(devOf).mapToObj(d -> BUS.get(d).toUpperCase()).toList());
    }

    @Test
    void ringsFollowTheNvLinksOfEachRanksGpu() {
        int[] devOf = {3, 1, 0, 2};
        NodeGraphs g = JobChannels.offered(Config.defaults(), ServerLayout.single(4), 0, ranksOn(devOf));
        assertEveryRingHopNvLinked(g, devOf);
        // In rank order (GPUs 3 1 0 2) two hops are PCI: not what the search takes.
        assertThat(g.ring().channel(0).gpus()).isNotEqualTo(new int[] {0, 1, 2, 3});
        Layout l = JobChannels.of(Config.defaults(), ServerLayout.single(4), ranksOn(devOf));
        assertThat(l.describeRings().getFirst()).matches("Channel 00/\\d\\d : 0 [0-3] [0-3] [0-3]");
    }

    /** Every hop of every ring of {@code g} joins two NVLinked GPUs, rank r being on GPU devOf[r]. */
    private static void assertEveryRingHopNvLinked(NodeGraphs g, int[] devOf) {
        assertThat(g).isNotNull();
        assertThat(g.ring().nChannels()).isGreaterThanOrEqualTo(1);
        for (TopoGraph.Channel c : g.ring().channels()) {
            int[] order = c.gpus();
            for (int i = 0; i < order.length; i++) {
                int a = devOf[order[i]];
                int b = devOf[order[(i + 1) % order.length]];
                assertThat(NVLINKED[a]).as("ring %s: rank %d (GPU %d) to rank %d (GPU %d)", Arrays.toString(order),
                        order[i], a, order[(i + 1) % order.length], b).contains(b);
            }
        }
    }

    @Test
    void aTopologyFilesGpusAreMatchedToTheRanksByBusId(@TempDir Path dir) {
        // The file lists the four GPUs with rank attributes 0-3 in bus order; the ranks are on
        // GPUs 3 1 0 2. In rank order the ring 0-2-1-3 of the file would run GPU 0 to GPU 1 over PCI.
        Path file = dir.resolve("topo.xml");
        JobChannels.offered(Config.defaults().withTopoDumpFile(file.toString()), ServerLayout.single(4), 0, ranksOn(0, 1, 2, 3));
        Config c = Config.defaults().withTopoFile(file.toString());
        int[] devOf = {3, 1, 0, 2};
        assertEveryRingHopNvLinked(JobChannels.offered(c, ServerLayout.single(4), 0, ranksOn(devOf)), devOf);
        // every rank of the node reads the file and offers the same graphs
        assertThat(JobChannels.offered(c, ServerLayout.single(4), 2, ranksOn(devOf)).encode())
                .isEqualTo(JobChannels.offered(c, ServerLayout.single(4), 0, ranksOn(devOf)).encode());
        // two ranks on GPUs 2 and 0 of the four: the file's other GPUs are left out
        NodeGraphs two = JobChannels.offered(c, ServerLayout.single(2), 0, ranksOn(2, 0));
        assertThat(two.localRanks()).isEqualTo(2);
        // a node whose GPUs the file lacks, or ranks sharing a GPU: the file's GPUs in rank order
        var elsewhere = new JobChannels.Gpus(cubeRing(), List.of("0002:18:00.0", "0002:2a:00.0", "0002:3b:00.0", "0002:4c:00.0"));
        NodeGraphs inRankOrder = JobChannels.offered(c, ServerLayout.single(4), 0);
        assertThat(JobChannels.offered(c, ServerLayout.single(4), 0, elsewhere).encode()).isEqualTo(inRankOrder.encode());
        assertThat(JobChannels.offered(c, ServerLayout.single(4), 0, ranksOn(0, 0, 1, 1)).encode()).isEqualTo(inRankOrder.encode());
    }

    @Test
    void theDetectedNodeIsDumpedWithEachRanksGpu(@TempDir Path dir) {
        Path dump = dir.resolve("topo.xml");
        Config c = Config.defaults().withTopoDumpFile(dump.toString());
        JobChannels.offered(c, ServerLayout.single(2), 0, ranksOn(2, 0));
        XmlElement system = XmlElement.read(dump);
        List<String> ranks = new ArrayList<>();
        for (XmlElement pci : system.descendants()) {
            for (XmlElement gpu : pci.name().equals("pci") ? pci.children("gpu") : List.<XmlElement>of()) {
                ranks.add(pci.attr("busid").orElseThrow() + "=" + gpu.attr("rank").orElse("none"));
            }
        }
        // rank 0 on GPU 2, rank 1 on GPU 0; the GPUs no rank uses are kept without a rank
        assertThat(ranks).containsExactlyInAnyOrder("0001:18:00.0=1", "0001:2a:00.0=none", "0001:3b:00.0=0", "0001:4c:00.0=none");
    }

    @Test
    void withoutADetectableNodeTheRanksLayOutAsBefore() {
        Config c = Config.defaults();
        // the host engine gives no GPUs: flat channels on one node, as before
        assertThat(JobChannels.offered(c, ServerLayout.single(4), 0)).isNull();
        assertThat(JobChannels.of(c, ServerLayout.single(4))).isNull();
        // ranks sharing GPUs, a single rank, a GPU the probe does not list, an unknown bus id
        assertThat(JobChannels.offered(c, ServerLayout.single(4), 0, ranksOn(0, 0, 1, 1))).isNull();
        assertThat(JobChannels.offered(c, ServerLayout.single(1), 0, ranksOn(0))).isNull();
        var hidden = new JobChannels.Gpus(cubeRing(), List.of(BUS.get(0), "0001:99:00.0"));
        assertThat(JobChannels.offered(c, ServerLayout.single(2), 0, hidden)).isNull();
        var unknown = new JobChannels.Gpus(cubeRing(), Arrays.asList(BUS.get(0), null));
        assertThat(JobChannels.offered(c, ServerLayout.single(2), 0, unknown)).isNull();
        // only the node's lowest rank searches (its offer is the node's)
        assertThat(JobChannels.offered(c, ServerLayout.single(4), 1, ranksOn(0, 1, 2, 3))).isNull();
    }

    @Test
    void eachNodeOfSeveralIsDetectedOrKeepsItsRanksLayout() {
        // two nodes of two ranks: node 0 on GPUs 0 and 2 (NVLinked), node 1 on GPUs 1 and 3; whether
        // this machine has a port to search through or not, the job connects and keeps every rank
        Layout l = JobChannels.of(Config.defaults(), ServerLayout.uniform(2, 2), ranksOn(0, 2, 1, 3));
        assertThat(l.nranks()).isEqualTo(4);
        assertThat(l.describeRings()).allSatisfy(r -> assertThat(r).matches("Channel \\d\\d/\\d\\d :( [0-3]){4}"));
    }

    @Test
    void aTopologyFileStillWins() {
        Config c = Config.defaults().withTopoFile("src/test/resources/topo/pcie-4gpu.xml");
        NodeGraphs fromFile = JobChannels.offered(c, ServerLayout.single(4), 0);
        NodeGraphs withGpus = JobChannels.offered(c, ServerLayout.single(4), 0, ranksOn(0, 1, 2, 3));
        assertThat(withGpus.encode()).isEqualTo(fromFile.encode());
    }

    @Test
    void badInputIsRefusedNamingIt() {
        assertThatThrownBy(() -> JobChannels.offered(Config.defaults(), ServerLayout.single(4), 0, ranksOn(0, 1)))
                .isInstanceOf(JcclException.class).hasMessageContaining("rank 0").hasMessageContaining("GPU bus ids")
                .hasMessageContaining("2 for the 4 ranks");
        var bad = new JobChannels.Gpus(cubeRing(), List.of(BUS.get(0), "not-a-bus-id"));
        assertThatThrownBy(() -> JobChannels.offered(Config.defaults(), ServerLayout.single(2), 0, bad))
                .isInstanceOf(JcclException.class).hasMessageContaining("rank 1").hasMessageContaining("PCI bus id")
                .hasMessageContaining("not-a-bus-id");
    }

    @Test
    void busIdsTakeNcclsForm() {
        assertThat(CudaGpuProbe.busId("0000:1A:00.0")).isEqualTo("0000:1a:00.0");
        assertThat(CudaGpuProbe.busId("00000000:1A:00.0")).isEqualTo("0000:1a:00.0");
        assertThat(CudaGpuProbe.busId(" 0001:b:0.1 ")).isEqualTo("0001:0b:00.1");
        for (String bad : Arrays.asList("", "0000:1a:00", "0000:1g:00.0", "0000:1a:00.8", "000000000:1a:00.0", null)) {
            assertThatThrownBy(() -> CudaGpuProbe.busId(bad)).as(String.valueOf(bad)).isInstanceOf(JcclException.class)
                    .hasMessageContaining("PCI bus id");
        }
    }

    @Test
    void dumpingToAnUnwritablePlaceIsRefused(@TempDir Path dir) throws Exception {
        Path notADir = Files.writeString(dir.resolve("file"), "");
        Config c = Config.defaults().withTopoDumpFile(notADir.resolve("topo.xml").toString());
        assertThatThrownBy(() -> JobChannels.offered(c, ServerLayout.single(2), 0, ranksOn(0, 1)))
                .isInstanceOf(JcclException.class).hasMessageContaining("topology dump file");
    }
}
