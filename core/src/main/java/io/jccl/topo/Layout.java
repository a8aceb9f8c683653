package io.jccl.topo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

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
    private final int[] offsets;
    private final int nranks;
    private final int nChannels;
    private final Channels channels;

    private Layout(List<TopoGraph> rings, List<TopoGraph> trees) {
        if (rings.isEmpty() || rings.size() != trees.size()) {
            throw new IllegalArgumentException(rings.size() + " ring graphs and " + trees.size() + " tree graphs");
        }
        this.rings = List.copyOf(rings);
        this.trees = List.copyOf(trees);
        int nNodes = rings.size();
        offsets = new int[nNodes + 1];
        int channelsFound = Integer.MAX_VALUE;
        for (int i = 0; i < nNodes; i++) {
            int size = rings.get(i).channel(0).size();
            for (TopoGraph g : List.of(rings.get(i), trees.get(i))) {
                for (TopoGraph.Channel c : g.channels()) {
                    if (c.size() != size) {
                        throw new IllegalArgumentException("node " + i + ": channel " + c + " is not over its " + size + " GPUs");
                    }
                }
            }
            offsets[i + 1] = offsets[i] + size;
            channelsFound = Math.min(channelsFound, Math.min(rings.get(i).nChannels(), trees.get(i).nChannels()));
        }
        this.nranks = offsets[nNodes];
        this.nChannels = Math.min(channelsFound, TopoSearch.MAX_CHANNELS / 2);
        List<TopoRanks> r = new ArrayList<>();
        for (int i = 0; i < nNodes; i++) {
            r.add(TopoRanks.of(rings.get(i), trees.get(i), nChannels, offsets[i]));
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

    /** Connects per-node graphs (node i's ring and tree graph at index i); nodes may differ. */
    public static Layout connect(List<TopoGraph> ringGraphs, List<TopoGraph> treeGraphs) {
        return new Layout(ringGraphs, treeGraphs);
    }

    private Channels connect() {
        int nNodes = rings.size();
        Ring[] ringOf = new Ring[2 * nChannels];
        TreeNode[][] first = new TreeNode[nChannels][];
        TreeNode[][] second = new TreeNode[nChannels][];
        for (int c = 0; c < nChannels; c++) {
            int[] order = new int[nranks];
            int k = 0;
            for (int i = 0; i < nNodes; i++) {
                for (int g : rings.get(i).channel(c).gpus()) {
                    order[k++] = offsets[i] + g;
                }
            }
            ringOf[c] = ringOf[c + nChannels] = new Ring(order);
            first[c] = tree(c, 0);
            second[c] = tree(c, 1);
        }
        int[] nodeOf = new int[nranks];
        for (int i = 0; i < nNodes; i++) {
            Arrays.fill(nodeOf, offsets[i], offsets[i + 1], i);
        }
        return new Channels(nranks, ringOf, first, second)
                .withLayout(ServerLayout.ofHosts(Arrays.stream(nodeOf).boxed().toList()));
    }

    /** Tree {@code which} of channel {@code c}: the node chains joined by the node-level tree. */
    private TreeNode[] tree(int c, int which) {
        int nNodes = rings.size();
        int[] parent = new int[nranks];
        Arrays.fill(parent, -1);
        List<List<Integer>> children = new ArrayList<>();
        for (int r = 0; r < nranks; r++) {
            children.add(new ArrayList<>(3));
        }
        for (int i = 0; i < nNodes; i++) {
            int[] chain = trees.get(i).channel(c).gpus();
            for (int k = 1; k < chain.length; k++) {
                parent[offsets[i] + chain[k]] = offsets[i] + chain[k - 1];
                children.get(offsets[i] + chain[k - 1]).add(offsets[i] + chain[k]);
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

    public int nNodes() {
        return rings.size();
    }

    public int nranks() {
        return nranks;
    }

    /** The first global rank of node {@code i}. */
    public int firstRank(int node) {
        return offsets[node];
    }

    /** Ranks on node {@code i}. */
    public int localRanks(int node) {
        return offsets[node + 1] - offsets[node];
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

    /** NCCL's estimate of the trees' depth: ranks per node - 1 + floor(log2(nodes)). */
    public int treeDepthEstimate() {
        return nranks / nNodes() - 1 + (31 - Integer.numberOfLeadingZeros(nNodes()));
    }
}
