// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Detection from made-up sysfs trees: what NCCL would write, and robustness to what is missing. */
class SysfsDetectorTest {
    private static final String SWITCH = "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0";
    private static final String NIC = SWITCH + "/0000:02:00.0/0000:03:00.0";
    private static final String GPU = SWITCH + "/0000:02:01.0/0000:04:00.0";

    private static void file(Path root, String path, String content) throws IOException {
        Path p = root.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content + "\n");
    }

    /** A relative symlink, as sysfs makes them. */
    private static void link(Path root, String path, String target) throws IOException {
        Path p = root.resolve(path);
        Files.createDirectories(p.getParent());
        Files.createSymbolicLink(p, p.getParent().relativize(root.resolve(target)));
    }

    private static void pciDevice(Path root, String dir, String cls, String vendor, String device, String speed, int width,
                                  int numa) throws IOException {
        file(root, dir + "/class", cls);
        file(root, dir + "/vendor", vendor);
        file(root, dir + "/device", device);
        file(root, dir + "/subsystem_vendor", vendor);
        file(root, dir + "/subsystem_device", "0x0001");
        file(root, dir + "/max_link_speed", speed);
        file(root, dir + "/max_link_width", Integer.toString(width));
        file(root, dir + "/numa_node", Integer.toString(numa));
    }

    /** Two NUMA nodes; under node 1 a two-level switch with an IB NIC (behind a Gen4 port) and a GPU. */
    private static Path gpuNode(Path root) throws IOException {
        file(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n\n"
                + "processor\t: 1\nvendor_id\t: SomethingElse\nmodel\t\t: 1\n");
        file(root, "sys/devices/system/node/node0/cpumap", "00ff00ff");
        file(root, "sys/devices/system/node/node1/cpumap", "ff00ff00");
        file(root, "sys/devices/system/node/online", "0-1");
        pciDevice(root, "sys/devices/pci0000:00/0000:00:01.0", "0x060400", "0x8086", "0x352a", "32.0 GT/s PCIe", 16, 1);
        pciDevice(root, SWITCH, "0x060400", "0x1000", "0xc030", "32.0 GT/s PCIe", 16, 1);
        pciDevice(root, SWITCH + "/0000:02:00.0", "0x060400", "0x1000", "0xc030", "16.0 GT/s PCIe", 16, 1);
        pciDevice(root, SWITCH + "/0000:02:01.0", "0x060400", "0x1000", "0xc030", "32.0 GT/s PCIe", 16, 1);
        pciDevice(root, NIC, "0x020700", "0x15b3", "0x1021", "32.0 GT/s PCIe", 16, 1);
        pciDevice(root, GPU, "0x030200", "0x10de", "0x2330", "32.0 GT/s PCIe", 16, 1);
        link(root, "sys/class/infiniband/mlx5_0/device", NIC);
        file(root, "sys/class/infiniband/mlx5_0/node_guid", "a088:c203:00e1:d600");
        file(root, "sys/class/infiniband/mlx5_0/ports/1/rate", "400 Gb/sec (4X NDR)");
        file(root, "sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE");
        file(root, "sys/class/infiniband/mlx5_0/ports/2/rate", "400 Gb/sec (4X NDR)");
        file(root, "sys/class/infiniband/mlx5_0/ports/2/state", "1: DOWN");
        // The IPoIB interface of the same card: the IB plugin's ports win over sockets.
        link(root, "sys/class/net/ib0/device", NIC);
        link(root, "sys/bus/pci/devices/0000:04:00.0", GPU);
        file(root, "sys/module/nvidia_peermem/version", "1.0");
        return root;
    }

    private static final GpuProbe ONE_H100 = () -> List.of(new GpuProbe.Gpu("0000:04:00.0", 0, 90,
            List.of(new GpuProbe.NvLink("0000:C0:00.0", 18, "0x068000"))));

    @Test
    void writesWhatNcclWrites(@TempDir Path tmp) throws IOException {
        XmlElement xml = new SysfsDetector(gpuNode(tmp), ONE_H100).detect();
        String arch = System.getProperty("os.arch").equals("amd64") || System.getProperty("os.arch").equals("x86_64")
                ? "arch=\"x86_64\" vendor=\"GenuineIntel\" familyid=\"6\" modelid=\"143\"" : null;
        org.junit.jupiter.api.Assumptions.assumeTrue(arch != null, "the expected text is written for an x86-64 JVM");
        assertThat(xml.write()).isEqualTo("""
                <system version="1">
                  <cpu numaid="0" affinity="00ff00ff" %1$s/>
                  <cpu numaid="1" affinity="ff00ff00" %1$s>
                    <pci busid="0000:01:00.0" class="0x060400" vendor="0x1000" device="0xc030" subsystem_vendor="0x1000" subsystem_device="0x0001" link_speed="32.0 GT/s PCIe" link_width="16">
                      <pci busid="0000:03:00.0" class="0x020700" vendor="0x15b3" device="0x1021" subsystem_vendor="0x15b3" subsystem_device="0x0001" link_speed="16.0 GT/s PCIe" link_width="16">
                        <nic>
                          <net name="mlx5_0" dev="0" speed="400000" port="1" latency="0.000000" guid="0xa088c20300e1d600" maxconn="131072" gdr="1"/>
                        </nic>
                      </pci>
                      <pci busid="0000:04:00.0" class="0x030200" vendor="0x10de" device="0x2330" subsystem_vendor="0x10de" subsystem_device="0x0001" link_speed="32.0 GT/s PCIe" link_width="16">
                        <gpu dev="0" sm="90" rank="0" gdr="1">
                          <nvlink target="0000:c0:00.0" count="18" tclass="0x068000"/>
                        </gpu>
                      </pci>
                    </pci>
                  </cpu>
                </system>
                """.formatted(arch));
    }

    @Test
    void theDetectedGraphHasItsPaths(@TempDir Path tmp) throws IOException {
        TopoSystem s = TopoSystem.fromXml(new SysfsDetector(gpuNode(tmp), ONE_H100).detect());
        assertThat(s.summary()).isEqualTo("1 GPU, 1 PCI, 1 NVS, 2 CPU, 1 NIC, 1 NET");
        TopoNode gpu = s.nodes(NodeType.GPU).get(0);
        TopoNode net = s.nodes(NodeType.NET).get(0);
        assertThat(s.path(gpu, net).type()).isEqualTo(PathType.PIX);
        // The NIC's own link is Gen5 but its port is Gen4: 24 GB/s.
        assertThat(s.path(gpu, net).bw()).isEqualTo(24.0);
        assertThat(s.localCpu(gpu).cpu().numaId()).isEqualTo(1);
        assertThat(gpu.gpu().gdr()).isTrue();
    }

    @Test
    void socketsWhenThereIsNoInfiniband(@TempDir Path root) throws IOException {
        // No NUMA directory: one domain of the online CPUs. A virtio NIC whose port dir sits below
        // the PCI function, with an unknown NUMA node and speed; a down link, a virtual one,
        // loopback, and one whose device link is broken.
        file(root, "sys/devices/system/cpu/online", "0-3");
        pciDevice(root, "sys/devices/pci0000:00/0000:00:03.0", "0x020000", "0x1af4", "0x1041", "", 0, -1);
        Files.delete(root.resolve("sys/devices/pci0000:00/0000:00:03.0/max_link_speed"));
        Files.createDirectories(root.resolve("sys/devices/pci0000:00/0000:00:03.0/virtio2"));
        link(root, "sys/class/net/eth0/device", "sys/devices/pci0000:00/0000:00:03.0/virtio2");
        file(root, "sys/class/net/eth0/speed", "-1");
        file(root, "sys/class/net/eth0/operstate", "up");
        link(root, "sys/class/net/eth1/device", "sys/devices/pci0000:00/0000:00:03.0/virtio2");
        file(root, "sys/class/net/eth1/operstate", "down");
        file(root, "sys/class/net/veth0/operstate", "up");
        file(root, "sys/class/net/lo/operstate", "unknown");
        link(root, "sys/class/net/eth2/device", "sys/devices/pci0000:00/gone");
        file(root, "sys/class/net/eth2/speed", "25000");

        XmlElement xml = new SysfsDetector(root, GpuProbe.NONE).detect();
        XmlElement cpu = xml.children("cpu").get(0);
        assertThat(xml.children("cpu")).hasSize(1);
        assertThat(cpu.attr("numaid")).contains("0");
        assertThat(cpu.attr("affinity")).contains("0000000f");
        List<XmlElement> nets = xml.descendants().stream().filter(e -> e.name().equals("net")).toList();
        assertThat(nets).extracting(e -> e.attr("name").orElseThrow()).containsExactly("eth0", "eth2");
        assertThat(nets.get(0).attrs()).containsEntry("dev", "0").containsEntry("speed", "10000").containsEntry("gdr", "0")
                .containsEntry("port", "0").containsEntry("maxconn", "65536");
        XmlElement virtio = cpu.children("pci").stream().filter(p -> p.attr("busid").orElseThrow().equals("0000:00:03.0"))
                .findFirst().orElseThrow();
        assertThat(virtio.attrs()).containsEntry("class", "0x020000").containsEntry("link_speed", "").containsEntry("link_width", "0");

        TopoSystem s = TopoSystem.fromXml(xml);
        assertThat(s.summary()).isEqualTo("1 CPU, 2 NIC, 2 NET");
        assertThat(s.nodes(NodeType.NET).get(1).net().bw()).isEqualTo(25000 / 8000.0);
        // Unknown PCI speed and width count as Gen3 x16, as in NCCL.
        assertThat(s.path(s.nodes(NodeType.NET).get(0), s.nodes(NodeType.CPU).get(0)).bw()).isEqualTo(1.25);
        assertThat(NumaPlacement.of(s, 3).ranksOf(0)).containsExactly(0, 1, 2);
    }

    @Test
    void anEmptyRootStillGivesAUsableGraph(@TempDir Path root) {
        GpuProbe unknownGpu = () -> List.of(new GpuProbe.Gpu("0000:81:00.0", 0, 80, List.of()));
        XmlElement xml = new SysfsDetector(root, unknownGpu).detect();
        TopoSystem s = TopoSystem.fromXml(xml);
        assertThat(s.summary()).isEqualTo("1 GPU, 1 CPU");
        assertThat(s.path(s.nodes(NodeType.GPU).get(0), s.nodes(NodeType.CPU).get(0)).type()).isEqualTo(PathType.PHB);
        assertThat(TopoSystem.fromXml(new SysfsDetector(root, GpuProbe.NONE).detect()).summary()).isEqualTo("1 CPU");
    }

    @Test
    void thisMachineIsDetectedWithoutAGpu() {
        TopoSystem here = TopoSystem.detect(GpuProbe.NONE);
        assertThat(here.nodes(NodeType.CPU)).isNotEmpty();
        assertThat(here.nodes(NodeType.GPU)).isEmpty();
        NumaPlacement p = NumaPlacement.of(here, 4);
        int placed = 0;
        for (int d = 0; d < p.domains().size(); d++) {
            placed += p.ranksOf(d).size();
        }
        assertThat(placed).isEqualTo(4);
        // What was detected loads back the same.
        assertThat(TopoSystem.fromXml(XmlElement.parse(here.toXml().write(), "dump")).describe()).isEqualTo(here.describe());
    }

    @Test
    void cpuinfoAndRates() {
        assertThat(SysfsDetector.cpuinfoField("processor : 0\nvendor_id : AuthenticAMD\n\nprocessor : 1\nvendor_id : X\n",
                "vendor_id")).isEqualTo("AuthenticAMD");
        assertThat(SysfsDetector.cpuinfoField("\nprocessor : 0\n\nmodel : 5\n", "model")).isEmpty();
        assertThat(SysfsDetector.ibRateMbps("200 Gb/sec (4X HDR)")).isEqualTo(200000);
        assertThat(SysfsDetector.ibRateMbps("2.5 Gb/sec (1X SDR)")).isEqualTo(2500);
        assertThat(SysfsDetector.ibRateMbps("unknown")).isEqualTo(10000);
    }
}
