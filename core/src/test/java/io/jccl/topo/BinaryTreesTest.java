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
}
