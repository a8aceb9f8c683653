// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * NCCL's binary tree over ranks and its double binary tree. The first tree is rooted at rank 0 and
 * built from the bit pattern of each rank; the second is the first with ranks mirrored (n even) or
 * shifted by one (n odd), so that no rank is a leaf in both and the two trees share the load.
 *
 * <pre>{@code
 * TreeNode[] t = BinaryTrees.second(14);   // t[5] is 5(13; [9, 1])
 * }</pre>
 */
public final class BinaryTrees {
    private BinaryTrees() {
    }

    /** The first tree: node {@code r} of {@code n} ranks, rooted at 0. */
    public static TreeNode node(int n, int rank) {
        if (n < 1 || rank < 0 || rank >= n) {
            throw new IllegalArgumentException("rank " + rank + " of " + n);
        }
        if (rank == 0) {
            // Rank 0 stands for the power of two above the last rank: its one child is half of it.
            int top = n > 1 ? Integer.highestOneBit(n - 1) << 1 : 1;
            int child = top / 2;
            return new TreeNode(0, -1, child > 0 && child < n ? List.of(child) : List.of());
        }
        int bit = Integer.lowestOneBit(rank);
        int parent;
        if ((rank & (bit << 1)) == 0) {
            // xx01[0]: the parent is xx10[0] above, or xx00[0] below when above is out of range.
            parent = rank + bit < n ? rank + bit : rank - bit;
        } else {
            // xx11[0]: the parent is xx10[0].
            parent = rank - bit;
        }
        List<Integer> children = new ArrayList<>(2);
        int low = bit >> 1;
        if (low > 0) {
            children.add(rank - low);
            int step = low;
            while (step > 0 && rank + step >= n) {
                step >>= 1;
            }
            if (step > 0) {
                children.add(rank + step);
            }
        }
        return new TreeNode(rank, parent, children);
    }

    /** The first tree of {@code n} ranks, indexed by rank. */
    public static TreeNode[] first(int n) {
        TreeNode[] t = new TreeNode[n];
        for (int r = 0; r < n; r++) {
            t[r] = node(n, r);
        }
        return t;
    }

    /** The second tree of the double binary tree: mirrored when n is even, shifted when odd. */
    public static TreeNode[] second(int n) {
        IntUnaryOperator map = n % 2 == 0 ? r -> n - 1 - r : r -> (r + 1) % n;
        TreeNode[] base = first(n);
        TreeNode[] t = new TreeNode[n];
        for (TreeNode b : base) {
            int r = map.applyAsInt(b.rank());
            List<Integer> children = new ArrayList<>(b.children().size());
            for (int c : b.children()) {
                children.add(map.applyAsInt(c));
            }
            t[r] = new TreeNode(r, b.isRoot() ? -1 : map.applyAsInt(b.parent()), children);
        }
        return t;
    }

    /**
     * Which of its parent's two child slots {@code rank} fills in tree {@code which} (0 first, 1
     * second) of {@code n} ranks: 0 or 1, or -1 at the root. In the first tree a rank below its
     * parent is child 0 and one above is child 1 (so the root's only child is child 1); the second
     * tree keeps the slots of the first tree it is mirrored or shifted from. NCCL's connectTrees
     * uses the slot to pick which GPU of the parent node the child node talks to.
     */
    public static int parentSlot(int n, int which, int rank) {
        if (which != 0 && which != 1) {
            throw new IllegalArgumentException("tree " + which + " (0 or 1)");
        }
        int base = which == 0 ? rank : n % 2 == 0 ? n - 1 - rank : Math.floorMod(rank - 1, n);
        TreeNode b = node(n, base);
        return b.isRoot() ? -1 : base < b.parent() ? 0 : 1;
    }

    /** Depth of a tree (edges from the root to the deepest leaf). */
    public static int depth(TreeNode[] tree) {
        int max = 0;
        for (TreeNode node : tree) {
            int d = 0;
            for (TreeNode x = node; !x.isRoot(); x = tree[x.parent()]) {
                d++;
            }
            max = Math.max(max, d);
        }
        return max;
    }
}
