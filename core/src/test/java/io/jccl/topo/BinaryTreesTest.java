// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BinaryTreesTest {
    private static String render(TreeNode[] t, int... order) {
        List<String> s = new ArrayList<>();
        for (int r : order) {
            s.add(t[r].toString());
        }
        return String.join(" ", s);
    }

    @Test
    void firstTreeOf14MatchesNccl() {
        TreeNode[] t = BinaryTrees.first(14);
        assertThat(render(t, 0, 8, 4, 12, 2, 6, 10, 13)).isEqualTo(
                "0(-; [8]) 8(0; [4, 12]) 4(8; [2, 6]) 12(8; [10, 13]) 2(4; [1, 3]) 6(4; [5, 7]) 10(12; [9, 11]) 13(12; leaf)");
    }

    @Test
    void secondTreeOf14IsTheMirror() {
        TreeNode[] t = BinaryTrees.second(14);
        assertThat(render(t, 13, 5, 1, 9, 3, 7, 11)).isEqualTo(
                "13(-; [5]) 5(13; [9, 1]) 1(5; [3, 0]) 9(5; [11, 7]) 3(1; [4, 2]) 7(9; [8, 6]) 11(9; [12, 10])");
    }

    @Test
    void secondTreeOf13IsTheShift() {
        TreeNode[] t = BinaryTrees.second(13);
        assertThat(render(t, 1, 9, 0, 5, 11)).isEqualTo("1(-; [9]) 9(1; [5, 0]) 0(9; [11]) 5(9; [3, 7]) 11(0; [10, 12])");
    }

    @Test
    void treesSpanAllRanksConsistently() {
        for (int n = 1; n <= 130; n++) {
            for (TreeNode[] t : List.of(BinaryTrees.first(n), BinaryTrees.second(n))) {
                int roots = 0;
                int edges = 0;
                for (TreeNode node : t) {
                    assertThat(node.children()).hasSizeLessThanOrEqualTo(2);
                    if (node.isRoot()) {
                        roots++;
                    } else {
                        assertThat(t[node.parent()].children()).as("n=%d parent of %d lists it", n, node.rank()).contains(node.rank());
                    }
                    for (int c : node.children()) {
                        assertThat(t[c].parent()).isEqualTo(node.rank());
                        edges++;
                    }
                }
                assertThat(roots).isEqualTo(1);
                assertThat(edges).isEqualTo(n - 1);
                assertThat(BinaryTrees.depth(t)).isLessThanOrEqualTo(2 * (32 - Integer.numberOfLeadingZeros(n)));
            }
        }
    }

    @Test
    void noRankIsALeafInBothTreesOfAnEvenCount() {
        for (int n = 4; n <= 130; n += 2) {
            TreeNode[] a = BinaryTrees.first(n);
            TreeNode[] b = BinaryTrees.second(n);
            for (int r = 0; r < n; r++) {
                assertThat(a[r].isLeaf() && b[r].isLeaf()).as("n=%d rank %d", n, r).isFalse();
            }
        }
    }

    @Test
    void ringsRejectWhatIsNotAPermutation() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Ring(new int[] {0, 0, 1}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Ring.identity(4).at(-1)).isEqualTo(3);
        assertThat(Ring.identity(4).at(4)).isEqualTo(0);
    }

    @Test
    void parentSlotsFollowNcclsChildTypes() {
        // First tree of 14: 8 is the root's only child, in slot 1; 4 < 8 is slot 0, 12 > 8 slot 1.
        assertThat(BinaryTrees.parentSlot(14, 0, 0)).isEqualTo(-1);
        assertThat(BinaryTrees.parentSlot(14, 0, 8)).isEqualTo(1);
        assertThat(BinaryTrees.parentSlot(14, 0, 4)).isEqualTo(0);
        assertThat(BinaryTrees.parentSlot(14, 0, 12)).isEqualTo(1);
        assertThat(BinaryTrees.parentSlot(14, 0, 13)).isEqualTo(1);
        // Mirrored second tree: the slots of the ranks mirrored from (5 is 8's mirror, 9 is 4's).
        assertThat(BinaryTrees.parentSlot(14, 1, 13)).isEqualTo(-1);
        assertThat(BinaryTrees.parentSlot(14, 1, 5)).isEqualTo(1);
        assertThat(BinaryTrees.parentSlot(14, 1, 9)).isEqualTo(0);
        assertThat(BinaryTrees.parentSlot(14, 1, 1)).isEqualTo(1);
        // Shifted second tree of 13: 9 is 8 shifted (slot 1), 0 is 12 shifted (slot 1), 5 is 4 shifted (slot 0).
        assertThat(BinaryTrees.parentSlot(13, 1, 1)).isEqualTo(-1);
        assertThat(BinaryTrees.parentSlot(13, 1, 9)).isEqualTo(1);
        assertThat(BinaryTrees.parentSlot(13, 1, 0)).isEqualTo(1);
        assertThat(BinaryTrees.parentSlot(13, 1, 5)).isEqualTo(0);
        // Every child of a node has a distinct slot.
        for (int n = 2; n <= 70; n++) {
            for (int which = 0; which < 2; which++) {
                TreeNode[] t = which == 0 ? BinaryTrees.first(n) : BinaryTrees.second(n);
                for (TreeNode node : t) {
                    if (node.children().size() == 2) {
                        assertThat(BinaryTrees.parentSlot(n, which, node.children().get(0)))
                                .as("n=%d tree %d %s", n, which, node)
                                .isNotEqualTo(BinaryTrees.parentSlot(n, which, node.children().get(1)));
                    }
                }
            }
        }
    }
}
