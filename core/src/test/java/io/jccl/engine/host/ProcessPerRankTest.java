package io.jccl.engine.host;

import io.jccl.bootstrap.PeerInfo;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Whether the tuner of a communicator over the bootstrap takes its ranks for processes of their own. */
class ProcessPerRankTest {
    private static PeerInfo rank(int rank, String host, long processId) {
        InetAddress lo = InetAddress.getLoopbackAddress();
        return new PeerInfo(rank, host, host, 1000 + processId, processId, 5, new InetSocketAddress(lo, 1), List.of(lo), Set.of());
    }

    @Test
    void everyRankInAProcessOfItsOwnOnAnyHost() {
        assertThat(HostComm.processPerRank(List.of(rank(0, "a", 1), rank(1, "a", 2), rank(2, "b", 3)))).isTrue();
        assertThat(HostComm.processPerRank(List.of(rank(0, "a", 1)))).isTrue();
    }

    @Test
    void twoRanksSharingAProcessAnywhereMakeItFalse() {
        assertThat(HostComm.processPerRank(List.of(rank(0, "a", 1), rank(1, "b", 2), rank(2, "b", 2)))).isFalse();
        assertThat(HostComm.processPerRank(List.of(rank(0, "a", 7), rank(1, "a", 7)))).isFalse();
    }
}
