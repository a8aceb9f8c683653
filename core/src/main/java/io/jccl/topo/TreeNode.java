// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.List;

/** A rank's place in a tree: its parent ({@code -1} at the root) and its children in order. */
public record TreeNode(int rank, int parent, List<Integer> children) {
    public TreeNode {
        children = List.copyOf(children);
    }

    public boolean isRoot() {
        return parent < 0;
    }

    public boolean isLeaf() {
        return children.isEmpty();
    }

    @Override
    public String toString() {
        return rank + "(" + (parent < 0 ? "-" : parent) + "; " + (children.isEmpty() ? "leaf" : children.toString()) + ")";
    }
}
