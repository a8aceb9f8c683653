// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntSupplier;

import static io.jccl.bootstrap.RankThreads.LOOPBACK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What goes wrong at the rendezvous and on the links, and that each failure is named and bounded. */
class BootstrapFailureTest {
    @AfterEach
    void noThreadsLeft() {
        RankThreads.assertNoBootstrapThreads();
    }

    private static JcclException failure(RankThreads.Outcome<?> o) {
        assertThat(o.error()).as("the rank should have failed").isInstanceOf(JcclException.class);
        return (JcclException) o.error();
    }

    private static void closeSucceeded(List<RankThreads.Outcome<Bootstrap>> outcomes) {
        outcomes.stream().filter(o -> o.value() != null).forEach(o -> o.value().close());
    }

    @Test
    void aMissingRankIsATimeoutNamingIt() throws Exception {
        Config c = LOOPBACK.withBootstrapTimeout(Duration.ofSeconds(2));
        try (BootstrapRoot root = BootstrapRoot.start(c)) {
            long t0 = System.nanoTime();
            List<RankThreads.Outcome<Bootstrap>> out = RankThreads.run(2, Duration.ofSeconds(30),
                    r -> Bootstrap.init(root.id(), 3, r, c, Set.of()));
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            closeSucceeded(out);
            for (int r = 0; r < 2; r++) {
                JcclException e = failure(out.get(r));
                assertThat(e.code()).isEqualTo(ErrorCode.TIMEOUT);
                assertThat(e.rank()).isEqualTo(r);
                assertThat(e.getMessage()).contains("ranks 2 of 3 did not join within 2 s (joined: 0-1)");
            }
            assertThat(took).isBetween(Duration.ofMillis(1900), Duration.ofSeconds(6));
            assertThat(root.awaitDone(Duration.ofSeconds(5))).isTrue();
        }
    }

    @Test
    void aRankThatJoinsTwiceFailsEveryoneNamingIt() throws Exception {
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            List<RankThreads.Outcome<Bootstrap>> out = RankThreads.run(3, Duration.ofSeconds(30), r -> {
                if (r == 2) {
                    RankThreads.sleep(300); // ranks 0 and 1 are in when the twin comes
                }
                return Bootstrap.init(root.id(), 3, Math.min(r, 1), LOOPBACK, Set.of());
            });
            closeSucceeded(out);
            for (RankThreads.Outcome<Bootstrap> o : out) {
                JcclException e = failure(o);
                assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                long pid = ProcessHandle.current().pid();
                assertThat(e.getMessage()).containsPattern("argument 'rank': rank 1 joined twice, as pid " + pid + " on \\S+ "
                        + "\\(/127\\.0\\.0\\.1:\\d+\\) and as pid " + pid + " on \\S+ \\(/127\\.0\\.0\\.1:\\d+\\)")
                        .contains("JCCL_JOB_ID");
            }
        }
    }

    @Test
    void ranksThatDisagreeOnTheRankCountFailNamingBoth() throws Exception {
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            List<RankThreads.Outcome<Bootstrap>> out = RankThreads.run(2, Duration.ofSeconds(30), r -> {
                if (r == 1) {
                    RankThreads.sleep(300); // rank 0 joins first and sets the count
                }
                return Bootstrap.init(root.id(), r == 0 ? 3 : 4, r, LOOPBACK, Set.of());
            });
            closeSucceeded(out);
            for (RankThreads.Outcome<Bootstrap> o : out) {
                JcclException e = failure(o);
                assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                assertThat(e.getMessage()).contains("argument 'nranks' differs: rank 1 joined with nranks 4 but rank 0 with nranks 3");
            }
        }
    }

    @Test
    void aRankWithAnotherSecretIsRefusedAndTheJobGoesOn() throws Exception {
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            CommId impostor = CommId.of(root.id().host(), root.id().port(), CommId.newSecret());
            List<RankThreads.Outcome<Bootstrap>> out = RankThreads.run(3, Duration.ofSeconds(30), r -> {
                if (r == 2) {
                    return Bootstrap.init(impostor, 2, 1, LOOPBACK, Set.of());
                }
                RankThreads.sleep(300); // the impostor knocks first
                return Bootstrap.init(root.id(), 2, r, LOOPBACK, Set.of());
            });
            try {
                JcclException e = failure(out.get(2));
                assertThat(e.code()).isEqualTo(ErrorCode.REMOTE_ERROR);
                assertThat(e.getMessage()).contains("failed the handshake: it refused this side's proof");
                List<Bootstrap> bs = List.of(out.get(0).get(), out.get(1).get());
                assertThat(RankThreads.values(RankThreads.run(2, Duration.ofSeconds(30),
                        r -> bs.get(r).allGather(new byte[] {(byte) r})[1 - r][0]))).containsExactly((byte) 1, (byte) 0);
            } finally {
                closeSucceeded(out);
            }
            assertThat(root.rejectedConnections()).isEqualTo(1);
        }
    }

    @Test
    void garbageOversizedAndSilentConnectionsToTheRootAreDroppedAndTheJobGoesOn() throws Exception {
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            InetSocketAddress at = new InetSocketAddress(root.id().host(), root.id().port());
            List<Socket> raw = new ArrayList<>();
            try {
                Socket http = new Socket(at.getAddress(), at.getPort());
                http.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                raw.add(http);
                Socket huge = new Socket(at.getAddress(), at.getPort());
                Frames.read(new DataInputStream(huge.getInputStream()), 256); // the challenge
                huge.getOutputStream().write(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2, 3});
                raw.add(huge);
                raw.add(new Socket(at.getAddress(), at.getPort())); // says nothing
                waitFor(root::rejectedConnections, 2);

                List<Bootstrap> bs = RankThreads.values(RankThreads.run(2, Duration.ofSeconds(30),
                        r -> Bootstrap.init(root.id(), 2, r, LOOPBACK, Set.of())));
                RankThreads.closeAll(bs);
                assertThat(root.outcome()).isEqualTo("done");
                assertThat(root.rejectedConnections()).isEqualTo(2);
            } finally {
                for (Socket s : raw) {
                    s.close();
                }
            }
        }
    }

    @Test
    void aClientWithTheSecretButAnImpossibleRankIsAnsweredAndDropped() throws Exception {
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            try (Socket s = new Socket(root.id().host(), root.id().port())) {
                SecureChannel ch = Handshake.connect(s, root.id().secret(), Handshake.ROOT, new byte[0], 10_000);
                ch.send(RootProtocol.join(5, 3, new InetSocketAddress("127.0.0.1", 9)));
                Wire.Reader r = new Wire.Reader(ch.receive(RootProtocol.MAX_MESSAGE, 10_000), "answer");
                assertThat(r.u8()).isEqualTo(RootProtocol.ERROR);
                assertThat(RootProtocol.code(r.i32())).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                assertThat(r.string(4096)).isEqualTo("argument 'rank' is 5, not a rank of 0..2 (nranks 3)");
            }
            List<Bootstrap> bs = RankThreads.values(RankThreads.run(2, Duration.ofSeconds(30),
                    r -> Bootstrap.init(root.id(), 2, r, LOOPBACK, Set.of())));
            RankThreads.closeAll(bs);
            assertThat(root.rejectedConnections()).isEqualTo(1);
        }
    }

    @Test
    void strangersAtARanksListenerAreDroppedAndTheRanksGoOn() throws Exception {
        BootstrapRoot root = BootstrapRoot.start(LOOPBACK);
        byte[] secret = root.id().secret();
        List<Bootstrap> bs = RankThreads.values(RankThreads.run(2, Duration.ofSeconds(30),
                r -> Bootstrap.init(root.id(), 2, r, LOOPBACK, Set.of())));
        root.close();
        try {
            InetSocketAddress at = bs.get(0).peer(0).bootstrapAddress();
            try (Socket garbage = new Socket(at.getAddress(), at.getPort());
                 Socket liar = new Socket(at.getAddress(), at.getPort());
                 Socket wrongSecret = new Socket(at.getAddress(), at.getPort())) {
                OutputStream o = garbage.getOutputStream();
                o.write(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff});
                o.flush();
                // knows the secret but claims a rank that does not exist
                assertThatThrownBy(() -> Handshake.connect(liar, secret, Handshake.PEER,
                        new Wire.Writer().i32(7).i32(0).i32(2).toByteArray(), 10_000)
                        .receive(100, 2_000)).isInstanceOf(java.io.IOException.class);
                assertThatThrownBy(() -> Handshake.connect(wrongSecret, CommId.newSecret(), Handshake.PEER,
                        new Wire.Writer().i32(1).i32(0).i32(2).toByteArray(), 10_000)).isInstanceOf(BadFrame.class);
                waitFor(bs.get(0)::rejectedConnections, 3);
            }
            List<String> got = RankThreads.values(RankThreads.run(2, Duration.ofSeconds(30),
                    r -> new String(bs.get(r).allGather(("r" + r).getBytes())[1 - r])));
            assertThat(got).containsExactly("r1", "r0");
            assertThat(bs.get(0).rejectedConnections()).isEqualTo(3);
        } finally {
            RankThreads.closeAll(bs);
        }
    }

    @Test
    void aRootThatNeverListensIsATimeoutNamingItsAddress() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.ofLiteral("127.0.0.1"))) {
            port = probe.getLocalPort();
        }
        CommId id = CommId.of("127.0.0.1", port, CommId.newSecret());
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> Bootstrap.init(id, 2, 1, LOOPBACK.withBootstrapTimeout(Duration.ofMillis(800)), Set.of()))
                .isInstanceOf(JcclException.class)
                .satisfies(e -> assertThat(((JcclException) e).code()).isEqualTo(ErrorCode.TIMEOUT))
                .hasMessageContaining("rank 1: timeout: could not connect to the bootstrap root at 127.0.0.1:" + port + " within 0.8 s")
                .hasMessageContaining("Connection refused");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isBetween(Duration.ofMillis(700), Duration.ofSeconds(3));
    }

    @Test
    void closingTheRootEarlyFailsTheRanksThatWait() throws Exception {
        BootstrapRoot root = BootstrapRoot.start(LOOPBACK);
        try {
            java.util.concurrent.CompletableFuture<Bootstrap> rank0 = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> Bootstrap.init(root.id(), 2, 0, LOOPBACK, Set.of()),
                    java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
            RankThreads.sleep(500);
            root.close();
            assertThatThrownBy(() -> rank0.get(10, java.util.concurrent.TimeUnit.SECONDS)).cause()
                    .isInstanceOf(JcclException.class)
                    .hasMessageContaining("the bootstrap root was closed before all ranks joined (joined: 0)");
        } finally {
            root.close();
        }
    }

    private static void waitFor(IntSupplier value, int atLeast) {
        long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (value.getAsInt() < atLeast && System.nanoTime() < end) {
            RankThreads.sleep(10);
        }
        assertThat(value.getAsInt()).isGreaterThanOrEqualTo(atLeast);
    }

    @Test
    void fiveThousandIdleStrangersDoNotKeepTheRanksOut() throws Exception {
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            List<java.net.Socket> strangers = new java.util.ArrayList<>();
            try {
                // More than the root's 4,096 handshake slots, all silent: they hold every slot.
                for (int i = 0; i < 5000; i++) {
                    strangers.add(new java.net.Socket(root.id().host(), root.id().port()));
                }
                List<RankThreads.Outcome<Bootstrap>> out = RankThreads.run(2, Duration.ofSeconds(60),
                        r -> Bootstrap.init(root.id(), 2, r, LOOPBACK, Set.of()));
                closeSucceeded(out);
                for (RankThreads.Outcome<Bootstrap> o : out) {
                    assertThat(o.error()).as("a rank of the job").isNull();
                }
                assertThat(root.outcome()).isEqualTo("done");
                assertThat(root.rejectedConnections()).as("strangers pushed out of their slots").isGreaterThanOrEqualTo(5000 - 4096);
            } finally {
                for (java.net.Socket s : strangers) {
                    s.close();
                }
            }
        }
    }

    @Test
    void aRankThatCannotTakePartTellsTheRootWhichFailsEveryoneWithItsReason() throws Exception {
        try (BootstrapRoot root = BootstrapRoot.start(LOOPBACK)) {
            long t0 = System.nanoTime();
            // Ranks 0 and 1 wait at the root when rank 2 finds it cannot take part.
            List<RankThreads.Outcome<Bootstrap>> out = RankThreads.run(3, Duration.ofSeconds(60), r -> Bootstrap.init(root.id(), 3, r,
                    r == 2 ? LOOPBACK.withSocketIfname("=nosuch0").withBootstrapTimeout(Duration.ofSeconds(RankThreads.sleepThen(500, 1)))
                            : LOOPBACK, Set.of()));
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            closeSucceeded(out);
            for (int r = 0; r < 2; r++) {
                JcclException e = failure(out.get(r));
                assertThat(e.getMessage()).contains("rank 2 of 3 cannot take part").contains("'=nosuch0' matches no interface");
            }
            assertThat(failure(out.get(2)).getMessage()).contains("JCCL_SOCKET_IFNAME");
            assertThat(took).as("not the others' 20 s timeout").isLessThan(Duration.ofSeconds(10));
        }
    }
}
