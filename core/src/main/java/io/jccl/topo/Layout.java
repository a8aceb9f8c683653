// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The channels of a job across nodes, from each node's searched graphs, connected as NCCL's
 * connect step does: each node's ranks follow the previous node's; a channel's ring runs through
 * each node's ring order and on to the next node (connectRings: the ring's tail on node n sends
 * to its head on node n+1); a channel's tree is each node's chain (parent the previous GPU, child
 * the next), joined across nodes by the double binary tree over node indices (connectTrees: the
 * chain's first GPU talks to the parent node; the GPU that receives a child node is the one the
 * pattern gives for that child's slot). Channel c carries the first tree, its duplicate
 * c + nChannels the second, and both carry ring c.
 *
 * <pre>{@code
 * TopoSystem node = TopoSystem.load(Path.of("dgx-h100.xml"));
 * Layout l = Layout.of(node, 4, TopoPattern.BALANCED_TREE);   // 4 nodes x 8 GPUs
 * Channels ch = l.channels();                                  // what the generators take
 * }</pre>
 */
public final class Layout {
    private final List<TopoGraph> rings;
    private final List<TopoGraph> trees;
    private final List<TopoRanks> ranks;
    /** Node i is server i; its local index g (GPU g of its graphs) is rank {@code hosts.rank(i, g)}. */
    private final ServerLayout hosts;
    private final int nChannels;
    private final Channels channels;
    /** {@link #channels(int)} by count, made once each. */
    private final Channels[] byCount = new Channels[TopoSearch.MAX_CHANNELS + 1];

    private Layout(List<TopoGraph> rings, List<TopoGraph> trees, ServerLayout hosts) {
        if (rings.isEmpty() || rings.size() != trees.size()) {
            throw new IllegalArgumentException(rings.size() + " ring graphs and " + trees.size() + " tree graphs");
        }
        if (hosts.servers() != rings.size()) {
            throw new IllegalArgumentException(rings.size() + " nodes' graphs for the " + hosts.servers() + " servers of " + hosts);
        }
        this.rings = List.copyOf(rings);
        this.trees = List.copyOf(trees);
        this.hosts = hosts;
        int nNodes = rings.size();
        int channelsFound = Integer.MAX_VALUE;
        for (int i = 0; i < nNodes; i++) {
            int size = hosts.localSize(i);
            for (TopoGraph g : List.of(rings.get(i), trees.get(i))) {
                for (TopoGraph.Channel c : g.channels()) {
                    if (c.size() != size) {
                        throw new IllegalArgumentException("node " + i + ": channel " + c + " is not over its " + size + " ranks");
                    }
                }
            }
            channelsFound = Math.min(channelsFound, Math.min(rings.get(i).nChannels(), trees.get(i).nChannels()));
        }
        this.nChannels = Math.min(channelsFound, TopoSearch.MAX_CHANNELS / 2);
        List<TopoRanks> r = new ArrayList<>();
        for (int i = 0; i < nNodes; i++) {
            int node = i;
            r.add(TopoRanks.of(rings.get(i), trees.get(i), nChannels, g -> hosts.rank(node, g)));
        }
        this.ranks = Collections.unmodifiableList(r);
        this.channels = connect();
    }

    /**
     * {@code nNodes} nodes like {@code node}: its ring and {@code treePattern} graphs searched once
     * (within the node for one node, through the network for more) and connected.
     */
    public static Layout of(TopoSystem node, int nNodes, TopoPattern treePattern) {
        if (nNodes < 1) {
            throw new IllegalArgumentException("nNodes " + nNodes);
        }
        if (!treePattern.isTree()) {
            throw new IllegalArgumentException(treePattern + " is not a tree pattern");
        }
        boolean inter = nNodes > 1;
        TopoGraph ring = TopoSearch.search(node, TopoPattern.RING, inter);
        TopoGraph tree = TopoSearch.search(node, treePattern, inter);
        return connect(Collections.nCopies(nNodes, ring), Collections.nCopies(nNodes, tree));
    }

    /** Connects per-node graphs (node i's ring and tree graph at index i) of ranks numbered node by node; nodes may differ. */
    public static Layout connect(List<TopoGraph> ringGraphs, List<TopoGraph> treeGraphs) {
        List<Integer> nodeOf = new ArrayList<>();
        for (int i = 0; i < ringGraphs.size(); i++) {
            nodeOf.addAll(Collections.nCopies(ringGraphs.get(i).channel(0).size(), i));
        }
        return new Layout(ringGraphs, treeGraphs, ServerLayout.ofHosts(nodeOf));
    }

    /**
     * Connects the graphs of the servers of {@code hosts} (server i's at index i, over its ranks
     * in rank order): ranks placed on hosts in any order, as Slurm's cyclic distribution or a
     * Spark barrier stage places them.
     */
    public static Layout connect(List<TopoGraph> ringGraphs, List<TopoGraph> treeGraphs, ServerLayout hosts) {
        return new Layout(ringGraphs, treeGraphs, hosts);
    }

    private Channels connect() {
        int nNodes = rings.size();
        Ring[] ringOf = new Ring[2 * nChannels];
        TreeNode[][] first = new TreeNode[nChannels][];
        TreeNode[][] second = new TreeNode[nChannels][];
        for (int c = 0; c < nChannels; c++) {
            int[] order = new int[hosts.nranks()];
            int k = 0;
            for (int i = 0; i < nNodes; i++) {
                for (int g : rings.get(i).channel(c).gpus()) {
                    order[k++] = hosts.rank(i, g);
                }
            }
            ringOf[c] = ringOf[c + nChannels] = new Ring(order);
            first[c] = tree(c, 0);
            second[c] = tree(c, 1);
        }
        return new Channels(hosts.nranks(), ringOf, first, second).withLayout(hosts);
    }

    /** Tree {@code which} of channel {@code c}: the node chains joined by the node-level tree. */
    private TreeNode[] tree(int c, int which) {
        int nNodes = rings.size();
        int nranks = hosts.nranks();
        int[] parent = new int[nranks];
        Arrays.fill(parent, -1);
        List<List<Integer>> children = new ArrayList<>();
        for (int r = 0; r < nranks; r++) {
            children.add(new ArrayList<>(3));
        }
        for (int i = 0; i < nNodes; i++) {
            int[] chain = trees.get(i).channel(c).gpus();
            for (int k = 1; k < chain.length; k++) {
                int up = hosts.rank(i, chain[k - 1]);
                int down = hosts.rank(i, chain[k]);
                parent[down] = up;
                children.get(up).add(down);
            }
        }
        TreeNode[] nodeTree = which == 0 ? BinaryTrees.first(nNodes) : BinaryTrees.second(nNodes);
        for (int p = 0; p < nNodes; p++) {
            for (int slot = 0; slot < 2; slot++) {
                for (int d : nodeTree[p].children()) {
                    if (BinaryTrees.parentSlot(nNodes, which, d) != slot) {
                        continue;
                    }
                    int serving = (slot == 0 ? ranks.get(p).treeToChild0() : ranks.get(p).treeToChild1()).get(c);
                    int up = ranks.get(d).treeToParent().get(c);
                    parent[up] = serving;
                    children.get(serving).add(up);
                }
            }
        }
        TreeNode[] t = new TreeNode[nranks];
        for (int r = 0; r < nranks; r++) {
            t[r] = new TreeNode(r, parent[r], children.get(r));
        }
        return t;
    }

    /** Connects the graphs each node chose (node i's at index i) for ranks on hosts as {@code hosts} says. */
    public static Layout connect(List<NodeGraphs> nodes, ServerLayout hosts) {
        return new Layout(nodes.stream().map(NodeGraphs::ring).toList(), nodes.stream().map(NodeGraphs::tree).toList(), hosts);
    }

    /** NCCL's INFO lines of the rings: {@code Channel 00/04 : 0 1 2 3 ...}, one per channel with the duplicates. */
    public List<String> describeRings() {
        int total = channels.count();
        List<String> lines = new ArrayList<>(total);
        for (int c = 0; c < total; c++) {
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "Channel %02d/%02d :", c, total));
            for (int r : channels.ring(c).order()) {
                b.append(' ').append(r);
            }
            lines.add(b.toString());
        }
        return lines;
    }

    /**
     * NCCL's INFO line of rank {@code rank}'s trees: {@code Trees [0] 1/-1/-1->0->-1 [1] ...}, per
     * channel its children (three places, -1 where none), itself and its parent.
     */
    public String describeTrees(int rank) {
        int total = channels.count();
        StringBuilder b = new StringBuilder("Trees");
        for (int c = 0; c < total; c++) {
            TreeNode t = channels.treeNode(c, total, rank);
            b.append(" [").append(c).append("] ");
            for (int k = 0; k < 3; k++) {
                b.append(k > 0 ? "/" : "").append(k < t.children().size() ? t.children().get(k) : -1);
            }
            b.append("->").append(rank).append("->").append(t.parent());
        }
        return b.toString();
    }

    public int nNodes() {
        return rings.size();
    }

    public int nranks() {
        return hosts.nranks();
    }

    /** The lowest global rank of node {@code i}. */
    public int firstRank(int node) {
        return hosts.rank(node, 0);
    }

    /** Ranks on node {@code i}. */
    public int localRanks(int node) {
        return hosts.localSize(node);
    }

    /** Which server (node) each rank is on. */
    public ServerLayout hosts() {
        return hosts;
    }

    /** Channels searched and connected; {@link #channels()} has twice as many (the duplicates). */
    public int nChannels() {
        return nChannels;
    }

    public TopoGraph ringGraph(int node) {
        return rings.get(node);
    }

    public TopoGraph treeGraph(int node) {
        return trees.get(node);
    }

    public TopoRanks ranks(int node) {
        return ranks.get(node);
    }

    /** What the schedule generators take: 2 x {@link #nChannels()} channels. */
    public Channels channels() {
        return channels;
    }

    /**
     * {@code count} channels for a call the tuner gave that many: channel i runs searched ring
     * i mod {@link #nChannels()}, so that fewer channels than were searched still leave and enter
     * the nodes by different ranks, and more repeat them as NCCL's duplication does; tree lanes
     * take the searched tree pairs in order.
     */
    public Channels channels(int count) {
        if (count < 1 || count > TopoSearch.MAX_CHANNELS) {
            throw new IllegalArgumentException("channels " + count + " (1.." + TopoSearch.MAX_CHANNELS + ")");
        }
        Channels c = byCount[count];
        if (c == null) {
            Ring[] r = new Ring[count];
            for (int i = 0; i < count; i++) {
                r[i] = channels.ring(i % nChannels);
            }
            TreeNode[][] first = new TreeNode[nChannels][];
            TreeNode[][] second = new TreeNode[nChannels][];
            for (int p = 0; p < nChannels; p++) {
                first[p] = channels.tree(p, 2 * nChannels);
                second[p] = channels.tree(nChannels + p, 2 * nChannels);
            }
            c = new Channels(hosts.nranks(), r, first, second).withLayout(hosts);
            byCount[count] = c;
        }
        return c;
    }

    /** NCCL's estimate of the trees' depth: ranks per node - 1 + floor(log2(nodes)). */
    public int treeDepthEstimate() {
        return hosts.nranks() / nNodes() - 1 + (31 - Integer.numberOfLeadingZeros(nNodes()));
    }
}
