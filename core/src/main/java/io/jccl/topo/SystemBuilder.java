// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import io.jccl.JcclException;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Builds the system graph from a topology document in NCCL's format, with NCCL's reading of it:
 * {@code <pci>} elements of bridge class become PCI switches, a {@code <pci>} holding a
 * {@code <gpu>} becomes that GPU, one holding a {@code <nic>} a NIC whose {@code <net>} children
 * are its ports; {@code <nvlink>} elements add NVLinks (to the GPU at {@code target}, to the one
 * NVSwitch node for an NVSwitch target class, to the GPU's CPU for a CPU target), {@code <c2c>}
 * a chip-to-chip link, {@code <pcilink>} a virtual link between switches; every pair of CPUs is
 * joined by the SMP interconnect.
 */
final class SystemBuilder {
    static final String CLASS_BRIDGE = "0x060400";
    static final String CLASS_NVSWITCH = "0x068000";
    static final String CLASS_CPU = "0x068001";
    /** NCCL's MAXCHANNELS, the default of a port's {@code maxconn}. */
    static final int MAX_CHANNELS = 64;

    private final EnumMap<NodeType, List<TopoNode>> nodes = new EnumMap<>(NodeType.class);
    private final Map<String, TopoNode> gpusByBus = new HashMap<>();
    private final Map<String, TopoNode> pciByBus = new HashMap<>();
    private final Map<String, TopoNode> nicsByBus = new HashMap<>();
    /** The CPU each PCI-attached node hangs from, for NVLinks and C2C links to "the CPU". */
    private final Map<TopoNode, TopoNode> localCpu = new HashMap<>();
    private final Map<TopoNode, TopoNode> pciParent = new HashMap<>();

    private SystemBuilder() {
        for (NodeType t : NodeType.values()) {
            nodes.put(t, new ArrayList<>());
        }
    }

    /** The nodes of the system described by {@code system}, linked. */
    static EnumMap<NodeType, List<TopoNode>> build(XmlElement system) {
        if (!system.name().equals("system")) {
            throw bad("<" + system.name() + ">", "the root element must be <system>");
        }
        String version = system.attr("version").orElseThrow(() -> bad("<system>", "has no version attribute"));
        if (!version.strip().equals("1")) {
            throw bad("<system>", "version " + version + " is not 1, the version NCCL writes");
        }
        SystemBuilder b = new SystemBuilder();
        for (XmlElement cpu : system.children("cpu")) {
            b.addCpu(cpu);
        }
        for (XmlElement cpu : system.children("cpu")) {
            b.addSecondPass(cpu);
        }
        b.connectCpus();
        b.sortPciUplinksLast();
        return b.nodes;
    }

    private TopoNode make(NodeType type, IntFunction<TopoNode> maker) {
        List<TopoNode> list = nodes.get(type);
        TopoNode n = maker.apply(list.size());
        list.add(n);
        return n;
    }

    private static void link(TopoNode a, TopoNode b, LinkType type, double bw) {
        a.connect(b, type, bw);
        b.connect(a, type, bw);
    }

    private void addCpu(XmlElement e) {
        int numa = intAttr(e, "numaid");
        for (TopoNode c : nodes.get(NodeType.CPU)) {
            if (c.cpu().numaId() == numa) {
                throw bad("<cpu numaid=\"" + numa + "\">", "appears twice");
            }
        }
        TopoNode.Cpu info = new TopoNode.Cpu(numa, e.attr("arch").orElse(""), e.attr("vendor").orElse(""),
                intAttr(e, "familyid", 0), intAttr(e, "modelid", 0), e.attr("affinity").orElse(""));
        TopoNode cpu = make(NodeType.CPU, i -> TopoNode.cpu(i, info));
        for (XmlElement c : e.children()) {
            switch (c.name()) {
                case "pci" -> addPci(c, cpu, cpu);
                case "nic" -> {
                    // A NIC straight under a CPU has no bus id of its own.
                    TopoNode nic = make(NodeType.NIC, i -> TopoNode.other(NodeType.NIC, i, null));
                    link(cpu, nic, LinkType.PCI, Bandwidth.LOC);
                    localCpu.put(nic, cpu);
                    addPorts(c, nic);
                }
                default -> {
                    // Unknown elements are skipped, as NCCL skips them, and kept for the dump.
                }
            }
        }
    }

    private void addPci(XmlElement e, TopoNode parent, TopoNode cpu) {
        String where = "<pci busid=\"" + e.attr("busid").orElse("?") + "\">";
        String busId = e.attr("busid").orElseThrow(() -> bad(where, "has no busid")).toLowerCase(Locale.ROOT);
        String cls = e.attr("class").orElseThrow(() -> bad(where, "has no class"));
        double bw = Bandwidth.pci(e.attr("link_speed").orElse(""), intAttr(e, "link_width", 0));

        for (XmlElement g : e.children("gpu")) {
            if (g.attr("rank").isEmpty()) {
                continue; // a GPU the job does not use
            }
            TopoNode.Gpu info = new TopoNode.Gpu(intAttr(g, "dev", -1), intAttr(g, "rank"), intAttr(g, "sm"),
                    intAttr(g, "gdr", 0) != 0);
            TopoNode gpu = make(NodeType.GPU, i -> TopoNode.gpu(i, busId, info));
            if (gpusByBus.put(busId, gpu) != null) {
                throw bad(where, "holds a second GPU");
            }
            link(gpu, parent, LinkType.PCI, bw);
            localCpu.put(gpu, cpu);
            pciParent.put(gpu, parent);
        }

        var nicElement = e.child("nic");
        if (nicElement.isPresent()) {
            // The functions of a multi-port card are one NIC.
            String card = busId.contains(".") ? busId.substring(0, busId.lastIndexOf('.')) : busId;
            TopoNode nic = nicsByBus.get(card);
            if (nic == null) {
                nic = make(NodeType.NIC, i -> TopoNode.other(NodeType.NIC, i, busId));
                nicsByBus.put(card, nic);
                link(nic, parent, LinkType.PCI, bw);
                localCpu.put(nic, cpu);
                pciParent.put(nic, parent);
            }
            addPorts(nicElement.get(), nic);
        } else if (nodeTypeOfClass(cls) == NodeType.PCI) {
            TopoNode sw = make(NodeType.PCI, i -> TopoNode.other(NodeType.PCI, i, busId));
            if (pciByBus.put(busId, sw) != null) {
                throw bad(where, "appears twice");
            }
            link(sw, parent, LinkType.PCI, bw);
            localCpu.put(sw, cpu);
            pciParent.put(sw, parent);
            for (XmlElement c : e.children("pci")) {
                addPci(c, sw, cpu);
            }
        }
    }

    /** NCCL's reading of a PCI class: by prefix, bridges and unknown classes are switches. */
    static NodeType nodeTypeOfClass(String cls) {
        String c = cls.strip().toLowerCase(Locale.ROOT);
        if (c.startsWith(CLASS_BRIDGE)) {
            return NodeType.PCI;
        }
        if (c.startsWith(CLASS_NVSWITCH)) {
            return NodeType.NVS;
        }
        if (c.startsWith(CLASS_CPU)) {
            return NodeType.CPU;
        }
        if (c.startsWith("0x03")) {
            return NodeType.GPU;
        }
        if (c.startsWith("0x02")) {
            return NodeType.NIC;
        }
        return NodeType.PCI;
    }

    private void addPorts(XmlElement nicElement, TopoNode nic) {
        for (XmlElement n : nicElement.children("net")) {
            if (n.attr("dev").isEmpty() || intAttr(n, "net", 1) == 0) {
                continue; // no device number, or a port fused into a virtual NIC
            }
            int dev = intAttr(n, "dev");
            for (TopoNode other : nodes.get(NodeType.NET)) {
                if (other.net().dev() == dev) {
                    throw bad("<net dev=\"" + dev + "\">", "appears twice");
                }
            }
            double bw = Bandwidth.net(longAttr(n, "speed", 0));
            TopoNode.Net info = new TopoNode.Net(dev, n.attr("name").orElse(""), bw, intAttr(n, "port", 0),
                    longAttr(n, "guid", dev), intAttr(n, "gdr", 0) != 0, intAttr(n, "maxconn", MAX_CHANNELS),
                    doubleAttr(n, "latency", 0), intAttr(n, "coll", 0) != 0);
            TopoNode net = make(NodeType.NET, i -> TopoNode.net(i, info));
            link(nic, net, LinkType.NET, bw);
            localCpu.put(net, localCpu.get(nic));
        }
    }

    /** NVLinks, C2C links and PCI virtual links, once every node they may name exists. */
    private void addSecondPass(XmlElement cpuElement) {
        for (XmlElement pci : cpuElement.descendants()) {
            if (!pci.name().equals("pci")) {
                continue;
            }
            String busId = pci.attr("busid").orElse("").toLowerCase(Locale.ROOT);
            TopoNode gpu = gpusByBus.get(busId);
            for (XmlElement g : pci.children("gpu")) {
                if (gpu == null) {
                    continue;
                }
                for (XmlElement nv : g.children("nvlink")) {
                    addNvLink(nv, gpu);
                }
                for (XmlElement c2c : g.children("c2c")) {
                    double bw = intAttr(c2c, "bw", 0) * (double) intAttr(c2c, "count", 0) / 1000.0;
                    link(gpu, localCpu.get(gpu), LinkType.C2C, bw);
                }
            }
            for (XmlElement pl : pci.children("pcilink")) {
                TopoNode sw = pciByBus.get(busId);
                TopoNode remote = pciByBus.get(pl.attr("target").orElse("").toLowerCase(Locale.ROOT));
                if (sw != null && remote != null) {
                    sw.connect(remote, LinkType.LOC, Bandwidth.LOC);
                }
            }
        }
    }

    private void addNvLink(XmlElement nv, TopoNode gpu) {
        String where = "<nvlink> of " + gpu.name();
        int count = intAttr(nv, "count");
        String tclass = nv.attr("tclass").orElseThrow(() -> bad(where, "has no tclass"));
        double bw = count * Bandwidth.nvlink(gpu.gpu().sm());
        switch (nodeTypeOfClass(tclass)) {
            case GPU -> {
                String target = nv.attr("target").orElseThrow(() -> bad(where, "has no target")).toLowerCase(Locale.ROOT);
                TopoNode remote = gpusByBus.get(target);
                if (remote != null) {
                    // Each GPU lists its own NVLinks: one direction per element.
                    gpu.connect(remote, LinkType.NVL, bw);
                }
            }
            case CPU -> link(gpu, localCpu.get(gpu), LinkType.NVL, bw);
            default -> {
                List<TopoNode> nvs = nodes.get(NodeType.NVS);
                TopoNode sw = nvs.isEmpty() ? make(NodeType.NVS, i -> TopoNode.other(NodeType.NVS, i, null)) : nvs.get(0);
                link(gpu, sw, LinkType.NVL, bw);
            }
        }
    }

    private void connectCpus() {
        for (TopoNode a : nodes.get(NodeType.CPU)) {
            for (TopoNode b : nodes.get(NodeType.CPU)) {
                if (a != b) {
                    a.connect(b, LinkType.SYS, Bandwidth.interCpu(a.cpu()));
                }
            }
        }
    }

    /** NCCL orders each node's links NVLink, PCI down, PCI up, so that searches go down first. */
    private void sortPciUplinksLast() {
        for (Map.Entry<TopoNode, TopoNode> e : pciParent.entrySet()) {
            TopoNode node = e.getKey();
            TopoLink up = node.link(e.getValue(), LinkType.PCI);
            node.moveLast(up);
        }
    }

    private static int intAttr(XmlElement e, String key) {
        String v = e.attr(key).orElseThrow(() -> bad("<" + e.name() + " " + e.attrs() + ">", "has no " + key));
        return parseInt(e, key, v);
    }

    private static int intAttr(XmlElement e, String key, int dflt) {
        return e.attr(key).filter(v -> !v.isBlank()).map(v -> parseInt(e, key, v)).orElse(dflt);
    }

    private static int parseInt(XmlElement e, String key, String v) {
        long l = parseLong(e, key, v);
        if (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) {
            throw bad("<" + e.name() + ">", key + "=\"" + v + "\" is out of range");
        }
        return (int) l;
    }

    private static long longAttr(XmlElement e, String key, long dflt) {
        return e.attr(key).filter(v -> !v.isBlank()).map(v -> parseLong(e, key, v)).orElse(dflt);
    }

    /** Integers as C's strtol with base 0 reads them: decimal, or hexadecimal after 0x. */
    private static long parseLong(XmlElement e, String key, String v) {
        String s = v.strip();
        try {
            if (s.startsWith("0x") || s.startsWith("0X")) {
                return Long.parseUnsignedLong(s.substring(2), 16);
            }
            return Long.parseLong(s);
        } catch (NumberFormatException ex) {
            throw bad("<" + e.name() + ">", key + "=\"" + v + "\" is not an integer");
        }
    }

    private static double doubleAttr(XmlElement e, String key, double dflt) {
        String v = e.attr(key).orElse("").strip();
        if (v.isEmpty()) {
            return dflt;
        }
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException ex) {
            throw bad("<" + e.name() + ">", key + "=\"" + v + "\" is not a number");
        }
    }

    static JcclException bad(String where, String problem) {
        return JcclException.invalidArgument(JcclException.NO_RANK, "topology", where + " " + problem);
    }
}
