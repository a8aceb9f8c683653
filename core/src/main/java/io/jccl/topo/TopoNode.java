// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A node of the system graph: its type, the facts of its kind ({@link Gpu}, {@link Cpu},
 * {@link Net}, a PCI bus id) and its outgoing links: fastest first, except that a node of the PCI
 * tree lists its link up towards the CPU last, as NCCL orders them so that searches go down first.
 */
public final class TopoNode {
    /** A GPU: CUDA/NVML device number, rank in the job, compute capability, GPUDirect RDMA support. */
    public record Gpu(int dev, int rank, int sm, boolean gdr) {
    }

    /** A NUMA domain: its id, the CPU it is made of, and the cpus in it as sysfs writes a cpumap. */
    public record Cpu(int numaId, String arch, String vendor, int familyId, int modelId, String affinity) {
    }

    /**
     * A network port as the network plugin reports it: device number, name, bandwidth in GB/s,
     * port, GUID, GPUDirect RDMA support, the most connections it takes, latency in µs, and
     * whether it can run collectives in the network.
     */
    public record Net(int dev, String name, double bw, int port, long guid, boolean gdr, int maxChannels,
                      double latency, boolean coll) {
    }

    private final NodeType type;
    private final int index;
    private final String busId;
    private final Gpu gpu;
    private final Cpu cpu;
    private final Net net;
    private final List<TopoLink> links = new ArrayList<>();
    private int ordinal = -1;

    private TopoNode(NodeType type, int index, String busId, Gpu gpu, Cpu cpu, Net net) {
        this.type = type;
        this.index = index;
        this.busId = busId;
        this.gpu = gpu;
        this.cpu = cpu;
        this.net = net;
    }

    static TopoNode gpu(int index, String busId, Gpu g) {
        return new TopoNode(NodeType.GPU, index, busId, g, null, null);
    }

    static TopoNode cpu(int index, Cpu c) {
        return new TopoNode(NodeType.CPU, index, null, null, c, null);
    }

    static TopoNode net(int index, Net n) {
        return new TopoNode(NodeType.NET, index, null, null, null, n);
    }

    /** A PCI switch, a NIC (by its PCI bus id, or none for a NIC attached to a CPU) or the NVSwitch. */
    static TopoNode other(NodeType type, int index, String busId) {
        return new TopoNode(type, index, busId, null, null, null);
    }

    public NodeType type() {
        return type;
    }

    /** Position among the nodes of its type, in the order the topology lists them. */
    public int index() {
        return index;
    }

    /** The PCI bus id of a GPU, PCI switch or NIC ({@code null} for the others). */
    public String busId() {
        return busId;
    }

    public Gpu gpu() {
        return require(gpu, NodeType.GPU);
    }

    public Cpu cpu() {
        return require(cpu, NodeType.CPU);
    }

    public Net net() {
        return require(net, NodeType.NET);
    }

    private <T> T require(T info, NodeType expected) {
        if (type != expected) {
            throw new IllegalStateException(name() + " is not a " + expected);
        }
        return info;
    }

    /** Position among all nodes of the system, types in {@link NodeType} order. */
    public int ordinal() {
        return ordinal;
    }

    void ordinal(int o) {
        ordinal = o;
    }

    public List<TopoLink> links() {
        return Collections.unmodifiableList(links);
    }

    /** The link of {@code type} to {@code to}, or null. */
    public TopoLink link(TopoNode to, LinkType type) {
        for (TopoLink l : links) {
            if (l.to() == to && l.type() == type) {
                return l;
            }
        }
        return null;
    }

    /** Adds {@code bw} to the link of that type to {@code to}, making it if needed; keeps links fastest first. */
    TopoLink connect(TopoNode to, LinkType linkType, double bw) {
        TopoLink l = link(to, linkType);
        if (l == null) {
            l = new TopoLink(linkType, this, to, bw);
            links.add(l);
        } else {
            l.addBw(bw);
        }
        // Stable: links of equal bandwidth keep the order they were made in.
        links.sort((a, b) -> Double.compare(b.bw(), a.bw()));
        return l;
    }

    void moveLast(TopoLink l) {
        if (links.remove(l)) {
            links.add(l);
        }
    }

    /** A short name: GPU/rank, CPU/numa id, NET/dev, PCI or NIC by bus id, NVS/0. */
    public String name() {
        return switch (type) {
            case GPU -> "GPU/" + gpu.rank();
            case CPU -> "CPU/" + cpu.numaId();
            case NET -> "NET/" + net.dev();
            case NVS -> "NVS/" + index;
            case PCI, NIC -> type + "/" + (busId != null ? busId : Integer.toString(index));
        };
    }

    @Override
    public String toString() {
        return name();
    }
}
