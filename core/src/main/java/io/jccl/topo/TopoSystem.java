// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import io.jccl.Config;
import io.jccl.JcclException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;

/**
 * The system graph of one node: GPUs, NUMA domains, PCI switches, NICs and their ports, NVSwitches,
 * the links between them and the path between every pair, built from a topology document in
 * NCCL's format (a file, or what {@link SysfsDetector} made from the running machine). The
 * document is kept as read, so that {@link #dump(Path)} writes back what was loaded.
 *
 * <pre>{@code
 * TopoSystem s = TopoSystem.load(Path.of("dgx-h100.xml"));
 * TopoNode g0 = s.nodes(NodeType.GPU).get(0), g1 = s.nodes(NodeType.GPU).get(1);
 * TopoPath p = s.path(g0, g1);   // NVL, 370.8 GB/s, through the NVSwitch
 * }</pre>
 */
public final class TopoSystem {
    private final XmlElement xml;
    private final EnumMap<NodeType, List<TopoNode>> byType;
    private final List<TopoNode> nodes = new ArrayList<>();
    private final List<TopoLink> links = new ArrayList<>();
    private final TopoPath[][] paths;

    private TopoSystem(XmlElement xml) {
        this.xml = xml.copy();
        this.byType = SystemBuilder.build(this.xml);
        for (NodeType t : NodeType.values()) {
            for (TopoNode n : byType.get(t)) {
                n.ordinal(nodes.size());
                nodes.add(n);
            }
        }
        for (TopoNode n : nodes) {
            for (TopoLink l : n.links()) {
                l.id(links.size());
                links.add(l);
            }
        }
        this.paths = Paths.compute(this);
    }

    /** The system a topology document describes; a malformed one is an invalid argument naming the element. */
    public static TopoSystem fromXml(XmlElement system) {
        return new TopoSystem(system);
    }

    /** Loads a topology file in NCCL's format (what {@code NCCL_TOPO_DUMP_FILE} writes). */
    public static TopoSystem load(Path file) {
        return fromXml(XmlElement.read(file));
    }

    /** The running machine, from sysfs and the GPUs {@code gpus} reports (see {@link SysfsDetector}). */
    public static TopoSystem detect(GpuProbe gpus) {
        return fromXml(new SysfsDetector(Path.of("/"), gpus).detect());
    }

    /**
     * The topology a job uses, as {@code config} says: the file {@code JCCL_TOPO_FILE} names, or
     * else the detected machine; written to {@code JCCL_TOPO_DUMP_FILE} when that is set.
     */
    public static TopoSystem of(Config config, GpuProbe gpus) {
        TopoSystem s = config.topoFile().map(f -> load(Path.of(f))).orElseGet(() -> detect(gpus));
        config.topoDumpFile().ifPresent(f -> s.dump(Path.of(f)));
        return s;
    }

    /** The document this system was built from (a copy). */
    public XmlElement toXml() {
        return xml.copy();
    }

    /** Writes the document in NCCL's layout; loading it again gives the same system. */
    public void dump(Path file) {
        try {
            Files.writeString(file, xml.write());
        } catch (IOException e) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "topology dump file",
                    "cannot write " + file + ": " + e.getMessage());
        }
    }

    /** Every node, types in {@link NodeType} order, each type in document order. */
    public List<TopoNode> nodes() {
        return Collections.unmodifiableList(nodes);
    }

    public List<TopoNode> nodes(NodeType type) {
        return Collections.unmodifiableList(byType.get(type));
    }

    /** Every link (each direction is one), numbered by {@link TopoLink#id()}. */
    public List<TopoLink> links() {
        return Collections.unmodifiableList(links);
    }

    public TopoPath path(TopoNode from, TopoNode to) {
        return paths[from.ordinal()][to.ordinal()];
    }

    /** The GPU whose {@code rank} attribute is {@code rank}, or null. */
    public TopoNode gpuOfRank(int rank) {
        for (TopoNode g : byType.get(NodeType.GPU)) {
            if (g.gpu().rank() == rank) {
                return g;
            }
        }
        return null;
    }

    /** The CPU fewest hops from a node. */
    public TopoNode localCpu(TopoNode node) {
        return Paths.localCpu(byType.get(NodeType.CPU), node, this::path);
    }

    /**
     * The nodes of {@code type} nearest {@code from}: the least path type, then the most bandwidth
     * (NCCL's "local" GPUs of a NIC, NICs of a GPU).
     */
    public List<TopoNode> nearest(TopoNode from, NodeType type) {
        return Paths.nearest(byType.get(type), from, this::path);
    }

    /** Counts of the nodes by type, such as "8 GPU, 1 NVS, 2 CPU, 16 PCI, 8 NIC, 8 NET". */
    public String summary() {
        List<String> parts = new ArrayList<>();
        for (NodeType t : NodeType.values()) {
            if (!byType.get(t).isEmpty()) {
                parts.add(byType.get(t).size() + " " + t);
            }
        }
        return String.join(", ", parts);
    }

    /**
     * The graph as text, in the shape of NCCL's topology print: from each CPU down the PCI tree,
     * one line per link with its type and bandwidth, the node's details after its name.
     */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (TopoNode cpu : byType.get(NodeType.CPU)) {
            describe(sb, cpu, null, 0);
        }
        // NVSwitches and nodes outside any CPU's tree (none in a well-formed document) at the end.
        for (TopoNode n : byType.get(NodeType.NVS)) {
            describe(sb, n, null, 0);
        }
        return sb.toString();
    }

    private void describe(StringBuilder sb, TopoNode node, TopoNode from, int depth) {
        if (depth == 0) {
            sb.append(label(node)).append('\n');
        }
        for (TopoLink l : node.links()) {
            TopoNode to = l.to();
            if (to == from) {
                continue;
            }
            sb.append("  ".repeat(depth + 1)).append(String.format(Locale.ROOT, "+ %s[%.1f] - ", l.type(), l.bw()))
                    .append(label(to)).append('\n');
            boolean down = l.type() == LinkType.PCI && to.type() != NodeType.CPU
                    || l.type() == LinkType.NET && node.type() == NodeType.NIC;
            if (down) {
                describe(sb, to, node, depth + 1);
            }
        }
    }

    /** A node's name and, in parentheses, its details. */
    public static String label(TopoNode n) {
        return switch (n.type()) {
            case GPU -> String.format(Locale.ROOT, "%s (%s, dev %d, sm %d%s)", n.name(), n.busId(), n.gpu().dev(),
                    n.gpu().sm(), n.gpu().gdr() ? ", gdr" : "");
            case CPU -> String.format(Locale.ROOT, "%s (%s %s family %d model %d)", n.name(), n.cpu().arch(),
                    n.cpu().vendor().strip(), n.cpu().familyId(), n.cpu().modelId());
            case NET -> String.format(Locale.ROOT, "%s (%s, %.1f GB/s, port %d%s)", n.name(), n.net().name(),
                    n.net().bw(), n.net().port(), n.net().gdr() ? ", gdr" : "");
            default -> n.name();
        };
    }
}
