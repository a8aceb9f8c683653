// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.Arrays;

/**
 * The channel structure algorithms lay their schedules on: a ring per channel and, per channel
 * pair, the two trees of the double binary tree. Tree algorithms give the first half of their
 * lanes the first trees and the duplicates (lane c + half) the second, as NCCL gives channel c
 * the first tree and its duplicate c + nChannels the second; with several pairs (a searched
 * topology, where each channel has its own intra-node chain) {@link #treePair} says which.
 *
 * <pre>{@code
 * Channels ch = Channels.flat(8, 2);            // one host: rings 0..7, NCCL's double binary tree
 * TreeNode t = ch.treeNode(3, 4, 5);            // lane 3 of 4 runs the second tree: rank 5's place in it
 * Channels two = Channels.flat(ServerLayout.uniform(2, 4), 1);  // 2 servers x 4 ranks
 * }</pre>
 */
public final class Channels {
    private final int nranks;
    private final Ring[] rings;
    /** {@code trees[0][p]} and {@code trees[1][p]}: the first and second tree of pair p, by rank. */
    private final TreeNode[][][] trees;
    /** The servers the ranks are on (one server unless told otherwise). */
    private final ServerLayout layout;

    /** Rings per channel and one pair of trees that every channel shares. */
    public Channels(int nranks, Ring[] rings, TreeNode[] first, TreeNode[] second) {
        this(nranks, rings, new TreeNode[][] {first}, new TreeNode[][] {second});
    }

    /**
     * Rings per channel and a pair of trees per channel pair: {@code first[p]} and
     * {@code second[p]} are the trees of channel p and of its duplicate.
     */
    public Channels(int nranks, Ring[] rings, TreeNode[][] first, TreeNode[][] second) {
        if (nranks < 1 || rings.length < 1) {
            throw new IllegalArgumentException(nranks + " ranks, " + rings.length + " rings");
        }
        for (Ring r : rings) {
            if (r.size() != nranks) {
                throw new IllegalArgumentException("ring " + r + " is not over " + nranks + " ranks");
            }
        }
        if (first.length < 1 || first.length != second.length) {
            throw new IllegalArgumentException(first.length + " first trees and " + second.length + " second trees");
        }
        TreeNode[][][] t = new TreeNode[2][first.length][];
        for (int p = 0; p < first.length; p++) {
            t[0][p] = checked(nranks, first[p], "first tree of pair " + p);
            t[1][p] = checked(nranks, second[p], "second tree of pair " + p);
        }
        this.nranks = nranks;
        this.rings = rings.clone();
        this.trees = t;
        this.layout = ServerLayout.single(nranks);
    }

    private Channels(Channels c, ServerLayout layout) {
        if (layout.nranks() != c.nranks) {
            throw new IllegalArgumentException("a layout of " + layout.nranks() + " ranks for channels over " + c.nranks);
        }
        this.nranks = c.nranks;
        this.rings = c.rings;
        this.trees = c.trees;
        this.layout = layout;
    }

    /** The same channels over ranks laid out on servers as {@code layout} says. */
    public Channels withLayout(ServerLayout layout) {
        return new Channels(this, layout);
    }

    /** Which server each rank is on: what the hierarchical algorithms read. */
    public ServerLayout layout() {
        return layout;
    }

    /** A copy of {@code tree} after checking it spans the ranks once, with one root and matching links. */
    private static TreeNode[] checked(int nranks, TreeNode[] tree, String what) {
        if (tree.length != nranks) {
            throw new IllegalArgumentException(what + " is not over " + nranks + " ranks");
        }
        int roots = 0;
        for (int r = 0; r < nranks; r++) {
            TreeNode node = tree[r];
            if (node.rank() != r) {
                throw new IllegalArgumentException(what + ": entry " + r + " is rank " + node.rank());
            }
            if (node.isRoot()) {
                roots++;
            } else if (node.parent() >= nranks || !tree[node.parent()].children().contains(r)) {
                throw new IllegalArgumentException(what + ": " + node + " is not a child of its parent");
            }
            for (int c : node.children()) {
                if (c < 0 || c >= nranks || tree[c].parent() != r) {
                    throw new IllegalArgumentException(what + ": child " + c + " of " + node + " has another parent");
                }
            }
        }
        if (roots != 1) {
            throw new IllegalArgumentException(what + " has " + roots + " roots");
        }
        return tree.clone();
    }

    /**
     * One host, every link alike: {@code nChannels} channels, each with the ring 0..n-1, and NCCL's
     * double binary tree.
     */
    public static Channels flat(int nranks, int nChannels) {
        if (nChannels < 1) {
            throw new IllegalArgumentException("nChannels " + nChannels);
        }
        Ring[] rings = new Ring[nChannels];
        Arrays.fill(rings, Ring.identity(nranks));
        return new Channels(nranks, rings, BinaryTrees.first(nranks), BinaryTrees.second(nranks));
    }

    /**
     * Ranks of several servers, each channel's ring going through the ranks server by server (so
     * it crosses between servers once per server), NCCL's double binary tree over the ranks.
     */
    public static Channels flat(ServerLayout layout, int nChannels) {
        if (nChannels < 1) {
            throw new IllegalArgumentException("nChannels " + nChannels);
        }
        int n = layout.nranks();
        Ring[] rings = new Ring[nChannels];
        Arrays.fill(rings, new Ring(layout.serverOrder()));
        return new Channels(n, rings, BinaryTrees.first(n), BinaryTrees.second(n)).withLayout(layout);
    }

    public int nranks() {
        return nranks;
    }

    /** Number of channels (rings). */
    public int count() {
        return rings.length;
    }

    public Ring ring(int channel) {
        return rings[channel];
    }

    /** Number of tree pairs: 1 when all channels share the double binary tree. */
    public int treePairs() {
        return trees[0].length;
    }

    /**
     * Which tree tree-lane {@code lane} of {@code lanes} runs: 0 (first) for the first half of the
     * lanes, 1 (second) for the other.
     */
    public static int whichTree(int lane, int lanes) {
        if (lanes < 2 || lanes % 2 != 0 || lane < 0 || lane >= lanes) {
            throw new IllegalArgumentException("lane " + lane + " of " + lanes + " (lanes must be even, at least 2)");
        }
        return lane < lanes / 2 ? 0 : 1;
    }

    /** The tree, by rank, that tree-lane {@code lane} of {@code lanes} runs. */
    public TreeNode[] tree(int lane, int lanes) {
        return pairTree(lane, lanes).clone();
    }

    /** Rank {@code rank}'s place in the tree that tree-lane {@code lane} of {@code lanes} runs. */
    public TreeNode treeNode(int lane, int lanes, int rank) {
        return pairTree(lane, lanes)[rank];
    }

    /**
     * The pair whose tree tree-lane {@code lane} of {@code lanes} runs: pair {@code lane mod pairs}
     * in both halves. With fewer lanes per tree than pairs, the second trees so run on the pairs
     * the first ones leave, whose chains cross between nodes at other ranks (other rails), instead
     * of doubling the first trees' crossings. With as many lanes per tree as pairs, that is NCCL's
     * duplicate: channel c + nChannels runs channel c's second tree.
     */
    public int treePair(int lane, int lanes) {
        return lane % trees[whichTree(lane, lanes)].length;
    }

    private TreeNode[] pairTree(int lane, int lanes) {
        return trees[whichTree(lane, lanes)][treePair(lane, lanes)];
    }
}
