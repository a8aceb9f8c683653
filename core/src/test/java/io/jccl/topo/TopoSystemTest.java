// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import io.jccl.Config;
import io.jccl.JcclException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The system graph of the reference files: nodes, link bandwidths, path types, the XML round trip. */
class TopoSystemTest {
    static final Path DIR = Path.of("src/test/resources/topo");
    static final List<String> FILES = List.of("dgx-h100", "dgx-a100", "pcie-4gpu", "cpu-2socket");

    static TopoSystem load(String name) {
        return TopoSystem.load(DIR.resolve(name + ".xml"));
    }

    static TopoNode gpu(TopoSystem s, int i) {
        return s.nodes(NodeType.GPU).get(i);
    }

    static TopoNode net(TopoSystem s, int i) {
        return s.nodes(NodeType.NET).get(i);
    }

    @Test
    void referenceFilesHaveTheirHardware() {
        assertThat(load("dgx-h100").summary()).isEqualTo("8 GPU, 24 PCI, 1 NVS, 2 CPU, 8 NIC, 8 NET");
        assertThat(load("dgx-a100").summary()).isEqualTo("8 GPU, 16 PCI, 1 NVS, 2 CPU, 8 NIC, 8 NET");
        assertThat(load("pcie-4gpu").summary()).isEqualTo("4 GPU, 2 PCI, 1 CPU, 2 NIC, 2 NET");
        assertThat(load("cpu-2socket").summary()).isEqualTo("2 CPU, 2 NIC, 2 NET");
    }

    @Test
    void linkBandwidthsFollowNccl() {
        TopoSystem h = load("dgx-h100");
        TopoNode nvs = h.nodes(NodeType.NVS).get(0);
        // 18 NVLink4 links (5 + 4 + 4 + 5 to four NVSwitch chips) of 20.6 GB/s, one link to the NVS node.
        assertThat(gpu(h, 3).link(nvs, LinkType.NVL).bw()).isCloseTo(18 * 20.6, within(1e-9));
        assertThat(nvs.link(gpu(h, 3), LinkType.NVL).bw()).isCloseTo(18 * 20.6, within(1e-9));
        // PCIe Gen5 x16: 16 lanes x 32 GT/s: 48 GB/s; a 400 Gb/s port: 50 GB/s; Sapphire Rapids UPI: 22.
        assertThat(gpu(h, 0).links().stream().filter(l -> l.type() == LinkType.PCI).findFirst().orElseThrow().bw()).isEqualTo(48.0);
        assertThat(net(h, 0).links().get(0).bw()).isEqualTo(50.0);
        TopoNode c0 = h.nodes(NodeType.CPU).get(0);
        assertThat(c0.link(h.nodes(NodeType.CPU).get(1), LinkType.SYS).bw()).isEqualTo(22.0);

        TopoSystem a = load("dgx-a100");
        assertThat(gpu(a, 0).link(a.nodes(NodeType.NVS).get(0), LinkType.NVL).bw()).isEqualTo(12 * 20.0);
        assertThat(net(a, 0).net().bw()).isEqualTo(25.0);
        assertThat(a.nodes(NodeType.CPU).get(0).link(a.nodes(NodeType.CPU).get(1), LinkType.SYS).bw()).isEqualTo(16.0);

        TopoSystem c = load("cpu-2socket");
        assertThat(c.nodes(NodeType.CPU).get(0).link(c.nodes(NodeType.CPU).get(1), LinkType.SYS).bw()).isEqualTo(10.0);
        // 25 Gb/s behind a Gen3 x8 slot: 8 lanes x 6 GB/s per 8 lanes.
        assertThat(net(c, 1).net().bw()).isEqualTo(3.125);
        assertThat(c.nodes(NodeType.NIC).get(1).links().stream().filter(l -> l.type() == LinkType.PCI)
                .findFirst().orElseThrow().bw()).isEqualTo(6.0);
    }

    @Test
    void bandwidthTables() {
        assertThat(Bandwidth.pci("2.5 GT/s", 1)).isEqualTo(15 / 80.0);
        assertThat(Bandwidth.pci("8 GT/s", 16)).isEqualTo(12.0);
        assertThat(Bandwidth.pci("8.0 GT/s PCIe", 16)).isEqualTo(12.0);
        assertThat(Bandwidth.pci("16.0 GT/s PCIe", 16)).isEqualTo(24.0);
        assertThat(Bandwidth.pci("32.0 GT/s PCIe", 8)).isEqualTo(24.0);
        assertThat(Bandwidth.pci("64.0 GT/s PCIe", 16)).isEqualTo(96.0);
        assertThat(Bandwidth.pci("", 0)).as("unknown: Gen3 x16").isEqualTo(12.0);
        assertThat(Bandwidth.nvlink(60)).isEqualTo(18.0);
        assertThat(Bandwidth.nvlink(70)).isEqualTo(20.0);
        assertThat(Bandwidth.nvlink(86)).isEqualTo(12.0);
        assertThat(Bandwidth.nvlink(90)).isEqualTo(20.6);
        assertThat(Bandwidth.nvlink(100)).isEqualTo(40.1);
        assertThat(Bandwidth.net(100000)).isEqualTo(12.5);
        assertThat(Bandwidth.net(-1)).isEqualTo(1.25);
        assertThat(Bandwidth.interCpu(new TopoNode.Cpu(0, "x86_64", "GenuineIntel", 6, 0x4F, ""))).isEqualTo(6.0);
        assertThat(Bandwidth.interCpu(new TopoNode.Cpu(0, "x86_64", "GenuineIntel", 6, 0x55, ""))).isEqualTo(10.0);
        assertThat(Bandwidth.interCpu(new TopoNode.Cpu(0, "x86_64", "GenuineIntel", 6, 0x8F, ""))).isEqualTo(22.0);
        assertThat(Bandwidth.interCpu(new TopoNode.Cpu(0, "x86_64", "GenuineIntel", 6, 0xAD, ""))).isEqualTo(40.0);
        assertThat(Bandwidth.interCpu(new TopoNode.Cpu(0, "x86_64", "AuthenticAMD", 25, 1, ""))).isEqualTo(24.0);
        assertThat(Bandwidth.interCpu(new TopoNode.Cpu(0, "x86_64", "AuthenticAMD", 26, 1, ""))).isEqualTo(32.0);
        assertThat(Bandwidth.interCpu(new TopoNode.Cpu(0, "arm64", "", 0, 0, ""))).isEqualTo(6.0);
        assertThat(Bandwidth.interCpu(new TopoNode.Cpu(0, "ppc64", "", 0, 0, ""))).isEqualTo(32.0);
    }

    @Test
    void pathsOfTheH100Node() {
        TopoSystem h = load("dgx-h100");
        TopoPath gg = h.path(gpu(h, 0), gpu(h, 5));
        assertThat(gg.type()).isEqualTo(PathType.NVL);
        assertThat(gg.bw()).isCloseTo(370.8, within(1e-9));
        assertThat(gg.nodes()).containsExactly(h.nodes(NodeType.NVS).get(0), gpu(h, 5));
        // Each GPU shares a two-level PCIe switch with its NIC.
        assertThat(h.path(gpu(h, 2), net(h, 2)).type()).isEqualTo(PathType.PXB);
        assertThat(h.path(gpu(h, 2), net(h, 2)).bw()).isEqualTo(48.0);
        // Sends to another GPU's NIC go over NVLink to that GPU first (PXN); receives stay on PCI.
        TopoPath pxn = h.path(gpu(h, 2), net(h, 6));
        assertThat(pxn.type()).isEqualTo(PathType.PXN);
        assertThat(pxn.nodes()).contains(gpu(h, 6));
        assertThat(h.path(net(h, 6), gpu(h, 2)).type()).isEqualTo(PathType.SYS);
        assertThat(h.path(net(h, 1), gpu(h, 2)).type()).isEqualTo(PathType.PHB);
        assertThat(h.path(gpu(h, 0), h.nodes(NodeType.CPU).get(1)).type()).isEqualTo(PathType.SYS);
        assertThat(h.localCpu(gpu(h, 5))).isEqualTo(h.nodes(NodeType.CPU).get(1));
        assertThat(h.nearest(net(h, 3), NodeType.GPU)).containsExactly(gpu(h, 3));
    }

    @Test
    void pathsOfThePcieNode() {
        TopoSystem p = load("pcie-4gpu");
        assertThat(p.path(gpu(p, 0), gpu(p, 1)).type()).isEqualTo(PathType.PIX);
        assertThat(p.path(gpu(p, 0), gpu(p, 1)).bw()).isEqualTo(24.0);
        // Across the two switches peer-to-peer is not used: the path goes into the CPU and out.
        TopoPath across = p.path(gpu(p, 1), gpu(p, 2));
        assertThat(across.type()).isEqualTo(PathType.PHB);
        assertThat(across.nodes()).contains(p.nodes(NodeType.CPU).get(0));
        assertThat(p.path(gpu(p, 3), net(p, 1)).type()).isEqualTo(PathType.PIX);
        assertThat(p.path(gpu(p, 3), net(p, 1)).bw()).isEqualTo(12.5);
        assertThat(p.path(gpu(p, 3), net(p, 0)).type()).isEqualTo(PathType.PHB);
        assertThat(p.nearest(net(p, 0), NodeType.GPU)).containsExactly(gpu(p, 0), gpu(p, 1));

        TopoSystem a = load("dgx-a100");
        assertThat(a.path(gpu(a, 0), net(a, 0)).type()).isEqualTo(PathType.PIX);
        assertThat(a.path(gpu(a, 0), net(a, 1)).type()).isEqualTo(PathType.PXB);

        TopoSystem c = load("cpu-2socket");
        assertThat(c.path(net(c, 0), net(c, 1)).type()).isEqualTo(PathType.SYS);
        assertThat(c.path(net(c, 0), net(c, 1)).bw()).isEqualTo(3.125);
        assertThat(c.path(net(c, 1), c.nodes(NodeType.CPU).get(1)).type()).isEqualTo(PathType.PHB);
    }

    /** Three GPUs in a line of NVLinks (0-1, 1-2, two links each: 40 GB/s, faster than their 24 GB/s PCI) under one switch. */
    private static final String LINE = """
            <system version="1">
              <cpu numaid="0" arch="x86_64" vendor="GenuineIntel" familyid="6" modelid="85">
                <pci busid="0000:10:00.0" class="0x060400" link_speed="16.0 GT/s PCIe" link_width="16">
                  <pci busid="0000:11:00.0" class="0x030200" link_speed="16.0 GT/s PCIe" link_width="16">
                    <gpu dev="0" sm="70" rank="0" gdr="1"><nvlink target="0000:12:00.0" count="2" tclass="0x030200"/></gpu>
                  </pci>
                  <pci busid="0000:12:00.0" class="0x030200" link_speed="16.0 GT/s PCIe" link_width="16">
                    <gpu dev="1" sm="70" rank="1" gdr="1">
                      <nvlink target="0000:11:00.0" count="2" tclass="0x030200"/>
                      <nvlink target="0000:13:00.0" count="2" tclass="0x030200"/>
                    </gpu>
                  </pci>
                  <pci busid="0000:13:00.0" class="0x030200" link_speed="16.0 GT/s PCIe" link_width="16">
                    <gpu dev="2" sm="70" rank="2" gdr="1"><nvlink target="0000:12:00.0" count="2" tclass="0x030200"/></gpu>
                  </pci>
                  <pci busid="0000:14:00.0" class="0x020000" link_speed="16.0 GT/s PCIe" link_width="16">
                    <nic><net name="eth0" dev="0" speed="100000" gdr="%s"/></nic>
                  </pci>
                </pci>
              </cpu>
            </system>""";

    @Test
    void nvlinkThroughOneGpuIsNvbAndNothingElseGoesThroughAGpu() {
        TopoSystem s = TopoSystem.fromXml(XmlElement.parse(LINE.formatted("1"), "line"));
        TopoPath p = s.path(gpu(s, 0), gpu(s, 2));
        assertThat(p.type()).isEqualTo(PathType.NVB);
        assertThat(p.bw()).isEqualTo(40.0);
        assertThat(p.nodes()).containsExactly(gpu(s, 1), gpu(s, 2));
        assertThat(s.path(gpu(s, 0), gpu(s, 1)).type()).isEqualTo(PathType.NVL);
        assertThat(s.path(gpu(s, 0), gpu(s, 1)).bw()).isEqualTo(40.0);
        // The NIC is reached over PCI, never through GPU 1's NVLinks.
        TopoPath toNet = s.path(gpu(s, 0), net(s, 0));
        assertThat(toNet.type()).isEqualTo(PathType.PIX);
        assertThat(toNet.nodes()).noneMatch(n -> n.type() == NodeType.GPU);
    }

    @Test
    void withoutGpuDirectRdmaTheNicIsReachedThroughTheCpu() {
        TopoSystem s = TopoSystem.fromXml(XmlElement.parse(LINE.formatted("0"), "line"));
        TopoPath p = s.path(gpu(s, 0), net(s, 0));
        assertThat(p.type()).isEqualTo(PathType.PHB);
        assertThat(p.nodes()).contains(s.nodes(NodeType.CPU).get(0));
        assertThat(s.path(net(s, 0), gpu(s, 0)).type()).isEqualTo(PathType.PHB);
    }

    @Test
    void loadDumpLoadIsLossless(@TempDir Path tmp) throws Exception {
        for (String name : FILES) {
            TopoSystem first = load(name);
            Path dumped = tmp.resolve(name + ".xml");
            first.dump(dumped);
            TopoSystem second = TopoSystem.load(dumped);
            assertThat(second.toXml()).as(name).isEqualTo(first.toXml());
            assertThat(second.toXml()).as(name + " against the file as parsed")
                    .isEqualTo(XmlElement.read(DIR.resolve(name + ".xml")));
            assertThat(second.describe()).as(name).isEqualTo(first.describe());
            assertThat(second.links()).hasSameSizeAs(first.links());
            for (TopoNode a : first.nodes()) {
                for (TopoNode b : first.nodes()) {
                    TopoPath p1 = first.path(a, b);
                    TopoPath p2 = second.path(second.nodes().get(a.ordinal()), second.nodes().get(b.ordinal()));
                    assertThat(p2.type()).isEqualTo(p1.type());
                    assertThat(p2.bw()).isEqualTo(p1.bw());
                    assertThat(p2.hops()).isEqualTo(p1.hops());
                }
            }
            // Dumping the reloaded system gives the same text.
            assertThat(second.toXml().write()).isEqualTo(Files.readString(dumped));
        }
    }

    @Test
    void configNamesTheFileToLoadAndTheFileToDump(@TempDir Path tmp) {
        Path dump = tmp.resolve("dump.xml");
        Config c = Config.fromVariables(Map.of("JCCL_TOPO_FILE", DIR.resolve("pcie-4gpu.xml").toString(),
                "JCCL_TOPO_DUMP_FILE", dump.toString()));
        assertThat(c.topoFile()).contains(DIR.resolve("pcie-4gpu.xml").toString());
        TopoSystem s = TopoSystem.of(c, GpuProbe.NONE);
        assertThat(s.nodes(NodeType.GPU)).hasSize(4);
        assertThat(TopoSystem.load(dump).toXml()).isEqualTo(s.toXml());
        assertThat(Config.fromVariables(Map.of("JCCL_TOPO_FILE", "  ")).topoFile()).isEmpty();
        assertThat(Config.defaults().topoDumpFile()).isEmpty();
    }

    @Test
    void malformedDocumentsNameTheirFault() {
        assertThatThrownBy(() -> TopoSystem.fromXml(XmlElement.parse("<system version=\"2\"/>", "t")))
                .isInstanceOf(JcclException.class).hasMessageContaining("version 2");
        assertThatThrownBy(() -> TopoSystem.fromXml(XmlElement.parse("<graphs version=\"1\"/>", "t")))
                .isInstanceOf(JcclException.class).hasMessageContaining("<system>");
        assertThatThrownBy(() -> TopoSystem.fromXml(XmlElement.parse("<system version=\"1\"><cpu arch=\"x86_64\"/></system>", "t")))
                .isInstanceOf(JcclException.class).hasMessageContaining("numaid");
        assertThatThrownBy(() -> TopoSystem.fromXml(XmlElement.parse(
                "<system version=\"1\"><cpu numaid=\"zero\"/></system>", "t")))
                .isInstanceOf(JcclException.class).hasMessageContaining("numaid=\"zero\" is not an integer");
        assertThatThrownBy(() -> TopoSystem.fromXml(XmlElement.parse(
                "<system version=\"1\"><cpu numaid=\"0\"/><cpu numaid=\"0\"/></system>", "t")))
                .isInstanceOf(JcclException.class).hasMessageContaining("appears twice");
        assertThatThrownBy(() -> TopoSystem.fromXml(XmlElement.parse(
                "<system version=\"1\"><cpu numaid=\"0\"><pci class=\"0x060400\"/></cpu></system>", "t")))
                .isInstanceOf(JcclException.class).hasMessageContaining("has no busid");
        assertThatThrownBy(() -> TopoSystem.fromXml(XmlElement.parse(
                "<system version=\"1\"><cpu numaid=\"0\"><pci busid=\"0000:01:00.0\" class=\"0x030200\"><gpu rank=\"0\"/></pci></cpu></system>", "t")))
                .isInstanceOf(JcclException.class).hasMessageContaining("has no sm");
        assertThatThrownBy(() -> TopoSystem.load(DIR.resolve("no-such-file.xml")))
                .isInstanceOf(JcclException.class).hasMessageContaining("no-such-file.xml");
    }

    @Test
    void nvlinkTargetsAndHexNumbersAreReadAsNcclReadsThem() {
        // A GPU's attributes in hex (strtol base 0), a GPU without a rank (not in the job) left out,
        // an NVLink to a CPU (POWER9-style) joins the GPU to its own CPU.
        TopoSystem s = TopoSystem.fromXml(XmlElement.parse("""
                <system version="1">
                  <cpu numaid="0" arch="ppc64">
                    <pci busid="0000:01:00.0" class="0x030200" link_speed="8.0 GT/s PCIe" link_width="0x10">
                      <gpu dev="0" sm="0x46" rank="0" gdr="0"><nvlink target="0000:00:00.0" count="3" tclass="0x068001"/></gpu>
                    </pci>
                    <pci busid="0000:02:00.0" class="0x030200" link_speed="8.0 GT/s PCIe" link_width="16">
                      <gpu dev="1" sm="70"/>
                    </pci>
                  </cpu>
                </system>""", "p9"));
        assertThat(s.nodes(NodeType.GPU)).hasSize(1);
        TopoNode g = gpu(s, 0);
        assertThat(g.gpu().sm()).isEqualTo(70);
        assertThat(g.link(s.nodes(NodeType.CPU).get(0), LinkType.NVL).bw()).isEqualTo(60.0);
        assertThat(s.path(g, s.nodes(NodeType.CPU).get(0)).type()).isEqualTo(PathType.NVL);
    }
}
