// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.List;

/**
 * Where detection learns about the machine's GPUs: their PCI bus ids, compute capabilities and
 * NVLinks. The CUDA driver and NVML know these; without a driver there are no GPUs
 * ({@link #NONE}), and detection yields a CPU-only graph.
 *
 * <pre>{@code
 * XmlElement xml = new SysfsDetector(Path.of("/"), GpuProbe.NONE).detect();
 * }</pre>
 */
@FunctionalInterface
public interface GpuProbe {
    /**
     * Active NVLinks of one GPU towards one device: its PCI bus id, how many links, and the PCI
     * class of that device ({@code 0x030200} a GPU, {@code 0x068000} an NVSwitch, {@code 0x068001}
     * a CPU), as NVML's remote PCI info and device type give them.
     */
    record NvLink(String targetBusId, int count, String targetClass) {
    }

    /** One GPU: PCI bus id ({@code 0000:18:00.0}), CUDA device number, compute capability (major*10+minor), NVLinks. */
    record Gpu(String busId, int dev, int sm, List<NvLink> nvlinks) {
        public Gpu {
            nvlinks = List.copyOf(nvlinks);
        }
    }

    /** The GPUs of this machine, in CUDA device order. */
    List<Gpu> gpus();

    /** A machine without GPUs (or without a CUDA driver). */
    GpuProbe NONE = List::of;
}
