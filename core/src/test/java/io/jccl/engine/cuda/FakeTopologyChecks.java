// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import io.jccl.Communicator;
import io.jccl.Config;
import io.jccl.CudaDevice;
import io.jccl.CudaStream;
import io.jccl.DataType;
import io.jccl.Group;
import io.jccl.RedOp;
import io.jccl.cuda.CudaGpuProbe;
import io.jccl.topo.GpuProbe;
import io.jccl.topo.XmlElement;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GPUs detected from the fake CUDA driver and the fake NVML (test resources fake_cuda.cpp,
 * fake_nvml.cpp, described by fake_topology.h), and the CUDA engine planning on the channels
 * searched over them. Run by {@link FakeDriverEngineTest}, in the JVM that loaded both fakes.
 */
final class FakeTopologyChecks {
    private static final Linker LINKER = Linker.nativeLinker();
    private final MethodHandle cudaTopology;
    private final MethodHandle nvmlTopology;
    private final MethodHandle nvmlMode;

    @SuppressWarnings("restricted") // the fakes' own setters, found in the libraries this JVM loaded
    FakeTopologyChecks(Path fakeCuda, Path fakeNvml) {
        SymbolLookup cuda = SymbolLookup.libraryLookup(fakeCuda, Arena.global());
        SymbolLookup nvml = SymbolLookup.libraryLookup(fakeNvml, Arena.global());
        FunctionDescriptor setString = FunctionDescriptor.ofVoid(ValueLayout.ADDRESS);
        cudaTopology = LINKER.downcallHandle(cuda.find("jccl_fake_set_topology").orElseThrow(), setString);
        nvmlTopology = LINKER.downcallHandle(nvml.find("jccl_fake_set_topology").orElseThrow(), setString);
        nvmlMode = LINKER.downcallHandle(nvml.find("jccl_fake_nvml_mode").orElseThrow(), FunctionDescriptor.ofVoid(ValueLayout.JAVA_INT));
    }

    /** Describes the machine to both fakes ("" for their defaults) and sets NVML's mode (1: init fails, 2: remote type unknown). */
    void describe(String spec, int mode) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocateFrom(spec);
            cudaTopology.invokeExact(s);
            nvmlTopology.invokeExact(s);
            nvmlMode.invokeExact(mode);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** A DGX-like node: 8 GPUs, each with 18 NVLinks to the NVSwitches. */
    static final String NVSWITCH_8 = String.join(";", List.of("0000:18:00.0", "0000:2A:00.0", "0000:3A:00.0", "0000:5D:00.0",
            "0000:9A:00.0", "0000:AB:00.0", "0000:BA:00.0", "0000:DB:00.0").stream().map(b -> b + " sm=90 nvs=18").toList());
    /** Two pairs over PCI, peer access within each pair only. */
    static final String PCI_PAIRS = "0000:18:00.0 sm=80 p2p=0;0000:19:00.0 sm=80 p2p=0;0000:3b:00.0 sm=86 p2p=1;0000:3c:00.0 sm=86 p2p=1";
    /** Four GPUs whose NVLinks make the ring 0-2-1-3 (two links each way), peer access among all. */
    static final String CUBE_RING = "0001:18:00.0 sm=80 nvl=2:2 nvl=3:2;0001:2a:00.0 sm=80 nvl=2:2 nvl=3:2;"
            + "0001:3b:00.0 sm=80 nvl=0:2 nvl=1:2;0001:4c:00.0 sm=80 nvl=0:2 nvl=1:2";
    static final int[][] CUBE_NVLINKED = {{2, 3}, {2, 3}, {0, 1}, {0, 1}};

    void probeListsEightGpusOnNvSwitches() {
        describe(NVSWITCH_8, 0);
        try {
            CudaGpuProbe probe = CudaGpuProbe.of();
            List<GpuProbe.Gpu> gpus = probe.gpus();
            assertThat(gpus).extracting(GpuProbe.Gpu::busId).containsExactly("0000:18:00.0", "0000:2a:00.0", "0000:3a:00.0",
                    "0000:5d:00.0", "0000:9a:00.0", "0000:ab:00.0", "0000:ba:00.0", "0000:db:00.0");
            for (GpuProbe.Gpu g : gpus) {
                assertThat(g.sm()).isEqualTo(90);
                // 18 links spread over 4 switches, as NVML names each switch by its own bus id
                assertThat(g.nvlinks()).extracting(GpuProbe.NvLink::targetBusId)
                        .containsExactly("0000:e0:00.0", "0000:e1:00.0", "0000:e2:00.0", "0000:e3:00.0");
                assertThat(g.nvlinks()).extracting(GpuProbe.NvLink::count).containsExactly(5, 5, 4, 4);
                assertThat(g.nvlinks()).extracting(GpuProbe.NvLink::targetClass).containsOnly("0x068000");
            }
            assertThat(gpus).extracting(GpuProbe.Gpu::dev).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
            assertThat(probe.p2p(0, 7)).isEqualTo(new CudaGpuProbe.P2p(true, 0));
            // the detected node: one NVSwitch node with every GPU's 18 links
            io.jccl.topo.TopoSystem node = io.jccl.topo.TopoSystem.detect(probe);
            assertThat(node.nodes(io.jccl.topo.NodeType.GPU)).hasSize(8);
            assertThat(node.nodes(io.jccl.topo.NodeType.NVS)).hasSize(1);
        } finally {
            describe("", 0);
        }
    }

    void probeSeesPairsOverPciWithoutNvLinks() {
        describe(PCI_PAIRS, 0);
        try {
            CudaGpuProbe probe = CudaGpuProbe.of();
            assertThat(probe.gpus()).extracting(GpuProbe.Gpu::sm).containsExactly(80, 80, 86, 86);
            assertThat(probe.gpus()).allSatisfy(g -> assertThat(g.nvlinks()).isEmpty());
            assertThat(probe.p2p(0, 1)).isEqualTo(new CudaGpuProbe.P2p(true, 1));
            assertThat(probe.p2p(2, 3)).isEqualTo(new CudaGpuProbe.P2p(true, 1));
            assertThat(probe.p2p(1, 2).accessSupported()).isFalse();
            assertThatJccl(() -> probe.p2p(1, 1), "cuDeviceGetP2PAttribute");
        } finally {
            describe("", 0);
        }
    }

    void withoutNvmlThereAreNoNvLinksAndNoFailure() {
        describe(CUBE_RING, 1);
        try {
            assertThat(CudaGpuProbe.of().gpus()).hasSize(4).allSatisfy(g -> assertThat(g.nvlinks()).isEmpty());
            describe(CUBE_RING, 0);
            assertThat(CudaGpuProbe.withoutNvml().gpus()).hasSize(4).allSatisfy(g -> assertThat(g.nvlinks()).isEmpty());
            // an NVML that cannot name the remote's type: the GPUs among the node's are GPUs
            describe(CUBE_RING, 2);
            List<GpuProbe.Gpu> gpus = CudaGpuProbe.of().gpus();
            assertThat(gpus.get(0).nvlinks()).containsExactly(new GpuProbe.NvLink("0001:3b:00.0", 2, "0x030200"),
                    new GpuProbe.NvLink("0001:4c:00.0", 2, "0x030200"));
            // a malformed description: the fake driver lists no GPU, and neither does the probe
            describe("0000:18:00.0 nvl=7:2", 0);
            assertThat(CudaGpuProbe.of().gpus()).isEmpty();
        } finally {
            describe("", 0);
        }
    }

    /**
     * Four fake GPUs with NVLinks only around the ring 0-2-1-3, ranks on them in another order:
     * without a topology file the engine detects the node, every channel's ring goes over NVLinks
     * in rank terms (INFO's Channel lines), the dump file has each rank's GPU, and ring and tree
     * all-reduce are exact.
     */
    void ranksPlanOnTheNvLinksOfTheDetectedNode() throws Exception {
        describe(CUBE_RING, 0);
        Path log = Files.createTempFile("jccl-graph", ".log");
        Path dump = Files.createTempFile("jccl-topo", ".xml");
        try {
            int[] devOf = {3, 1, 0, 2};
            List<CudaDevice> devices = new ArrayList<>();
            for (int d : devOf) {
                devices.add(CudaDevice.open(d));
            }
            Config base = Config.defaults().withDebug(Config.Debug.INFO).withDebugSubsys("GRAPH")
                    .withDebugFile(log.toString()).withTopoDumpFile(dump.toString());
            for (String algo : List.of("ring", "tree")) {
                allReduce(devices, base.withAlgorithms(algo), algo);
            }
            String text = Files.readString(log);
            Matcher m = Pattern.compile("\\[0] jccl INFO GRAPH Channel (\\d\\d)/\\d\\d :((?: \\d)+)").matcher(text);
            Map<String, String> rings = new TreeMap<>();
            while (m.find()) {
                rings.put(m.group(1), m.group(2).strip());
            }
            assertThat(rings).as(text).isNotEmpty();
            for (String ring : rings.values()) {
                String[] r = ring.split(" ");
                assertThat(r).hasSize(4);
                for (int i = 0; i < 4; i++) {
                    int a = devOf[Integer.parseInt(r[i])];
                    int b = devOf[Integer.parseInt(r[(i + 1) % 4])];
                    assertThat(CUBE_NVLINKED[a]).as("ring %s: GPU %d to GPU %d", ring, a, b).contains(b);
                }
            }
            assertThat(text).contains("[0] jccl INFO GRAPH detected 4 GPU");
            List<String> ranks = new ArrayList<>();
            for (XmlElement pci : XmlElement.read(dump).descendants()) {
                for (XmlElement gpu : pci.name().equals("pci") ? pci.children("gpu") : List.<XmlElement>of()) {
                    ranks.add(pci.attr("busid").orElseThrow() + "=" + gpu.attr("rank").orElseThrow() + ":"
                            + gpu.children("nvlink").size());
                }
            }
            assertThat(ranks).containsExactlyInAnyOrder("0001:4c:00.0=0:2", "0001:2a:00.0=1:2", "0001:18:00.0=2:2",
                    "0001:3b:00.0=3:2");
        } finally {
            describe("", 0);
            Files.deleteIfExists(log);
            Files.deleteIfExists(dump);
        }
    }

    private static void allReduce(List<CudaDevice> devices, Config config, String algo) {
        int n = devices.size();
        Communicator[] comms = Communicator.initAllCuda(devices, config);
        CudaStream[] s = new CudaStream[n];
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] buf = new MemorySegment[n];
            int count = 3001;
            Group.start();
            for (int r = 0; r < n; r++) {
                s[r] = new CudaStream(devices.get(r));
                int[] v = new int[count];
                for (int i = 0; i < count; i++) {
                    v[i] = r * 1000 + i;
                }
                buf[r] = CudaCollectivesTest.buffer(devices.get(r), arena, bytes(v));
                comms[r].allReduce(buf[r], buf[r], count, DataType.INT32, RedOp.SUM, s[r]);
            }
            Group.end();
            int[] want = new int[count];
            for (int i = 0; i < count; i++) {
                want[i] = 6000 + 4 * i;
            }
            for (int r = 0; r < n; r++) {
                s[r].synchronize();
                assertThat(CudaCollectivesTest.read(devices.get(r), buf[r], 4 * count)).as(algo + " rank " + r).isEqualTo(bytes(want));
            }
        } finally {
            for (Communicator c : comms) {
                c.close();
            }
            for (CudaStream x : s) {
                if (x != null) {
                    x.close();
                }
            }
        }
    }

    private static byte[] bytes(int[] values) {
        return MemorySegment.ofArray(values).toArray(ValueLayout.JAVA_BYTE);
    }

    private static void assertThatJccl(Runnable call, String named) {
        org.assertj.core.api.Assertions.assertThatThrownBy(call::run).isInstanceOf(io.jccl.JcclException.class)
                .hasMessageContaining(named);
    }
}
