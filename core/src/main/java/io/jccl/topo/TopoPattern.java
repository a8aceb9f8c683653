// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.Locale;

/**
 * What a search lays inside a node (NCCL's patterns, with NCCL's numbers). Across nodes every
 * channel enters at its first GPU from a NIC; the patterns differ in where it leaves:
 *
 * <pre>
 * RING           NET -&gt; GPU a -&gt; GPU b -&gt; .. -&gt; GPU x -&gt; NET   (leaves from the last GPU)
 * TREE           NET &lt;-&gt; GPU a -&gt; GPU b -&gt; .. -&gt; GPU x          (parent and both children on GPU a)
 * SPLIT_TREE     NET -&gt; GPU a -&gt; GPU b -&gt; .. ; GPU b -&gt; NET      (parent on GPU a, children on GPU b)
 * BALANCED_TREE  as TREE, with the second child on GPU b          (parent and one child on GPU a)
 * </pre>
 *
 * Inside a single node a ring closes on its first GPU and a tree is a chain.
 */
public enum TopoPattern {
    BALANCED_TREE(1), SPLIT_TREE(2), TREE(3), RING(4);

    private final int ncclId;

    TopoPattern(int ncclId) {
        this.ncclId = ncclId;
    }

    /** NCCL's number for the pattern, as its graph files write it. */
    public int ncclId() {
        return ncclId;
    }

    public boolean isTree() {
        return this != RING;
    }

    /** Index in the node's chain of the GPU that receives from the first child node (treeToChild0). */
    public int child0Index() {
        return this == TREE ? 0 : 1;
    }

    /** Index in the node's chain of the GPU that receives from the second child node (treeToChild1). */
    public int child1Index() {
        return this == SPLIT_TREE ? 1 : 0;
    }

    /** Parses {@code ring}, {@code tree}, {@code splittree}, {@code balancedtree} (any case, _ and - ignored). */
    public static TopoPattern parse(String s) {
        String k = s.trim().toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
        return switch (k) {
            case "ring" -> RING;
            case "tree" -> TREE;
            case "splittree" -> SPLIT_TREE;
            case "balancedtree" -> BALANCED_TREE;
            default -> throw new IllegalArgumentException("'" + s + "' is not a pattern (ring, tree, splittree, balancedtree)");
        };
    }
}
