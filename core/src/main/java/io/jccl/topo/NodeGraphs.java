// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What one node chose for its channels (NCCL's ring graph and tree graph of a node): what each
 * node searches at init and every rank all-gathers before {@link Layout#connect} joins the nodes.
 * The GPUs of a channel are the node's local ranks (local index i is the node's i-th lowest rank).
 *
 * <pre>{@code
 * NodeGraphs mine = NodeGraphs.search(TopoSystem.load(Path.of("dgx-h100.xml")), 8, true);
 * NodeGraphs cpus = NodeGraphs.ofRanks(4, 4);       // 4 ranks, one link out each
 * NodeGraphs back = NodeGraphs.decode(mine.encode());
 * }</pre>
 */
public record NodeGraphs(TopoGraph ring, TopoGraph tree) {
    public NodeGraphs {
        if (ring.pattern() != TopoPattern.RING || !tree.pattern().isTree()) {
            throw new IllegalArgumentException("a ring graph and a tree graph, not " + ring.pattern() + " and " + tree.pattern());
        }
    }

    /**
     * The node's graphs from its topology ({@code JCCL_TOPO_FILE} or detected), whose GPUs stand
     * for its {@code localRanks} ranks: the ring search and NCCL's tree patterns in NCCL's order
     * (balanced tree, then split tree, then tree: the first that finds as many channels as the
     * ring), through the network when the job spans nodes.
     */
    public static NodeGraphs search(TopoSystem node, int localRanks, boolean inter) {
        int gpus = node.nodes(NodeType.GPU).size();
        if (gpus != localRanks) {
            throw new IllegalArgumentException("the topology has " + gpus + " GPUs for the " + localRanks + " ranks of this node");
        }
        TopoGraph ring = TopoSearch.search(node, TopoPattern.RING, inter);
        TopoGraph tree = null;
        for (TopoPattern p : List.of(TopoPattern.BALANCED_TREE, TopoPattern.SPLIT_TREE, TopoPattern.TREE)) {
            TopoGraph t = TopoSearch.search(node, p, inter);
            if (tree == null || t.nChannels() > tree.nChannels()) {
                tree = t;
            }
            if (t.nChannels() >= ring.nChannels()) {
                break;
            }
        }
        return new NodeGraphs(ring, tree);
    }

    /**
     * A node whose ranks are CPU threads or processes, each able to reach other nodes by a link of
     * its own (the emulated fabric's rails, a NIC per rank) or through a shared one: {@code channels}
     * channels, channel c's ring and chain starting at local rank c mod {@code localRanks}. Joined
     * across nodes, channel c enters each node at local rank c and leaves it from local rank c - 1,
     * so with as many channels as ranks every rank carries one channel between nodes and every
     * rail is busy at once; a shared link is shared however the channels cross it.
     */
    public static NodeGraphs ofRanks(int localRanks, int channels) {
        if (localRanks < 1 || channels < 1 || channels > TopoSearch.MAX_CHANNELS / 2) {
            throw new IllegalArgumentException(localRanks + " ranks, " + channels + " channels");
        }
        List<TopoGraph.Channel> ch = new ArrayList<>(channels);
        for (int c = 0; c < channels; c++) {
            int[] order = new int[localRanks];
            for (int i = 0; i < localRanks; i++) {
                order[i] = (c + i) % localRanks;
            }
            ch.add(new TopoGraph.Channel(-1, order, -1));
        }
        return new NodeGraphs(graph(TopoPattern.RING, ch), graph(TopoPattern.BALANCED_TREE, ch));
    }

    private static TopoGraph graph(TopoPattern p, List<TopoGraph.Channel> ch) {
        return new TopoGraph(p, ch, 0, 0, PathType.LOC, PathType.NET, false, false);
    }

    /**
     * The graphs in NCCL's graph XML ({@code NCCL_GRAPH_DUMP_FILE}'s): {@code <graphs version="1">}
     * with the ring as graph 0 and the tree as graph 1, each channel its {@code <net dev>} ports
     * and {@code <gpu dev>} GPUs in order (dev: the GPU's index among the node's, by rank).
     */
    public XmlElement toXml() {
        XmlElement graphs = new XmlElement("graphs").set("version", 1);
        graphs.add(xml(ring, 0));
        graphs.add(xml(tree, 1));
        return graphs;
    }

    private static XmlElement xml(TopoGraph g, int id) {
        XmlElement e = new XmlElement("graph").set("id", id).set("pattern", g.pattern().ncclId())
                .set("crossnic", g.crossNic() ? 1 : 0).set("nchannels", g.nChannels())
                .set("speedintra", String.valueOf(g.bwIntra())).set("speedinter", String.valueOf(g.bwInter()))
                .set("latencyinter", 0).set("typeintra", g.typeIntra().name()).set("typeinter", g.typeInter().name())
                .set("samechannels", g.sameChannels() ? 1 : 0);
        for (TopoGraph.Channel c : g.channels()) {
            XmlElement ch = new XmlElement("channel");
            if (c.netIn() >= 0) {
                ch.add(new XmlElement("net").set("dev", c.netIn()));
            }
            for (int gpu : c.gpus()) {
                ch.add(new XmlElement("gpu").set("dev", gpu));
            }
            if (c.netOut() >= 0) {
                ch.add(new XmlElement("net").set("dev", c.netOut()));
            }
            e.add(ch);
        }
        return e;
    }

    /**
     * The ring graph and the first tree graph of an NCCL graph XML document; refused, saying what
     * is wrong, when it has neither or a channel's GPUs are not a permutation of the node's.
     */
    public static NodeGraphs fromXml(XmlElement graphs) {
        if (!graphs.name().equals("graphs")) {
            throw new IllegalArgumentException("the document is <" + graphs.name() + ">, not <graphs>");
        }
        TopoGraph ring = null;
        TopoGraph tree = null;
        for (XmlElement g : graphs.children("graph")) {
            TopoGraph parsed = graphOf(g);
            if (parsed.pattern() == TopoPattern.RING && ring == null) {
                ring = parsed;
            } else if (parsed.pattern().isTree() && tree == null) {
                tree = parsed;
            }
        }
        if (ring == null || tree == null) {
            throw new IllegalArgumentException("the graphs need a ring (pattern 4) and a tree (pattern 1, 2 or 3)");
        }
        return new NodeGraphs(ring, tree);
    }

    private static TopoGraph graphOf(XmlElement g) {
        int id = Integer.parseInt(g.attr("pattern").orElseThrow(() -> new IllegalArgumentException("a <graph> without pattern")));
        TopoPattern p = null;
        for (TopoPattern t : TopoPattern.values()) {
            if (t.ncclId() == id) {
                p = t;
            }
        }
        if (p == null) {
            throw new IllegalArgumentException("graph pattern " + id + " is not one jccl lays (1 to 4)");
        }
        List<TopoGraph.Channel> ch = new ArrayList<>();
        int size = -1;
        for (XmlElement c : g.children("channel")) {
            List<Integer> gpus = new ArrayList<>();
            int netIn = -1;
            int netOut = -1;
            for (XmlElement k : c.children()) {
                int dev = Integer.parseInt(k.attr("dev").orElseThrow(() -> new IllegalArgumentException("<" + k.name() + "> without dev")));
                if (k.name().equals("gpu")) {
                    gpus.add(dev);
                } else if (k.name().equals("net")) {
                    if (gpus.isEmpty()) {
                        netIn = dev;
                    } else {
                        netOut = dev;
                    }
                }
            }
            int[] order = gpus.stream().mapToInt(Integer::intValue).toArray();
            java.util.BitSet seen = new java.util.BitSet();
            for (int x : order) {
                if (x < 0 || x >= order.length || seen.get(x)) {
                    throw new IllegalArgumentException("channel " + gpus + " is not an order of GPUs 0.." + (order.length - 1));
                }
                seen.set(x);
            }
            if (size >= 0 && order.length != size) {
                throw new IllegalArgumentException("channels of " + size + " and " + order.length + " GPUs");
            }
            size = order.length;
            ch.add(new TopoGraph.Channel(netIn, order, netOut));
        }
        if (ch.isEmpty()) {
            throw new IllegalArgumentException("graph pattern " + id + " has no channel");
        }
        return new TopoGraph(p, ch, number(g, "speedintra"), number(g, "speedinter"),
                PathType.parse(g.attr("typeintra").orElse("LOC")), PathType.parse(g.attr("typeinter").orElse("NET")),
                g.attr("crossnic").orElse("0").equals("1"), g.attr("samechannels").orElse("0").equals("1"));
    }

    private static double number(XmlElement g, String key) {
        return Double.parseDouble(g.attr(key).orElse("0"));
    }

    /** Local ranks the graphs are over. */
    public int localRanks() {
        return ring.channel(0).size();
    }

    /**
     * The graphs as bytes for the all-gather: per graph a line {@code PATTERN in:g,g,..:out;...}.
     * Only what connecting the nodes reads travels (patterns, orders, ports).
     */
    public byte[] encode() {
        return (line(ring) + "\n" + line(tree)).getBytes(StandardCharsets.UTF_8);
    }

    private static String line(TopoGraph g) {
        StringBuilder b = new StringBuilder(g.pattern().name()).append(' ');
        for (int c = 0; c < g.nChannels(); c++) {
            TopoGraph.Channel ch = g.channel(c);
            if (c > 0) {
                b.append(';');
            }
            b.append(ch.netIn()).append(':');
            int[] gpus = ch.gpus();
            for (int i = 0; i < gpus.length; i++) {
                b.append(i > 0 ? "," : "").append(gpus[i]);
            }
            b.append(':').append(ch.netOut());
        }
        return b.toString();
    }

    /** What {@link #encode} wrote; refused with the reason when it is not that. */
    public static NodeGraphs decode(byte[] bytes) {
        String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
        if (lines.length != 2) {
            throw new IllegalArgumentException("node graphs of " + lines.length + " lines");
        }
        return new NodeGraphs(parse(lines[0]), parse(lines[1]));
    }

    private static TopoGraph parse(String line) {
        int sp = line.indexOf(' ');
        if (sp < 0) {
            throw new IllegalArgumentException("node graph line '" + line + "'");
        }
        TopoPattern p = TopoPattern.valueOf(line.substring(0, sp));
        List<TopoGraph.Channel> ch = new ArrayList<>();
        for (String c : line.substring(sp + 1).split(";")) {
            String[] parts = c.split(":", -1);
            if (parts.length != 3) {
                throw new IllegalArgumentException("node graph channel '" + c + "'");
            }
            String[] g = parts[1].split(",");
            int[] gpus = new int[g.length];
            for (int i = 0; i < g.length; i++) {
                gpus[i] = Integer.parseInt(g[i]);
            }
            ch.add(new TopoGraph.Channel(Integer.parseInt(parts[0]), gpus, Integer.parseInt(parts[2])));
        }
        return graph(p, ch);
    }
}
