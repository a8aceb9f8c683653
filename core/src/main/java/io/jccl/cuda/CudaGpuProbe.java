// SPDX-License-Identifier: Apache-2.0
package io.jccl.cuda;

import static io.jccl.bindings.CLayouts.C_INT;
import static io.jccl.bindings.CLayouts.C_POINTER;

import io.jccl.JcclException;
import io.jccl.bindings.NativeLibraryException;
import io.jccl.bindings.cuda.Cuda;
import io.jccl.bindings.nvml.Nvml;
import io.jccl.bindings.nvml.nvmlPciInfo_st;
import io.jccl.topo.GpuProbe;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The GPUs of this machine as the CUDA driver and NVML see them, for topology detection: each
 * device's PCI bus id ({@code cuDeviceGetPCIBusId}, in NCCL's lowercase {@code 0000:bb:dd.f} form)
 * and compute capability ({@code cuDeviceGetAttribute}), and its active NVLinks counted per remote
 * device (NVML's link state, remote PCI info and remote device type). NVML is optional: where it
 * cannot be loaded or initialised (no driver, a container without it) the GPUs have no NVLinks and
 * detection sees PCI only.
 *
 * <pre>{@code
 * CudaGpuProbe probe = CudaGpuProbe.of();
 * TopoSystem node = TopoSystem.detect(probe);          // the PCI tree from sysfs, NVLinks from NVML
 * boolean p2p = probe.p2p(0, 1).accessSupported();     // cuDeviceGetP2PAttribute
 * }</pre>
 */
public final class CudaGpuProbe implements GpuProbe {
    /** PCI class NCCL gives each kind of NVLink peer ({@link GpuProbe.NvLink#targetClass}). */
    static final String CLASS_GPU = "0x030200";
    static final String CLASS_NVSWITCH = "0x068000";
    static final String CLASS_CPU = "0x068001";

    private static final Pattern BUS_ID = Pattern.compile("([0-9a-fA-F]{1,8}):([0-9a-fA-F]{1,2}):([0-9a-fA-F]{1,2})\\.([0-7])");

    private final boolean nvml;
    private List<Gpu> gpus;

    private CudaGpuProbe(boolean nvml) {
        this.nvml = nvml;
    }

    /** The probe of the driver and, where it loads, NVML. Nothing is called until {@link #gpus()}. */
    public static CudaGpuProbe of() {
        return new CudaGpuProbe(true);
    }

    /** The probe of the driver alone: GPUs without NVLinks. */
    public static CudaGpuProbe withoutNvml() {
        return new CudaGpuProbe(false);
    }

    /** Whether P2P from one device to another is supported, and the driver's rank of its performance (0 best). */
    public record P2p(boolean accessSupported, int performanceRank) {
    }

    /**
     * The GPUs in CUDA device order (asked once; later calls give the same list). A driver error
     * is a {@link JcclException} naming the call; NVML's absence is not an error.
     */
    @Override
    public synchronized List<Gpu> gpus() {
        if (gpus == null) {
            CudaDriver.init();
            int n = CudaDriver.deviceCount();
            List<String> busIds = new ArrayList<>(n);
            for (int d = 0; d < n; d++) {
                busIds.add(busId(CudaDriver.pciBusId(CudaDriver.device(d))));
            }
            Map<String, List<NvLink>> links = nvml ? nvLinks(busIds) : Map.of();
            List<Gpu> l = new ArrayList<>(n);
            for (int d = 0; d < n; d++) {
                int dev = CudaDriver.device(d);
                int sm = CudaDriver.attribute(Cuda.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev) * 10
                        + CudaDriver.attribute(Cuda.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
                l.add(new Gpu(busIds.get(d), d, sm, links.getOrDefault(busIds.get(d), List.of())));
            }
            gpus = List.copyOf(l);
        }
        return gpus;
    }

    /** {@code cuDeviceGetP2PAttribute} from device ordinal {@code from} to {@code to}: access and performance rank. */
    public P2p p2p(int from, int to) {
        int src = CudaDriver.device(from);
        int dst = CudaDriver.device(to);
        return new P2p(CudaDriver.p2pAttribute(Cuda.CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, src, dst) != 0,
                CudaDriver.p2pAttribute(Cuda.CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK, src, dst));
    }

    /**
     * A PCI bus id in NCCL's form: lowercase, a 4-digit domain ({@code 0000:18:00.0}). The driver
     * writes hex in uppercase and NVML an 8-digit domain ({@code 00000000:18:00.0}); topology files
     * and sysfs use this form, and GPUs are matched by it.
     */
    public static String busId(String id) {
        Matcher m = BUS_ID.matcher(id == null ? "" : id.strip());
        if (!m.matches()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "PCI bus id",
                    "'" + id + "' is not domain:bus:device.function in hex");
        }
        return String.format(Locale.ROOT, "%04x:%02x:%02x.%s", Long.parseLong(m.group(1), 16),
                Integer.parseInt(m.group(2), 16), Integer.parseInt(m.group(3), 16), m.group(4));
    }

    /**
     * Active NVLinks per GPU, counted per remote bus id; empty where NVML cannot be loaded or
     * initialised, and for a GPU NVML does not know or whose links it will not report (a PCIe card
     * answers NOT_SUPPORTED).
     */
    private static Map<String, List<NvLink>> nvLinks(List<String> busIds) {
        try {
            if (Nvml.nvmlInit_v2() != Nvml.NVML_SUCCESS) {
                return Map.of();
            }
        } catch (NativeLibraryException e) {
            return Map.of();
        }
        try (Arena arena = Arena.ofConfined()) {
            Map<String, List<NvLink>> byGpu = new LinkedHashMap<>();
            MemorySegment handle = arena.allocate(C_POINTER);
            MemorySegment value = arena.allocate(C_INT);
            MemorySegment pci = nvmlPciInfo_st.allocate(arena);
            for (String gpu : busIds) {
                if (Nvml.nvmlDeviceGetHandleByPciBusId_v2(arena.allocateFrom(gpu), handle) != Nvml.NVML_SUCCESS) {
                    continue;
                }
                MemorySegment device = handle.get(C_POINTER, 0);
                Map<String, int[]> count = new LinkedHashMap<>();
                Map<String, String> cls = new LinkedHashMap<>();
                for (int link = 0; link < Nvml.NVML_NVLINK_MAX_LINKS; link++) {
                    if (Nvml.nvmlDeviceGetNvLinkState(device, link, value) != Nvml.NVML_SUCCESS
                            || value.get(C_INT, 0) != Nvml.NVML_FEATURE_ENABLED
                            || Nvml.nvmlDeviceGetNvLinkRemotePciInfo_v2(device, link, pci) != Nvml.NVML_SUCCESS) {
                        continue;
                    }
                    String remote = busId(cString(nvmlPciInfo_st.busId(pci)));
                    count.computeIfAbsent(remote, k -> new int[1])[0]++;
                    cls.putIfAbsent(remote, remoteClass(device, link, remote, busIds, value));
                }
                List<NvLink> links = new ArrayList<>();
                count.forEach((remote, c) -> links.add(new NvLink(remote, c[0], cls.get(remote))));
                byGpu.put(gpu, links);
            }
            return byGpu;
        } catch (NativeLibraryException e) {
            return Map.of(); // an NVML without a call jccl needs: as if absent
        } finally {
            Nvml.nvmlShutdown();
        }
    }

    /**
     * The PCI class of a link's remote device from NVML's remote device type; where NVML cannot say
     * (an older library without the call, or UNKNOWN), a remote that is one of the GPUs is a GPU
     * and anything else an NVSwitch, as NCCL infers it.
     */
    private static String remoteClass(MemorySegment device, int link, String remote, List<String> gpus, MemorySegment type) {
        int t = Nvml.NVML_NVLINK_DEVICE_TYPE_UNKNOWN;
        try {
            if (Nvml.nvmlDeviceGetNvLinkRemoteDeviceType(device, link, type) == Nvml.NVML_SUCCESS) {
                t = type.get(C_INT, 0);
            }
        } catch (NativeLibraryException e) {
            // an NVML older than the call: inferred below
        }
        if (t == Nvml.NVML_NVLINK_DEVICE_TYPE_GPU) {
            return CLASS_GPU;
        }
        if (t == Nvml.NVML_NVLINK_DEVICE_TYPE_SWITCH) {
            return CLASS_NVSWITCH;
        }
        if (t == Nvml.NVML_NVLINK_DEVICE_TYPE_IBMNPU) {
            return CLASS_CPU;
        }
        return gpus.contains(remote) ? CLASS_GPU : CLASS_NVSWITCH;
    }

    private static String cString(MemorySegment chars) {
        byte[] b = chars.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.US_ASCII);
    }
}
