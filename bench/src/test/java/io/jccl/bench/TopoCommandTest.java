// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.topo.NodeType;
import io.jccl.topo.TopoSystem;
import io.jccl.topo.XmlElement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopoCommandTest {
    /** The reference topologies live with the core module's tests. */
    private static final Path TOPO = Path.of("../core/src/test/resources/topo");

    private static String file(String name) {
        return TOPO.resolve(name + ".xml").toString();
    }

    @Test
    void printsTheGraphPathsAndChannelsOfFourH100Nodes(@TempDir Path tmp) {
        Path svg = tmp.resolve("h100.svg");
        PerfEndToEndTest.Run r = PerfEndToEndTest.run("topo", "--file", file("dgx-h100"), "-N", "4", "--svg", svg.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("# system: 8 GPU, 24 PCI, 1 NVS, 2 CPU, 8 NIC, 8 NET")
                .contains("      + PCI[48.0] - GPU/0 (0000:18:00.0, dev 0, sm 90, gdr)")
                .contains("        + NVL[370.8] - NVS/0")
                .contains("  + SYS[22.0] - CPU/1")
                .containsPattern("GPU/0 +- +NVL/370.8 ")
                .containsPattern("NET/5 +SYS/22.0 .* PXB/48.0 ")
                .contains("# ring graph: pattern RING, crossNic 1, nChannels 8, bw 48.0/48.0 GB/s, type NVL/PXB")
                .contains("ring  0 : NET/0 GPU/0 GPU/1 GPU/2 GPU/3 GPU/4 GPU/5 GPU/6 GPU/7 NET/7")
                .contains("tree  0 : NET/0 GPU/0 GPU/1 GPU/2 GPU/3 GPU/4 GPU/5 GPU/6 GPU/7 NET/0")
                .contains("# channels: 4 nodes x 8 ranks, 8 channels and their 8 duplicates; tree depth estimate 9")
                .contains("node 1: ringRecv [8, 9, 10, 11, 12, 13, 14, 15]")
                .contains("channel  0 ring : 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31")
                .contains("channel  0 tree : root 0; 0->1,16 1->2 ")
                .contains("16->17,24 17->18,8 ")
                .contains("channel  8 tree : root 24; ")
                .contains("channel 15 ring : ")
                .contains("# picture: " + svg);
        assertThat(r.out()).doesNotContain("channel 16 ");
    }

    @Test
    void theSvgIsWellFormedWithOneColourPerChannel(@TempDir Path tmp) throws IOException {
        Path svg = tmp.resolve("a100.svg");
        PerfEndToEndTest.Run r = PerfEndToEndTest.run("topo", "-f", file("dgx-a100"), "--nodes", "2", "--svg", svg.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(Files.readString(svg)).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ");
        XmlElement root = XmlElement.read(svg);
        assertThat(root.name()).isEqualTo("svg");
        assertThat(root.attr("xmlns")).contains("http://www.w3.org/2000/svg");
        List<XmlElement> all = root.descendants();
        TopoSystem a100 = TopoSystem.load(TOPO.resolve("dgx-a100.xml"));
        // Every node drawn in both machine panels, each a box with its name.
        assertThat(all.stream().filter(e -> e.name().equals("rect"))).hasSize(2 * a100.nodes().size());
        assertThat(all.stream().filter(e -> e.name().equals("text") && e.text().equals("GPU/7"))).hasSize(2);
        assertThat(all.stream().filter(e -> e.name().equals("line") && e.attr("class").orElse("").equals("link nvl")))
                .hasSize(2 * 8);
        // Two nodes of 8 GPUs: 16 channels before duplication (the searched 8, duplicated), 16 rings and 16 tree chains.
        List<XmlElement> rings = all.stream().filter(e -> e.name().equals("polyline")
                && e.attr("class").orElse("").startsWith("ring")).toList();
        List<XmlElement> trees = all.stream().filter(e -> e.name().equals("polyline")
                && e.attr("class").orElse("").startsWith("tree")).toList();
        int channels = Integer.parseInt(r.out().replaceAll("(?s).*# ring graph: pattern RING, crossNic \\d, nChannels (\\d+),.*", "$1"));
        assertThat(rings).hasSize(channels);
        assertThat(trees).isNotEmpty();
        Set<String> colours = new HashSet<>();
        for (XmlElement p : rings) {
            colours.add(p.attr("stroke").orElseThrow());
            // A ring from its NIC through the 8 GPUs back to a NIC, along the links: many points.
            assertThat(p.attr("points").orElseThrow().split(" ").length).isGreaterThan(9);
        }
        assertThat(colours).hasSize(channels);
        assertThat(all.stream().filter(e -> e.name().equals("path") && e.attr("class").orElse("").startsWith("node-tree")))
                .as("each node but the root talks up, in each of the two trees").hasSize(2);
        assertThat(all.stream().filter(e -> e.name().equals("circle"))).hasSize(2);
    }

    @Test
    void aNodeWithoutGpusPlacesItsRanksByNumaDomain(@TempDir Path tmp) throws IOException {
        Path dump = tmp.resolve("dump.xml");
        Path svg = tmp.resolve("cpu.svg");
        PerfEndToEndTest.Run r = PerfEndToEndTest.run("topo", "--file", file("cpu-2socket"), "-r", "8", "--dump", dump.toString(),
                "--svg", svg.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("# system: 2 CPU, 2 NIC, 2 NET")
                .contains("# no GPU: 8 host ranks by NUMA domain")
                .contains("CPU/0: ranks 0-3 on cpus 0-23,48-71")
                .contains("CPU/1: ranks 4-7 on cpus 24-47,72-95")
                .containsPattern("NET/0 +- +SYS/3.1 +PHB/12.5 +SYS/10.0")
                .contains("# dumped to " + dump);
        assertThat(TopoSystem.load(dump).toXml()).isEqualTo(TopoSystem.load(TOPO.resolve("cpu-2socket.xml")).toXml());
        XmlElement pic = XmlElement.read(svg);
        assertThat(pic.descendants().stream().filter(e -> e.name().equals("text") && e.text().startsWith("CPU/1: ranks 4-7")))
                .hasSize(1);
        assertThat(pic.descendants().stream().filter(e -> e.name().equals("polyline"))).isEmpty();
    }

    @Test
    void detectsThisMachineOrAGivenSysfsTree(@TempDir Path tmp) throws IOException {
        PerfEndToEndTest.Run here = PerfEndToEndTest.run("topo", "-r", "2");
        assertThat(here.status()).as(here.err()).isZero();
        assertThat(here.out()).contains("# jccl topo: detected from sysfs").contains("# no GPU: 2 host ranks");
        Files.createDirectories(tmp.resolve("sys/devices/system/node/node0"));
        Files.writeString(tmp.resolve("sys/devices/system/node/node0/cpumap"), "0000000f\n");
        Files.createDirectories(tmp.resolve("sys/devices/system/node/node1"));
        Files.writeString(tmp.resolve("sys/devices/system/node/node1/cpumap"), "000000f0\n");
        PerfEndToEndTest.Run fake = PerfEndToEndTest.run("topo", "--sysfs", tmp.toString(), "--ranks", "4");
        assertThat(fake.status()).as(fake.err()).isZero();
        assertThat(fake.out()).contains("# jccl topo: detected from sysfs under " + tmp)
                .contains("CPU/0: ranks 0-1 on cpus 0-3").contains("CPU/1: ranks 2-3 on cpus 4-7");
        assertThat(TopoSystem.load(TOPO.resolve("pcie-4gpu.xml")).nodes(NodeType.GPU)).hasSize(4);
    }

    @Test
    void badCommandLinesAndFilesAreReported() {
        assertThatThrownBy(() -> TopoOptions.parse(List.of("--tree", "ring"))).isInstanceOf(UsageException.class)
                .hasMessageContaining("--tree").hasMessageContaining("not a tree pattern");
        assertThatThrownBy(() -> TopoOptions.parse(List.of("--tree", "bush"))).hasMessageContaining("'bush' is not a pattern");
        assertThatThrownBy(() -> TopoOptions.parse(List.of("-N", "0"))).hasMessageContaining("-N");
        assertThatThrownBy(() -> TopoOptions.parse(List.of("-f", "a.xml", "--sysfs", "/tmp"))).hasMessageContaining("give one");
        assertThatThrownBy(() -> TopoOptions.parse(List.of("--svg"))).hasMessageContaining("--svg needs a value");
        TopoOptions d = TopoOptions.parse(List.of());
        assertThat(d.nodes()).isEqualTo(1);
        assertThat(d.file()).isNull();
        assertThat(d.sysfs()).isEqualTo("/");
        PerfEndToEndTest.Run bogus = PerfEndToEndTest.run("topo", "--bogus");
        assertThat(bogus.status()).isEqualTo(2);
        assertThat(bogus.err()).contains("--bogus");
        PerfEndToEndTest.Run missing = PerfEndToEndTest.run("topo", "--file", "no/such/topology.xml");
        assertThat(missing.status()).isEqualTo(1);
        assertThat(missing.err()).contains("no/such/topology.xml");
        PerfEndToEndTest.Run help = PerfEndToEndTest.run("topo", "--help");
        assertThat(help.status()).isZero();
        assertThat(help.out()).contains("--svg").contains("--nodes").contains("--tree");
        assertThat(PerfEndToEndTest.run("help").out()).contains("topo");
    }
}
