// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerLayoutTest {
    @Test
    void serversComeFromHostIdentitiesInOrderOfTheirLowestRank() {
        ServerLayout l = ServerLayout.ofHosts(List.of("b", "a", "b", "a", "c", "c"));
        assertThat(l.servers()).isEqualTo(3);
        assertThat(l.serverOf(0)).isZero();
        assertThat(l.serverOf(1)).isEqualTo(1);
        assertThat(l.serverOf(4)).isEqualTo(2);
        assertThat(l.localIndex(2)).isEqualTo(1);
        assertThat(l.rank(1, 1)).isEqualTo(3);
        assertThat(l.uniform()).isTrue();
        assertThat(l.perServer()).isEqualTo(2);
        assertThat(l.contiguous()).isFalse();
        assertThat(l.serverOrder()).containsExactly(0, 2, 1, 3, 4, 5);
        assertThat(l).hasToString("3x2 [0, 1, 0, 1, 2, 2]");
    }

    @Test
    void unevenLayoutsSayWhatTheyAre() {
        ServerLayout l = ServerLayout.ofHosts(List.of("x", "x", "x", "y"));
        assertThat(l.uniform()).isFalse();
        assertThat(l).hasToString("servers of 3+1 ranks [0, 0, 0, 1]");
        assertThatThrownBy(l::perServer).hasMessageContaining("servers of 3+1");
        assertThat(ServerLayout.blocks(7, 3).toString()).isEqualTo("servers of 3+2+2 ranks [0, 0, 0, 1, 1, 2, 2]");
        assertThat(ServerLayout.uniform(2, 4)).isEqualTo(ServerLayout.ofHosts(List.of(1, 1, 1, 1, 2, 2, 2, 2)));
        assertThatThrownBy(() -> ServerLayout.ofHosts(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ServerLayout.uniform(0, 4)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void channelsCarryTheLayoutAndRingServerByServer() {
        ServerLayout l = ServerLayout.ofHosts(List.of(0, 1, 0, 1));
        Channels ch = Channels.flat(l, 2);
        assertThat(ch.layout()).isEqualTo(l);
        assertThat(ch.ring(1).order()).containsExactly(0, 2, 1, 3);
        assertThat(Channels.flat(4, 1).layout()).isEqualTo(ServerLayout.single(4));
        assertThatThrownBy(() -> Channels.flat(3, 1).withLayout(l)).hasMessageContaining("4 ranks");
    }

    @Test
    void theTopologySearchAcrossNodesGivesOneServerPerNode() {
        Channels ch = Layout.of(TopoSystemTest.load("dgx-a100"), 2, TopoPattern.TREE).channels();
        assertThat(ch.layout()).isEqualTo(ServerLayout.uniform(2, 8));
    }
}
