// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.topo.Layout;
import io.jccl.topo.LinkType;
import io.jccl.topo.NodeType;
import io.jccl.topo.NumaPlacement;
import io.jccl.topo.TopoGraph;
import io.jccl.topo.TopoLink;
import io.jccl.topo.TopoNode;
import io.jccl.topo.TopoPattern;
import io.jccl.topo.TopoSearch;
import io.jccl.topo.TopoSystem;
import io.jccl.topo.TreeNode;
import io.jccl.topo.XmlElement;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The picture of {@code jccl topo --svg}: the node's machine drawn as the tree of its PCI fabric
 * under each CPU (NVSwitches below the GPUs), once with each channel's ring over it and once with
 * each channel's tree chain, every hop following the links the path really takes, one colour per
 * channel; then, across nodes, the double binary tree over the nodes (first tree solid, second
 * dashed); without GPUs, the ranks each NUMA domain holds.
 */
final class TopoSvg {
    private static final String NS = "http://www.w3.org/2000/svg";
    private static final int BOX_W = 104;
    private static final int BOX_H = 34;
    private static final int DX = 118;
    private static final int DY = 74;
    private static final int MARGIN = 30;
    private static final String[] PALETTE = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
        "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#393b79", "#637939"};

    private final TopoSystem system;
    private final Map<TopoNode, double[]> at = new HashMap<>();
    private double width;
    private double machineHeight;

    private TopoSvg(TopoSystem system) {
        this.system = system;
    }

    /** The picture; {@code layout} null for a node without GPUs, {@code placement} null for one with. */
    static XmlElement draw(TopoSystem system, Layout layout, NumaPlacement placement) {
        return new TopoSvg(system).svg(layout, placement);
    }

    static String colour(int channel) {
        return channel < PALETTE.length ? PALETTE[channel]
                : String.format(Locale.ROOT, "hsl(%d,70%%,45%%)", (channel * 137) % 360);
    }

    private XmlElement svg(Layout layout, NumaPlacement placement) {
        place();
        List<XmlElement> panels = new ArrayList<>();
        double y = MARGIN + 24;
        if (layout != null) {
            TopoGraph ring = layout.ringGraph(0);
            TopoGraph tree = layout.treeGraph(0);
            panels.add(machine("rings", "Rings: " + ring.summary(), y, ring, layout.nNodes() > 1));
            y += machineHeight + 40;
            panels.add(machine("trees", "Tree chains: " + tree.summary(), y, tree, layout.nNodes() > 1));
            y += machineHeight + 40;
            if (layout.nNodes() > 1) {
                XmlElement nodes = nodeTrees(layout, y);
                panels.add(nodes);
                y += 150;
            }
            panels.add(legend(layout.nChannels(), y));
            y += 20 + 16 * ((layout.nChannels() + 7) / 8);
        } else {
            panels.add(machine("machine", "No GPU: host ranks by NUMA domain", y, null, false));
            y += machineHeight + 40;
            panels.add(placementText(placement, y));
            y += 20 + 16 * placement.domains().size();
        }
        double w = Math.max(width, 640);
        XmlElement svg = new XmlElement("svg").set("xmlns", NS).set("width", fmt(w)).set("height", fmt(y))
                .set("viewBox", "0 0 " + fmt(w) + " " + fmt(y)).set("font-family", "sans-serif").set("font-size", "11");
        svg.add(new XmlElement("title").text("jccl topo: " + system.summary()));
        svg.add(text(MARGIN, MARGIN, "jccl topo: " + system.summary(), "title")).set("font-size", "14");
        panels.forEach(svg::add);
        return svg;
    }

    /** Positions of every node in one machine panel whose top is y = 0: PCI trees under the CPUs, NVS below. */
    private void place() {
        Set<TopoNode> seen = new HashSet<>();
        int[] leaves = {0};
        int[] maxDepth = {0};
        for (TopoNode cpu : system.nodes(NodeType.CPU)) {
            placeTree(cpu, 0, seen, leaves, maxDepth);
        }
        List<TopoNode> nvs = system.nodes(NodeType.NVS);
        if (!nvs.isEmpty()) {
            double sum = 0;
            for (TopoNode g : system.nodes(NodeType.GPU)) {
                sum += at.get(g)[0];
            }
            int gpus = Math.max(1, system.nodes(NodeType.GPU).size());
            for (TopoNode n : nvs) {
                at.put(n, new double[] {sum / gpus, (maxDepth[0] + 1) * DY});
            }
            maxDepth[0]++;
        }
        width = 2 * MARGIN + Math.max(1, leaves[0]) * DX;
        machineHeight = (maxDepth[0] + 1) * DY;
    }

    /** Places the subtree of {@code n}; returns its x. Children are the PCI links down and a NIC's ports. */
    private double placeTree(TopoNode n, int depth, Set<TopoNode> seen, int[] leaves, int[] maxDepth) {
        seen.add(n);
        maxDepth[0] = Math.max(maxDepth[0], depth);
        List<Double> xs = new ArrayList<>();
        for (TopoLink l : n.links()) {
            TopoNode c = l.to();
            boolean down = (l.type() == LinkType.PCI && c.type() != NodeType.CPU)
                    || (l.type() == LinkType.NET && n.type() == NodeType.NIC);
            if (down && !seen.contains(c)) {
                xs.add(placeTree(c, depth + 1, seen, leaves, maxDepth));
            }
        }
        double x = xs.isEmpty() ? MARGIN + BOX_W / 2.0 + DX * leaves[0]++ : (xs.getFirst() + xs.getLast()) / 2;
        at.put(n, new double[] {x, depth * DY + BOX_H / 2.0});
        return x;
    }

    private double[] pos(TopoNode n, double top) {
        double[] p = at.get(n);
        return new double[] {p[0], p[1] + top};
    }

    /** One machine panel: links, the channels of {@code graph} over them (if any), then the nodes. */
    private XmlElement machine(String id, String title, double top, TopoGraph graph, boolean inter) {
        XmlElement g = new XmlElement("g").set("id", id).set("class", "panel");
        g.add(text(MARGIN, top - 8, title, "panel-title")).set("font-weight", "bold");
        XmlElement links = g.add(new XmlElement("g").set("class", "links"));
        Set<TopoLink> drawn = new HashSet<>();
        for (TopoLink l : system.links()) {
            TopoLink back = l.to().link(l.from(), l.type());
            if (drawn.contains(back) || !at.containsKey(l.from()) || !at.containsKey(l.to())) {
                continue;
            }
            drawn.add(l);
            links.add(link(l, top));
        }
        if (graph != null) {
            XmlElement channels = g.add(new XmlElement("g").set("class", "channels"));
            List<TopoNode> gpus = TopoSearch.gpusByRank(system);
            int k = graph.nChannels();
            for (int c = 0; c < k; c++) {
                channels.add(channelLine(graph, graph.channel(c), c, k, gpus, top, inter));
            }
        }
        XmlElement nodes = g.add(new XmlElement("g").set("class", "nodes"));
        for (TopoNode n : system.nodes()) {
            if (at.containsKey(n)) {
                nodes.add(node(n, top));
            }
        }
        return g;
    }

    private XmlElement link(TopoLink l, double top) {
        double[] a = pos(l.from(), top);
        double[] b = pos(l.to(), top);
        String stroke = switch (l.type()) {
            case NVL -> "#76b900";
            case PCI -> "#999999";
            case SYS -> "#444444";
            case NET -> "#e08000";
            case C2C -> "#3366cc";
            case LOC -> "#cccccc";
        };
        XmlElement line = new XmlElement("line").set("class", "link " + l.type().name().toLowerCase(Locale.ROOT))
                .set("x1", fmt(a[0])).set("y1", fmt(a[1])).set("x2", fmt(b[0])).set("y2", fmt(b[1]))
                .set("stroke", stroke).set("stroke-width", fmt(1 + Math.min(l.bw(), 400) / 60));
        if (l.type() == LinkType.SYS) {
            line.set("stroke-dasharray", "6,4");
        }
        line.add(new XmlElement("title").text(String.format(Locale.ROOT, "%s %.1f GB/s", l, l.bw())));
        return line;
    }

    /**
     * A channel as a polyline through the nodes its hops really cross (NVSwitch, PCI switches, the
     * CPU), shifted a little per channel so that channels on the same links stay apart.
     */
    private XmlElement channelLine(TopoGraph graph, TopoGraph.Channel ch, int c, int k, List<TopoNode> gpus, double top,
                                   boolean inter) {
        double shift = (c - (k - 1) / 2.0) * Math.min(4.0, 28.0 / Math.max(1, k));
        List<TopoNode> stops = new ArrayList<>();
        TopoNode netIn = inter ? net(ch.netIn()) : null;
        if (netIn != null) {
            stops.add(netIn);
        }
        for (int g : ch.gpus()) {
            stops.add(gpus.get(g));
        }
        boolean ring = graph.pattern() == TopoPattern.RING;
        if (inter) {
            TopoNode out = net(ch.netOut());
            int exit = ring ? ch.size() - 1 : graph.pattern() == TopoPattern.SPLIT_TREE ? Math.min(1, ch.size() - 1) : 0;
            if (out != null && exit == ch.size() - 1) {
                stops.add(out);
            } else if (out != null) {
                // A tree leaves from an inner GPU: draw its way out as a branch at the end.
                stops.add(gpus.get(ch.gpu(exit)));
                stops.add(out);
            }
        } else if (ring && ch.size() > 1) {
            stops.add(gpus.get(ch.gpu(0)));
        }
        StringBuilder points = new StringBuilder();
        TopoNode prev = null;
        for (TopoNode s : stops) {
            List<TopoNode> via = new ArrayList<>();
            if (prev != null) {
                via.addAll(system.path(prev, s).nodes());
            } else {
                via.add(s);
            }
            for (TopoNode v : via) {
                if (at.containsKey(v)) {
                    double[] p = pos(v, top);
                    points.append(fmt(p[0] + shift)).append(',').append(fmt(p[1] + shift)).append(' ');
                }
            }
            prev = s;
        }
        XmlElement line = new XmlElement("polyline").set("class", (ring ? "ring" : "tree") + " channel")
                .set("data-channel", Integer.toString(c)).set("points", points.toString().strip())
                .set("fill", "none").set("stroke", colour(c)).set("stroke-width", "2").set("stroke-opacity", "0.85");
        if (!ring) {
            line.set("stroke-dasharray", "5,3");
        }
        line.add(new XmlElement("title").text((ring ? "ring " : "tree ") + c + ": " + ch));
        return line;
    }

    private TopoNode net(int dev) {
        for (TopoNode n : system.nodes(NodeType.NET)) {
            if (n.net().dev() == dev) {
                return n;
            }
        }
        return null;
    }

    private XmlElement node(TopoNode n, double top) {
        double[] p = pos(n, top);
        String fill = switch (n.type()) {
            case GPU -> "#d9f2b3";
            case CPU -> "#cfe2f3";
            case PCI -> "#eeeeee";
            case NVS -> "#e1d5f0";
            case NIC -> "#fde0c0";
            case NET -> "#fff2b3";
        };
        String detail = switch (n.type()) {
            case GPU -> "sm " + n.gpu().sm() + " " + n.busId();
            case CPU -> n.cpu().vendor().strip() + " " + n.cpu().arch();
            case NET -> String.format(Locale.ROOT, "%s %.1f GB/s", n.net().name(), n.net().bw());
            case PCI, NIC -> n.busId() == null ? "" : n.busId();
            case NVS -> "NVSwitch";
        };
        String name = n.type() == NodeType.PCI || n.type() == NodeType.NIC ? n.type().name() : n.name();
        XmlElement g = new XmlElement("g").set("class", "node " + n.type().name().toLowerCase(Locale.ROOT));
        g.add(new XmlElement("rect").set("x", fmt(p[0] - BOX_W / 2.0)).set("y", fmt(p[1] - BOX_H / 2.0))
                .set("width", Integer.toString(BOX_W)).set("height", Integer.toString(BOX_H)).set("rx", "5")
                .set("fill", fill).set("stroke", "#555555"));
        g.add(text(p[0], p[1] - 3, name, "name")).set("text-anchor", "middle").set("font-weight", "bold");
        g.add(text(p[0], p[1] + 11, detail, "detail")).set("text-anchor", "middle").set("font-size", "9");
        return g;
    }

    /** The double binary tree over the nodes: the first tree solid, the second dashed. */
    private XmlElement nodeTrees(Layout l, double top) {
        int n = l.nNodes();
        XmlElement g = new XmlElement("g").set("id", "node-trees").set("class", "panel");
        g.add(text(MARGIN, top - 8, "Across " + n + " nodes (channel 0): first tree solid, second tree (its duplicate "
                + l.nChannels() + ") dashed; tree depth estimate " + l.treeDepthEstimate(), "panel-title"))
                .set("font-weight", "bold");
        double step = Math.max(28, Math.min(DX, (width - 2 * MARGIN) / Math.max(1, n)));
        double[] xs = new double[n];
        for (int i = 0; i < n; i++) {
            xs[i] = MARGIN + 20 + i * step;
        }
        double y0 = top + 30;
        int k = l.nChannels();
        for (int which = 0; which < 2; which++) {
            TreeNode[] t = l.channels().tree(which == 0 ? 0 : k, 2 * k);
            for (int node = 0; node < n; node++) {
                int head = l.firstRank(node);
                // The rank of this node that talks up, and where it talks to.
                for (int r = head; r < head + l.localRanks(node); r++) {
                    TreeNode tn = t[r];
                    if (!tn.isRoot() && (tn.parent() < head || tn.parent() >= head + l.localRanks(node))) {
                        int parentNode = nodeOf(l, tn.parent());
                        double dy = which == 0 ? 0 : 12;
                        XmlElement edge = g.add(new XmlElement("path")
                                .set("class", "node-tree " + (which == 0 ? "first" : "second"))
                                .set("d", String.format(Locale.ROOT, "M%s,%s Q%s,%s %s,%s", fmt(xs[node]), fmt(y0 + 40 + dy),
                                        fmt((xs[node] + xs[parentNode]) / 2), fmt(y0 + 100 + dy), fmt(xs[parentNode]), fmt(y0 + 40 + dy)))
                                .set("fill", "none").set("stroke", which == 0 ? "#1f77b4" : "#d62728").set("stroke-width", "1.5"));
                        if (which == 1) {
                            edge.set("stroke-dasharray", "5,3");
                        }
                        edge.add(new XmlElement("title").text("tree " + (which + 1) + ": node " + node + " (rank " + r
                                + ") -> node " + parentNode + " (rank " + tn.parent() + ")"));
                    }
                }
            }
        }
        for (int i = 0; i < n; i++) {
            g.add(new XmlElement("circle").set("class", "host").set("cx", fmt(xs[i])).set("cy", fmt(y0 + 28)).set("r", "12")
                    .set("fill", "#cfe2f3").set("stroke", "#555555"));
            g.add(text(xs[i], y0 + 32, Integer.toString(i), "host-label")).set("text-anchor", "middle");
        }
        return g;
    }

    private static int nodeOf(Layout l, int rank) {
        int node = 0;
        while (node + 1 < l.nNodes() && l.firstRank(node + 1) <= rank) {
            node++;
        }
        return node;
    }

    private XmlElement legend(int channels, double top) {
        XmlElement g = new XmlElement("g").set("class", "legend");
        for (int c = 0; c < channels; c++) {
            double x = MARGIN + (c % 8) * 90;
            double y = top + 16 * (c / 8);
            g.add(new XmlElement("line").set("x1", fmt(x)).set("y1", fmt(y)).set("x2", fmt(x + 24)).set("y2", fmt(y))
                    .set("stroke", colour(c)).set("stroke-width", "3"));
            g.add(text(x + 28, y + 4, "channel " + c, "legend-label"));
        }
        return g;
    }

    private XmlElement placementText(NumaPlacement p, double top) {
        XmlElement g = new XmlElement("g").set("class", "placement");
        for (int d = 0; d < p.domains().size(); d++) {
            List<Integer> r = p.ranksOf(d);
            g.add(text(MARGIN, top + 16 * d, p.domains().get(d).name() + ": ranks "
                    + (r.isEmpty() ? "none" : r.getFirst() + "-" + r.getLast())
                    + (p.cpus(d).count() == 0 ? "" : " on cpus " + p.cpus(d).toCpulist()), "placement-label"));
        }
        return g;
    }

    private static XmlElement text(double x, double y, String s, String cls) {
        return new XmlElement("text").set("class", cls).set("x", fmt(x)).set("y", fmt(y)).text(s);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
