// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** A ring's positions both ways, and its turns, which share the ring rather than copy it. */
class RingTest {
    @Test
    void positionsInvertTheOrder() {
        Ring ring = new Ring(new int[] {3, 0, 4, 1, 2});
        for (int p = 0; p < ring.size(); p++) {
            assertThat(ring.positionOf(ring.at(p))).isEqualTo(p);
        }
        Ring turned = ring.startingAt(4);
        assertThat(turned.order()).containsExactly(4, 1, 2, 3, 0);
        assertThat(turned.positionOf(4)).isZero();
        assertThat(turned.positionOf(3)).isEqualTo(3);
        assertThat(turned.at(-1)).isEqualTo(0);
        assertThat(turned.startingAt(0).order()).containsExactly(0, 4, 1, 2, 3);
        assertThat(turned).isEqualTo(new Ring(new int[] {4, 1, 2, 3, 0}));
        assertThat(turned.hashCode()).isEqualTo(new Ring(new int[] {4, 1, 2, 3, 0}).hashCode());
        assertThat(turned).isNotEqualTo(ring).hasToString("[4, 1, 2, 3, 0]");
    }

    @Test
    void theRingKeepsItsOwnCopy() {
        int[] order = {1, 0, 2};
        Ring ring = new Ring(order);
        order[0] = 2;
        ring.order()[1] = 2;
        assertThat(ring.order()).containsExactly(1, 0, 2);
        assertThat(Arrays.stream(ring.order()).map(ring::positionOf).toArray()).containsExactly(0, 1, 2);
    }
}
