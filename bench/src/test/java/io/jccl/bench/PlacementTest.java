// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import io.jccl.topo.ServerLayout;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code jccl fabric --placement}: the servers each rule gives the ranks, and what it refuses. */
class PlacementTest {
    @Test
    void contiguousPutsRanksServerByServer() {
        assertThat(servers(Placement.CONTIGUOUS.layout(2, 3))).containsExactly(0, 0, 0, 1, 1, 1);
    }

    @Test
    void interleavedPutsRankROnServerRModS() {
        ServerLayout l = Placement.INTERLEAVED.layout(3, 2);
        assertThat(servers(l)).containsExactly(0, 1, 2, 0, 1, 2);
        assertThat(l.localIndex(4)).isEqualTo(1);
        assertThat(l.rank(2, 1)).isEqualTo(5);
        assertThat(l.contiguous()).isFalse();
    }

    @Test
    void aSeedShufflesTheSameWayEveryTimeAndKeepsServersEven() {
        ServerLayout seven = Placement.random(7).layout(4, 4);
        assertThat(Placement.random(7).layout(4, 4)).isEqualTo(seven);
        assertThat(seven).isNotEqualTo(Placement.CONTIGUOUS.layout(4, 4)).isNotEqualTo(Placement.random(8).layout(4, 4));
        // java.util.Random's sequence for a seed is specified: this holds on every JDK.
        assertThat(servers(Placement.random(1).layout(2, 4))).containsExactly(0, 1, 1, 0, 0, 0, 1, 1);
        for (int seed = 0; seed < 50; seed++) {
            ServerLayout l = Placement.random(seed).layout(3, 5);
            assertThat(l.uniform()).as("seed %d: %s", seed, l).isTrue();
            assertThat(l.servers()).isEqualTo(3);
            assertThat(l.perServer()).isEqualTo(5);
        }
    }

    @Test
    void parsesWhatItPrints() {
        assertThat(Placement.parse("contiguous")).isEqualTo(Placement.CONTIGUOUS);
        assertThat(Placement.parse(" interleaved ")).isEqualTo(Placement.INTERLEAVED);
        assertThat(Placement.parse("random:42")).isEqualTo(Placement.random(42));
        for (Placement p : new Placement[] {Placement.CONTIGUOUS, Placement.INTERLEAVED, Placement.random(0), Placement.random(99)}) {
            assertThat(Placement.parse(p.toString())).isEqualTo(p);
        }
    }

    @Test
    void refusesWhatIsNotAPlacement() {
        assertThatThrownBy(() -> Placement.parse("random:")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a seed");
        assertThatThrownBy(() -> Placement.parse("random")).hasMessageContaining("needs a seed");
        assertThatThrownBy(() -> Placement.parse("random:x")).hasMessageContaining("not an integer >= 0");
        assertThatThrownBy(() -> Placement.parse("random:-1")).hasMessageContaining("not an integer >= 0");
        assertThatThrownBy(() -> Placement.parse("blocks")).hasMessage("'blocks' is not contiguous, interleaved or random:SEED");
        assertThatThrownBy(() -> Placement.parse("")).hasMessageContaining("is not contiguous");
        assertThatThrownBy(() -> new Placement(Placement.Kind.INTERLEAVED, 3)).hasMessageContaining("takes no seed");
        assertThatThrownBy(() -> Placement.random(-2)).hasMessageContaining(">= 0");
        assertThatThrownBy(() -> Placement.INTERLEAVED.layout(0, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    private static int[] servers(ServerLayout l) {
        int[] s = new int[l.nranks()];
        for (int r = 0; r < s.length; r++) {
            s[r] = l.serverOf(r);
        }
        return s;
    }
}
