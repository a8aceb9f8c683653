// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChannelsTest {
    @Test
    void flatChannelsShareTheDoubleBinaryTree() {
        Channels ch = Channels.flat(6, 3);
        assertThat(ch.count()).isEqualTo(3);
        assertThat(ch.treePairs()).isEqualTo(1);
        for (int lanes : new int[] {2, 4, 6}) {
            for (int lane = 0; lane < lanes; lane++) {
                TreeNode[] expected = lane < lanes / 2 ? BinaryTrees.first(6) : BinaryTrees.second(6);
                assertThat(ch.tree(lane, lanes)).containsExactly(expected);
            }
        }
    }

    @Test
    void pairsGoToTheLanesOfEachHalf() {
        TreeNode[] a = BinaryTrees.first(4);
        TreeNode[] b = BinaryTrees.second(4);
        // Pair 1: the chain 3 -> 2 -> 1 -> 0 and its reverse.
        TreeNode[] chain = {new TreeNode(0, 1, List.of()), new TreeNode(1, 2, List.of(0)), new TreeNode(2, 3, List.of(1)),
            new TreeNode(3, -1, List.of(2))};
        TreeNode[] rev = {new TreeNode(0, -1, List.of(1)), new TreeNode(1, 0, List.of(2)), new TreeNode(2, 1, List.of(3)),
            new TreeNode(3, 2, List.of())};
        Channels ch = new Channels(4, new Ring[] {Ring.identity(4), Ring.identity(4), Ring.identity(4), Ring.identity(4)},
                new TreeNode[][] {a, chain}, new TreeNode[][] {b, rev});
        assertThat(ch.treePairs()).isEqualTo(2);
        assertThat(ch.tree(0, 4)).containsExactly(a);
        assertThat(ch.tree(1, 4)).containsExactly(chain);
        assertThat(ch.tree(2, 4)).containsExactly(b);
        assertThat(ch.tree(3, 4)).containsExactly(rev);
        // More lanes than pairs wrap around.
        assertThat(ch.treeNode(2, 8, 3)).isEqualTo(a[3]);
        assertThat(ch.treeNode(7, 8, 0)).isEqualTo(rev[0]);
        // One lane per tree: the second tree runs on the pair the first leaves (its chain crosses elsewhere).
        assertThat(ch.tree(0, 2)).containsExactly(a);
        assertThat(ch.tree(1, 2)).containsExactly(rev);
        assertThat(ch.treePair(1, 2)).isEqualTo(1);
        assertThat(ch.treePair(0, 2)).isEqualTo(0);
    }

    @Test
    void refusesBrokenTreesAndOddLanes() {
        Ring[] rings = {Ring.identity(3)};
        TreeNode[] ok = BinaryTrees.first(3);
        TreeNode[] twoRoots = {new TreeNode(0, -1, List.of()), new TreeNode(1, -1, List.of(2)), new TreeNode(2, 1, List.of())};
        TreeNode[] orphan = {new TreeNode(0, -1, List.of(2)), new TreeNode(1, 0, List.of()), new TreeNode(2, 0, List.of())};
        TreeNode[] shuffled = {ok[1], ok[0], ok[2]};
        assertThatThrownBy(() -> new Channels(3, rings, twoRoots, ok)).hasMessageContaining("2 roots");
        assertThatThrownBy(() -> new Channels(3, rings, ok, orphan)).hasMessageContaining("is not a child of its parent");
        assertThatThrownBy(() -> new Channels(3, rings, shuffled, ok)).hasMessageContaining("entry 0 is rank 1");
        assertThatThrownBy(() -> new Channels(3, rings, new TreeNode[][] {ok}, new TreeNode[][] {}))
                .hasMessageContaining("1 first trees and 0 second trees");
        Channels ch = Channels.flat(3, 1);
        assertThatThrownBy(() -> ch.treeNode(0, 3, 0)).hasMessageContaining("lanes must be even");
        assertThatThrownBy(() -> ch.treeNode(2, 2, 0)).hasMessageContaining("lane 2 of 2");
    }
}
