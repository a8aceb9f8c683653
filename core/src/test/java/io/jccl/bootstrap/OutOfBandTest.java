// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import static io.jccl.bootstrap.RankThreads.LOOPBACK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bootstrapping through an out-of-band all-gather, and locality from exchanged host identities. */
class OutOfBandTest {
    @AfterEach
    void noThreadsLeft() {
        RankThreads.assertNoBootstrapThreads();
    }

    @Test
    void anInProcessAllGatherBootstrapsWithoutARootAndLocalityFollowsHostIds() {
        int n = 5;
        List<InProcessAllGather> group = InProcessAllGather.group(n, Duration.ofSeconds(30));
        String[] hosts = {"hostA", "hostB", "hostA", "hostC", "hostB"};
        List<Bootstrap> bs = RankThreads.values(RankThreads.run(n, Duration.ofSeconds(60),
                r -> Bootstrap.init(group.get(r), LOOPBACK.withHostId(hosts[r]), Set.of("shm"))));
        try {
            List<String> got = RankThreads.values(RankThreads.run(n, Duration.ofSeconds(30), r -> {
                Bootstrap b = bs.get(r);
                b.barrier();
                byte[][] all = b.allGather(new byte[] {(byte) (10 * r)});
                b.send((r + 2) % n, 3, new byte[] {(byte) r});
                return all[(r + 1) % n][0] + "/" + b.recv((r - 2 + n) % n, 3)[0];
            }));
            for (int r = 0; r < n; r++) {
                assertThat(got.get(r)).isEqualTo(10 * ((r + 1) % n) + "/" + (r - 2 + n) % n);
            }
            Locality l2 = bs.get(2).locality();
            assertThat(l2.hostOf()).containsExactly(0, 1, 0, 2, 1);
            assertThat(l2.hosts()).isEqualTo(3);
            assertThat(l2.localRank()).isEqualTo(1);
            assertThat(l2.localRanks()).containsExactly(0, 2);
            assertThat(l2.localSize()).isEqualTo(2);
            assertThat(l2.sameHost(1, 4)).isTrue();
            assertThat(l2.sameHost(0, 3)).isFalse();
            assertThat(bs.get(3).locality().localRanks()).containsExactly(3);
            assertThat(bs.get(4).locality().localRank()).isEqualTo(1);
            assertThat(bs.get(0).peer(3).hostId()).isEqualTo("hostC");
            assertThat(bs.get(0).peer(3).transports()).containsExactly("shm");
        } finally {
            RankThreads.closeAll(bs);
        }
    }

    @Test
    void theDetectedHostIdJoinsBootIdAndNetworkNamespace() throws Exception {
        String id = HostIdentity.hostId(LOOPBACK);
        String boot = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/kernel/random/boot_id")).trim();
        String netns = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/ns/net")).toString();
        assertThat(id).isEqualTo(boot + "/" + netns);
        assertThat(netns).startsWith("net:[");
        assertThat(HostIdentity.hostId(LOOPBACK.withHostId("h7"))).isEqualTo("h7");
    }

    @Test
    void localityNumbersHostsByTheirFirstRank() {
        InetSocketAddress a = new InetSocketAddress(InetAddress.ofLiteral("127.0.0.1"), 1);
        List<PeerInfo> peers = java.util.stream.IntStream.range(0, 6)
                .mapToObj(r -> new PeerInfo(r, "h" + "zyzxwx".charAt(r), "n", 1, 1, 1, a, List.of(), Set.of())).toList();
        Locality l = Locality.of(peers, 3);
        assertThat(l.hostOf()).containsExactly(0, 1, 0, 2, 3, 2);
        assertThat(l.localRanks()).containsExactly(3, 5);
        assertThat(l.localRank()).isZero();
        assertThat(Locality.of(peers, 5).localRank()).isEqualTo(1);
    }

    @Test
    void anInProcessRoundWithAMissingRankTimesOutNamingIt() {
        List<InProcessAllGather> group = InProcessAllGather.group(3, Duration.ofMillis(300));
        List<RankThreads.Outcome<byte[][]>> out = RankThreads.run(2, Duration.ofSeconds(10), r -> group.get(r).allGather(new byte[0]));
        for (RankThreads.Outcome<byte[][]> o : out) {
            assertThat(o.error()).isInstanceOf(JcclException.class)
                    .hasMessageContaining("timeout: in-process all-gather: ranks 2 of 3 did not call within 0.3 s");
        }
    }

    @Test
    void aBrokenOutOfBandChannelIsAnErrorNotAHang() {
        assertThatThrownBy(() -> Bootstrap.init(fake(5, 3, mine -> new byte[3][]), LOOPBACK, Set.of()))
                .hasMessageContaining("argument 'oob' reports rank 5 of 3");
        assertThatThrownBy(() -> Bootstrap.init(fake(0, 2, mine -> new byte[][] {mine}), LOOPBACK, Set.of()))
                .isInstanceOf(JcclException.class)
                .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.REMOTE_ERROR))
                .hasMessageContaining("returned 1 entries for 2 ranks");
        assertThatThrownBy(() -> Bootstrap.init(fake(1, 2, mine -> new byte[][] {mine, mine}), LOOPBACK, Set.of()))
                .hasMessageContaining("rank 0's out-of-band entry holds no secret");
        assertThatThrownBy(() -> Bootstrap.init(fake(0, 2, mine -> new byte[][] {mine, {1, 2}}), LOOPBACK, Set.of()))
                .hasMessageContaining("bad entry for rank 1");
        assertThatThrownBy(() -> Bootstrap.init(fake(0, 2, mine -> new byte[][] {mine, mine}), LOOPBACK, Set.of()))
                .hasMessageContaining("peer info in slot 1 says rank 0");
    }

    private static OutOfBandAllGather fake(int rank, int size, java.util.function.Function<byte[], byte[][]> answer) {
        return new OutOfBandAllGather() {
            @Override
            public int rank() {
                return rank;
            }

            @Override
            public int size() {
                return size;
            }

            @Override
            public byte[][] allGather(byte[] mine) {
                return answer.apply(mine);
            }
        };
    }
}
