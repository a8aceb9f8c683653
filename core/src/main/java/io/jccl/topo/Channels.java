package io.jccl.topo;

import java.util.Arrays;

/**
 * The channel structure algorithms lay their schedules on: a ring per channel and the two trees of
 * the double binary tree. Tree algorithms give the first half of their lanes the first tree and
 * the duplicates (lane c + half) the second, as NCCL does with channel c and c + nChannels.
 */
public final class Channels {
    private final int nranks;
    private final Ring[] rings;
    private final TreeNode[][] trees;

    public Channels(int nranks, Ring[] rings, TreeNode[] first, TreeNode[] second) {
        if (nranks < 1 || rings.length < 1) {
            throw new IllegalArgumentException(nranks + " ranks, " + rings.length + " rings");
        }
        for (Ring r : rings) {
            if (r.size() != nranks) {
                throw new IllegalArgumentException("ring " + r + " is not over " + nranks + " ranks");
            }
        }
        if (first.length != nranks || second.length != nranks) {
            throw new IllegalArgumentException("trees are not over " + nranks + " ranks");
        }
        this.nranks = nranks;
        this.rings = rings.clone();
        this.trees = new TreeNode[][] {first.clone(), second.clone()};
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

    /** Tree 0 (the first) or 1 (the second of the double binary tree), indexed by rank. */
    public TreeNode[] tree(int which) {
        return trees[which].clone();
    }

    public TreeNode treeNode(int which, int rank) {
        return trees[which][rank];
    }
}
