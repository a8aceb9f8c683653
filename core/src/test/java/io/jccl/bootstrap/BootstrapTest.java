// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.jccl.bootstrap.RankThreads.LOOPBACK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The TCP bootstrap with one thread per rank, on loopback. */
class BootstrapTest {
    @AfterEach
    void noThreadsLeft() {
        RankThreads.assertNoBootstrapThreads();
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void ranksFindEachOtherExchangeInfoAndAllGather() {
        for (int n : new int[] {1, 2, 3, 5}) {
            List<Bootstrap> bs = RankThreads.initAll(n, LOOPBACK);
            try {
                List<List<String>> got = RankThreads.values(RankThreads.run(n, Duration.ofSeconds(30), r -> {
                    Bootstrap b = bs.get(r);
                    List<String> first = Arrays.stream(b.allGather(text("a" + r))).map(x -> new String(x, StandardCharsets.UTF_8)).toList();
                    b.barrier();
                    List<String> second = Arrays.stream(b.allGather(text("b" + r * r))).map(x -> new String(x, StandardCharsets.UTF_8)).toList();
                    return List.of(String.join(",", first), String.join(",", second));
                }));
                String a = String.join(",", java.util.stream.IntStream.range(0, n).mapToObj(r -> "a" + r).toList());
                String b = String.join(",", java.util.stream.IntStream.range(0, n).mapToObj(r -> "b" + r * r).toList());
                for (List<String> g : got) {
                    assertThat(g).containsExactly(a, b);
                }
                for (int r = 0; r < n; r++) {
                    Bootstrap x = bs.get(r);
                    PeerInfo me = x.peer(r);
                    assertThat(x.rank()).isEqualTo(r);
                    assertThat(x.size()).isEqualTo(n);
                    assertThat(x.peers()).extracting(PeerInfo::rank)
                            .containsExactlyElementsOf(java.util.stream.IntStream.range(0, n).boxed().toList());
                    assertThat(x.peers()).allSatisfy(p -> {
                        assertThat(p.transports()).containsExactly("net");
                        assertThat(p.sameProcess(me)).isTrue();
                        assertThat(p.bootstrapAddress().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
                        assertThat(p.pid()).isEqualTo(ProcessHandle.current().pid());
                    });
                    assertThat(x.peers()).extracting(PeerInfo::bootstrapAddress).doesNotHaveDuplicates();
                    assertThat(x.peers()).isEqualTo(bs.get(0).peers());
                    assertThat(x.locality().hosts()).isEqualTo(1);
                    assertThat(x.locality().localRank()).isEqualTo(r);
                    assertThat(x.locality().localSize()).isEqualTo(n);
                }
            } finally {
                RankThreads.closeAll(bs);
            }
        }
    }

    @Test
    void blocksLargerThanSocketBuffersDoNotDeadlockTheRing() {
        int n = 3;
        List<Bootstrap> bs = RankThreads.initAll(n, LOOPBACK);
        try {
            List<byte[][]> got = RankThreads.values(RankThreads.run(n, Duration.ofSeconds(60), r -> {
                byte[] mine = new byte[8 << 20];
                new Random(r).nextBytes(mine);
                return bs.get(r).allGather(mine);
            }));
            for (byte[][] all : got) {
                for (int r = 0; r < n; r++) {
                    byte[] expect = new byte[8 << 20];
                    new Random(r).nextBytes(expect);
                    assertThat(Arrays.equals(all[r], expect)).as("block of rank " + r).isTrue();
                }
            }
        } finally {
            RankThreads.closeAll(bs);
        }
    }

    @Test
    void messagesOfOneTagKeepTheirOrderAndOtherTagsWait() throws Exception {
        List<Bootstrap> bs = RankThreads.initAll(3, LOOPBACK);
        try {
            Bootstrap b0 = bs.get(0);
            Bootstrap b1 = bs.get(1);
            b0.send(1, 1, text("one-a"));
            b0.send(1, 2, text("two"));
            b0.send(1, 1, text("one-b"));
            b0.send(1, 7, new byte[0]);
            bs.get(2).send(1, 1, text("from 2"));
            assertThat(new String(b1.recv(0, 2), StandardCharsets.UTF_8)).isEqualTo("two");
            assertThat(new String(b1.recv(2, 1), StandardCharsets.UTF_8)).isEqualTo("from 2");
            assertThat(new String(b1.recv(0, 1), StandardCharsets.UTF_8)).isEqualTo("one-a");
            assertThat(new String(b1.recv(0, 1), StandardCharsets.UTF_8)).isEqualTo("one-b");
            assertThat(b1.recv(0, 7)).isEmpty();
            b1.send(1, 3, text("self"));
            assertThat(new String(b1.recv(1, 3), StandardCharsets.UTF_8)).isEqualTo("self");

            // two threads waiting on one peer for different tags: whichever reads files the other's message
            CompletableFuture<String> x = CompletableFuture.supplyAsync(() -> new String(b1.recv(0, 10), StandardCharsets.UTF_8),
                    java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
            CompletableFuture<String> y = CompletableFuture.supplyAsync(() -> new String(b1.recv(0, 11), StandardCharsets.UTF_8),
                    java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
            Thread.sleep(100);
            b0.send(1, 11, text("eleven"));
            b0.send(1, 10, text("ten"));
            assertThat(x.get(20, TimeUnit.SECONDS)).isEqualTo("ten");
            assertThat(y.get(20, TimeUnit.SECONDS)).isEqualTo("eleven");
        } finally {
            RankThreads.closeAll(bs);
        }
    }

    @Test
    void theRootCanGoAwayAfterInit() throws Exception {
        int n = 3;
        BootstrapRoot root = BootstrapRoot.start(LOOPBACK);
        List<Bootstrap> bs = RankThreads.values(RankThreads.run(n, Duration.ofSeconds(60),
                r -> Bootstrap.init(root.id(), n, r, LOOPBACK, Set.of())));
        try {
            assertThat(root.awaitDone(Duration.ofSeconds(10))).isTrue();
            assertThat(root.outcome()).isEqualTo("done");
            root.close();
            assertThatThrownBy(() -> new Socket(root.id().host(), root.id().port()).close()).isInstanceOf(ConnectException.class);
            List<String> got = RankThreads.values(RankThreads.run(n, Duration.ofSeconds(30), r -> {
                bs.get(r).barrier();
                return new String(bs.get(r).allGather(text("x" + r))[(r + 1) % n], StandardCharsets.UTF_8);
            }));
            assertThat(got).containsExactly("x1", "x2", "x0");
        } finally {
            RankThreads.closeAll(bs);
        }
    }

    @Test
    void ranksThatStartBeforeTheRootRetryUntilItListens() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.ofLiteral("127.0.0.1"))) {
            port = probe.getLocalPort();
        }
        CommId id = CommId.of("127.0.0.1", port, CommId.newSecret());
        CompletableFuture<List<RankThreads.Outcome<Bootstrap>>> ranks = CompletableFuture.supplyAsync(
                () -> RankThreads.run(2, Duration.ofSeconds(60), r -> Bootstrap.init(id, 2, r, LOOPBACK, Set.of())),
                java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        Thread.sleep(700);
        assertThat(ranks).isNotDone();
        try (BootstrapRoot root = BootstrapRoot.listen(id, LOOPBACK)) {
            List<Bootstrap> bs = RankThreads.values(ranks.get(60, TimeUnit.SECONDS));
            try {
                assertThat(root.id()).isEqualTo(id);
                assertThat(bs).extracting(Bootstrap::size).containsExactly(2, 2);
            } finally {
                RankThreads.closeAll(bs);
            }
        }
    }

    @Test
    void splitGroupsByColorOrdersByKeyAndOutlivesItsParent() {
        int n = 5;
        List<Bootstrap> bs = RankThreads.initAll(n, LOOPBACK);
        List<Bootstrap> children;
        try {
            children = RankThreads.values(RankThreads.run(n, Duration.ofSeconds(30),
                    r -> bs.get(r).split(r == 4 ? Bootstrap.NO_COLOR : r % 2, 10 - r)));
        } finally {
            RankThreads.closeAll(bs);
        }
        try {
            assertThat(children.get(4)).isNull();
            // color 0: parent ranks 0 (key 10) and 2 (key 8) -> 2 first; color 1: 1 (key 9) and 3 (key 7) -> 3 first
            assertThat(children.subList(0, 4)).extracting(Bootstrap::rank).containsExactly(1, 1, 0, 0);
            assertThat(children.subList(0, 4)).extracting(Bootstrap::size).containsExactly(2, 2, 2, 2);
            List<String> got = RankThreads.values(RankThreads.run(4, Duration.ofSeconds(30), r -> {
                byte[][] all = children.get(r).allGather(text("p" + r));
                return new String(all[0], StandardCharsets.UTF_8) + "," + new String(all[1], StandardCharsets.UTF_8);
            }));
            assertThat(got).containsExactly("p2,p0", "p3,p1", "p2,p0", "p3,p1");
            assertThat(children.get(0).peer(0).pid()).isEqualTo(ProcessHandle.current().pid());
            assertThat(children.get(0).peers()).extracting(PeerInfo::rank).containsExactly(0, 1);
        } finally {
            children.stream().filter(java.util.Objects::nonNull).forEach(Bootstrap::close);
        }
    }

    @Test
    void closeFromAnotherThreadFailsABlockedReceiveAtOnce() throws Exception {
        List<Bootstrap> bs = RankThreads.initAll(2, LOOPBACK);
        try {
            bs.get(1).send(0, 0, new byte[] {1}); // rank 1 -> 0 connection exists
            assertThat(bs.get(0).recv(1, 0)).containsExactly(1);
            CompletableFuture<byte[]> waiting = CompletableFuture.supplyAsync(() -> bs.get(0).recv(1, 5),
                    java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
            Thread.sleep(200);
            long t0 = System.nanoTime();
            bs.get(0).close();
            assertThatThrownBy(() -> waiting.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(JcclException.class)
                    .hasMessageContaining("rank 0: invalid_usage: the bootstrap was closed while a receive with tag 5 with rank 1");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(2));
        } finally {
            RankThreads.closeAll(bs);
        }
    }

    @Test
    void aPeerThatClosesIsNamedOnceItsMessagesAreRead() {
        List<Bootstrap> bs = RankThreads.initAll(2, LOOPBACK);
        try {
            bs.get(1).send(0, 4, text("last words"));
            bs.get(1).close();
            assertThat(new String(bs.get(0).recv(1, 4), StandardCharsets.UTF_8)).isEqualTo("last words");
            assertThatThrownBy(() -> bs.get(0).recv(1, 4)).isInstanceOf(JcclException.class)
                    .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.REMOTE_ERROR))
                    .hasMessageContaining("lost the bootstrap connection with rank 1")
                    .hasMessageContaining("rank 1 closed it");
            assertThatThrownBy(() -> bs.get(0).barrier()).isInstanceOf(JcclException.class).hasMessageContaining("rank 1");
        } finally {
            RankThreads.closeAll(bs);
        }
    }

    @Test
    void sendingToAPeerThatIsGoneFailsFastNamingIt() {
        List<Bootstrap> bs = RankThreads.initAll(3, LOOPBACK);
        try {
            bs.get(2).close(); // rank 0 has never connected to rank 2 (its ring successor is rank 1)
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> bs.get(0).send(2, 0, text("anyone?"))).isInstanceOf(JcclException.class)
                    .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.REMOTE_ERROR))
                    .hasMessageContaining("rank 0: remote_error: rank 2 no longer listens at")
                    .hasMessageContaining("Connection refused");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
        } finally {
            RankThreads.closeAll(bs);
        }
    }

    @Test
    void aReceiveNobodyAnswersTimesOutNamingThePeer() {
        Config quick = LOOPBACK.withBootstrapTimeout(Duration.ofSeconds(1));
        List<Bootstrap> bs = RankThreads.initAll(2, quick);
        try {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> bs.get(0).recv(1, 9)).isInstanceOf(JcclException.class)
                    .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.TIMEOUT))
                    .hasMessageContaining("rank 0: timeout: waited 1 s for rank 1 during a receive with tag 9");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isBetween(Duration.ofMillis(900), Duration.ofSeconds(5));
        } finally {
            RankThreads.closeAll(bs);
        }
    }

    @Test
    void argumentsAreCheckedNamingThem() {
        CommId id = CommId.of("127.0.0.1", 9, CommId.newSecret());
        assertThatThrownBy(() -> Bootstrap.init(id, 0, 0, LOOPBACK, Set.of())).hasMessageContaining("argument 'nranks'");
        assertThatThrownBy(() -> Bootstrap.init(id, 2, 2, LOOPBACK, Set.of())).hasMessageContaining("rank 2: invalid_argument: argument 'rank' is 2");
        assertThatThrownBy(() -> Bootstrap.init(id, 2, 0, LOOPBACK, null)).hasMessageContaining("argument 'transports'");
        assertThatThrownBy(() -> Bootstrap.init(id, 2, 0, null, Set.of())).hasMessageContaining("argument 'config'");
        List<Bootstrap> bs = RankThreads.initAll(1, LOOPBACK);
        try {
            Bootstrap b = bs.getFirst();
            assertThatThrownBy(() -> b.send(1, 0, new byte[0])).hasMessageContaining("argument 'peer' is 1, not a rank of 0..0");
            assertThatThrownBy(() -> b.recv(-1, 0)).hasMessageContaining("argument 'peer' is -1");
            assertThatThrownBy(() -> b.send(0, -3, new byte[0])).hasMessageContaining("argument 'tag' is -3");
            assertThatThrownBy(() -> b.send(0, 0, null)).hasMessageContaining("argument 'data' is null");
            assertThatThrownBy(() -> b.allGather(new byte[Bootstrap.MAX_MESSAGE + 1])).hasMessageContaining("argument 'mine' holds");
            assertThatThrownBy(() -> b.split(-2, 0)).hasMessageContaining("argument 'color' is -2");
            assertThat(b.allGather(new byte[] {5})).hasDimensions(1, 1);
        } finally {
            RankThreads.closeAll(bs);
        }
    }
}
