// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import io.jccl.JcclException;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The channel search on the reference nodes. */
class TopoSearchTest {
    private static final List<String> GPU_FILES = List.of("dgx-h100", "dgx-a100", "pcie-4gpu");

    private static Set<Integer> gpuSet(TopoGraph.Channel c) {
        Set<Integer> s = new HashSet<>();
        for (int g : c.gpus()) {
            s.add(g);
        }
        return s;
    }

    @Test
    void ringsInsideAnNvswitchNodeFillItsNvlinks() {
        for (String file : List.of("dgx-h100", "dgx-a100")) {
            TopoSystem s = TopoSystemTest.load(file);
            double nvlink = TopoSystemTest.gpu(s, 0).link(s.nodes(NodeType.NVS).get(0), LinkType.NVL).bw();
            TopoGraph ring = TopoSearch.search(s, TopoPattern.RING, false, TopoSearch.MAX_SEARCH_CHANNELS);
            assertThat(ring.typeIntra()).as(file).isEqualTo(PathType.NVL);
            for (TopoGraph.Channel c : ring.channels()) {
                assertThat(gpuSet(c)).as(file).hasSize(8);
                assertThat(c.netIn()).isEqualTo(-1);
            }
            // Each channel sends once out of and once into every GPU: as many channels as the NVLinks hold.
            assertThat(ring.nChannels() * ring.bwIntra()).as(file).isLessThanOrEqualTo(nvlink);
            assertThat((ring.nChannels() + 1) * ring.bwIntra()).as(file).isGreaterThan(nvlink);
        }
        TopoGraph h = TopoSearch.search(TopoSystemTest.load("dgx-h100"), TopoPattern.RING, false, TopoSearch.MAX_SEARCH_CHANNELS);
        assertThat(h.nChannels()).isEqualTo(6);
        assertThat(h.bwIntra()).isEqualTo(60.0);
        assertThat(h.channel(0).gpus()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        TopoGraph a = TopoSearch.search(TopoSystemTest.load("dgx-a100"), TopoPattern.RING, false, TopoSearch.MAX_SEARCH_CHANNELS);
        assertThat(a.nChannels()).isEqualTo(6);
        assertThat(a.bwIntra()).isEqualTo(40.0);
    }

    @Test
    void fastGraphsAreDuplicatedAsNcclDoes() {
        TopoGraph h = TopoSearch.search(TopoSystemTest.load("dgx-h100"), TopoPattern.RING, false);
        assertThat(h.nChannels()).isEqualTo(12);
        assertThat(h.bwIntra()).isEqualTo(30.0);
        assertThat(h.channel(6)).isEqualTo(h.channel(0));
        // Hopper, below 50 GB/s a channel and more than 4 channels: left as found.
        TopoGraph across = TopoSearch.search(TopoSystemTest.load("dgx-h100"), TopoPattern.RING, true);
        assertThat(across.nChannels()).isEqualTo(8);
        assertThat(across.bwInter()).isEqualTo(48.0);
        // Slower than 25 GB/s: left as found.
        TopoGraph pcie = TopoSearch.search(TopoSystemTest.load("pcie-4gpu"), TopoPattern.RING, false);
        assertThat(pcie.nChannels()).isEqualTo(1);
        assertThat(pcie.bwIntra()).isEqualTo(20.0);
        assertThat(pcie.typeIntra()).isEqualTo(PathType.PHB);
    }

    @Test
    void acrossNodesEveryNicCarriesAChannelFromItsOwnGpu() {
        for (String file : List.of("dgx-h100", "dgx-a100")) {
            TopoSystem s = TopoSystemTest.load(file);
            for (TopoPattern p : TopoPattern.values()) {
                TopoGraph g = TopoSearch.search(s, p, true, TopoSearch.MAX_SEARCH_CHANNELS);
                assertThat(g.nChannels()).as("%s %s", file, p).isEqualTo(8);
                Set<Integer> entered = new HashSet<>();
                for (TopoGraph.Channel c : g.channels()) {
                    entered.add(c.netIn());
                    // A channel enters at the GPU next to its port and only uses NVLink inside the node.
                    assertThat(c.gpu(0)).as("%s %s %s", file, p, c).isEqualTo(c.netIn());
                    assertThat(gpuSet(c)).hasSize(8);
                }
                assertThat(entered).as("%s %s", file, p).hasSize(8);
                assertThat(g.typeIntra()).isEqualTo(PathType.NVL);
                assertThat(g.typeInter()).isIn(PathType.PIX, PathType.PXB);
                if (p == TopoPattern.TREE) {
                    assertThat(g.channels()).allMatch(c -> c.netOut() == c.netIn());
                }
            }
        }
        TopoGraph tree = TopoSearch.search(TopoSystemTest.load("dgx-h100"), TopoPattern.TREE, true);
        assertThat(tree.channel(0)).hasToString("NET/0 GPU/0 GPU/1 GPU/2 GPU/3 GPU/4 GPU/5 GPU/6 GPU/7 NET/0");
        assertThat(tree.channel(3)).hasToString("NET/3 GPU/3 GPU/4 GPU/5 GPU/6 GPU/7 GPU/0 GPU/1 GPU/2 NET/3");
        // A ring leaves from its last GPU, by that GPU's own port (PXB) rather than through another GPU.
        TopoGraph ring = TopoSearch.search(TopoSystemTest.load("dgx-h100"), TopoPattern.RING, true);
        assertThat(ring.crossNic()).isTrue();
        for (TopoGraph.Channel c : ring.channels()) {
            assertThat(c.netOut()).isEqualTo(c.gpu(7));
        }
    }

    @Test
    void thePcieNodeUsesBothNicsAndCrossesTheCpuWhereItMust() {
        TopoSystem s = TopoSystemTest.load("pcie-4gpu");
        TopoGraph ring = TopoSearch.search(s, TopoPattern.RING, true);
        assertThat(ring.nChannels()).isEqualTo(2);
        assertThat(ring.channels()).extracting(TopoGraph.Channel::netIn).containsExactly(0, 1);
        assertThat(ring.typeInter()).isEqualTo(PathType.PIX);
        assertThat(ring.typeIntra()).isEqualTo(PathType.PHB);
        TopoGraph tree = TopoSearch.search(s, TopoPattern.SPLIT_TREE, false);
        assertThat(tree.nChannels()).isEqualTo(2);
        for (TopoGraph.Channel c : tree.channels()) {
            assertThat(gpuSet(c)).hasSize(4);
        }
    }

    /** No link carries more than it has: the channels' paths, charged as the search charges them. */
    @Test
    void noLinkIsOversubscribed() {
        for (String file : GPU_FILES) {
            TopoSystem s = TopoSystemTest.load(file);
            List<TopoNode> gpus = TopoSearch.gpusByRank(s);
            for (boolean inter : new boolean[] {false, true}) {
                for (TopoPattern p : TopoPattern.values()) {
                    TopoGraph g = TopoSearch.search(s, p, inter, TopoSearch.MAX_SEARCH_CHANNELS);
                    double[] used = new double[s.links().size()];
                    for (TopoGraph.Channel c : g.channels()) {
                        int n = c.size();
                        for (int i = 0; i + 1 < n; i++) {
                            charge(s, s.path(gpus.get(c.gpu(i)), gpus.get(c.gpu(i + 1))), g.bwIntra(), used);
                        }
                        if (inter) {
                            TopoNode in = netOf(s, c.netIn());
                            TopoNode out = netOf(s, c.netOut());
                            int exit = p == TopoPattern.RING ? n - 1 : p == TopoPattern.SPLIT_TREE ? Math.min(1, n - 1) : 0;
                            assertThat(s.path(in, gpus.get(c.gpu(0))).type()).isLessThanOrEqualTo(g.typeInter());
                            charge(s, s.path(in, gpus.get(c.gpu(0))), g.bwInter(), used);
                            charge(s, s.path(gpus.get(c.gpu(exit)), out), g.bwInter(), used);
                        } else if (p == TopoPattern.RING && n > 1) {
                            charge(s, s.path(gpus.get(c.gpu(n - 1)), gpus.get(c.gpu(0))), g.bwIntra(), used);
                        }
                    }
                    for (TopoLink l : s.links()) {
                        assertThat(used[l.id()]).as("%s inter=%s %s %s", file, inter, p, l).isLessThanOrEqualTo(l.bw() + 1e-6);
                    }
                }
            }
        }
    }

    private static TopoNode netOf(TopoSystem s, int dev) {
        return s.nodes(NodeType.NET).stream().filter(n -> n.net().dev() == dev).findFirst().orElseThrow();
    }

    private static void charge(TopoSystem s, TopoPath p, double bw, double[] used) {
        boolean intel = p.type() == PathType.PHB && p.links().get(0).from().type() == NodeType.GPU
                && p.nodes().stream().anyMatch(n -> n.type() == NodeType.CPU && n.cpu().vendor().equals("GenuineIntel"));
        for (TopoLink l : p.links()) {
            used[l.id()] += l.type() == LinkType.PCI && intel ? bw * 6 / 5 : bw;
        }
    }

    @Test
    void aLoneGpuHasOneChannelInsideItsNodeAndItsNicsAcross() {
        TopoSystem one = TopoSystem.fromXml(XmlElement.parse("""
                <system version="1">
                  <cpu numaid="0" arch="x86_64" vendor="AuthenticAMD" familyid="25" modelid="1">
                    <pci busid="0000:01:00.0" class="0x030200" link_speed="16.0 GT/s PCIe" link_width="16">
                      <gpu dev="0" sm="80" rank="0" gdr="1"/>
                    </pci>
                    <pci busid="0000:02:00.0" class="0x020000" link_speed="16.0 GT/s PCIe" link_width="16">
                      <nic><net name="mlx5_0" dev="0" speed="200000" gdr="1"/></nic>
                    </pci>
                  </cpu>
                </system>""", "one"));
        TopoGraph intra = TopoSearch.search(one, TopoPattern.RING, false, TopoSearch.MAX_SEARCH_CHANNELS);
        assertThat(intra.nChannels()).as("a channel that uses no link is not repeated").isEqualTo(1);
        assertThat(intra.typeIntra()).isEqualTo(PathType.LOC);
        TopoGraph across = TopoSearch.search(one, TopoPattern.TREE, true, TopoSearch.MAX_SEARCH_CHANNELS);
        // 200 Gb/s through a Gen4 x16 slot and the CPU: 24 GB/s per channel, once each way.
        assertThat(across.channel(0)).hasToString("NET/0 GPU/0 NET/0");
        assertThat(across.bwInter()).isEqualTo(24.0);
        assertThat(across.nChannels()).isEqualTo(1);
    }

    @Test
    void refusesSystemsItCannotLayChannelsOn() {
        assertThatThrownBy(() -> TopoSearch.search(TopoSystemTest.load("cpu-2socket"), TopoPattern.RING, false))
                .isInstanceOf(JcclException.class).hasMessageContaining("no GPU");
        TopoSystem noNic = TopoSystem.fromXml(XmlElement.parse("""
                <system version="1"><cpu numaid="0" arch="x86_64">
                  <pci busid="0000:01:00.0" class="0x030200" link_speed="" link_width="16"><gpu dev="0" sm="80" rank="0"/></pci>
                </cpu></system>""", "t"));
        assertThatThrownBy(() -> TopoSearch.search(noNic, TopoPattern.RING, true))
                .isInstanceOf(JcclException.class).hasMessageContaining("no network port");
    }

    @Test
    void summaryAndDuplicationArithmetic() {
        TopoGraph g = new TopoGraph(TopoPattern.RING, List.of(new TopoGraph.Channel(-1, new int[] {0, 1}, -1),
                new TopoGraph.Channel(-1, new int[] {1, 0}, -1), new TopoGraph.Channel(-1, new int[] {0, 1}, -1)),
                40.0, 40.0, PathType.NVL, PathType.NVL, false, false);
        TopoGraph d = g.duplicated(80, 4);
        assertThat(d.nChannels()).isEqualTo(4);
        assertThat(d.channel(3)).isEqualTo(g.channel(0));
        assertThat(d.bwIntra()).isCloseTo(20.0, within(1e-9));
        assertThat(g.duplicated(90, 32).nChannels()).as("Hopper, 3 channels of 40 GB/s").isEqualTo(6);
        assertThat(g.summary()).isEqualTo("pattern RING, crossNic 0, nChannels 3, bw 40.0/40.0 GB/s, type NVL/NVL, sameChannels 0");
        assertThat(Arrays.toString(g.channel(1).gpus())).isEqualTo("[1, 0]");
    }
}
