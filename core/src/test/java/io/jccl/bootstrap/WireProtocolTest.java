// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Frames, the message encoding, the handshake and the MACs, on their own. */
class WireProtocolTest {
    private static final byte[] SECRET = CommId.newSecret();

    @Test
    void framesRoundTripAndLengthsAreCheckedBeforeAllocating() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Frames.write(out, new byte[] {1, 2}, new byte[] {3});
        Frames.write(out, new byte[0]);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(out.toByteArray()));
        assertThat(Frames.read(in, 3)).containsExactly(1, 2, 3);
        assertThat(Frames.read(in, 3)).isEmpty();
        assertThatThrownBy(() -> Frames.read(in, 3)).isInstanceOf(EOFException.class);

        assertThatThrownBy(() -> Frames.read(stream(0x7f, 0xff, 0xff, 0xff), 1 << 20)).isInstanceOf(BadFrame.class)
                .hasMessageContaining("2147483647 bytes (at most 1048576)");
        assertThatThrownBy(() -> Frames.read(stream(0xff, 0xff, 0xff, 0xfe), 1 << 20)).isInstanceOf(BadFrame.class)
                .hasMessageContaining("4294967294 bytes");
        assertThatThrownBy(() -> Frames.read(stream(0, 0, 0, 5), 4)).isInstanceOf(BadFrame.class);
        assertThatThrownBy(() -> Frames.read(stream(0, 0, 0, 9, 1, 2), 16)).isInstanceOf(EOFException.class);
        assertThatThrownBy(() -> Frames.read(stream(0, 0), 16)).isInstanceOf(EOFException.class);
    }

    private static DataInputStream stream(int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return new DataInputStream(new ByteArrayInputStream(b));
    }

    @Test
    void readerBoundsEveryField() throws BadFrame {
        byte[] msg = new Wire.Writer().u8(7).i32(-5).i64(1L << 40).string("héllo").bytes(new byte[] {9})
                .address(new InetSocketAddress(InetAddress.ofLiteral("::1"), 80)).toByteArray();
        Wire.Reader r = new Wire.Reader(msg, "m");
        assertThat(r.u8()).isEqualTo(7);
        assertThat(r.i32()).isEqualTo(-5);
        assertThat(r.i64()).isEqualTo(1L << 40);
        assertThat(r.string(10)).isEqualTo("héllo");
        assertThat(r.bytes(1)).containsExactly(9);
        assertThat(r.address()).isEqualTo(new InetSocketAddress(InetAddress.ofLiteral("::1"), 80));
        r.end();

        assertThatThrownBy(() -> new Wire.Reader(new byte[] {0, 0, 0}, "m").i32()).isInstanceOf(BadFrame.class).hasMessageContaining("truncated");
        assertThatThrownBy(() -> new Wire.Reader(new Wire.Writer().string("abcdef").toByteArray(), "m").string(5))
                .isInstanceOf(BadFrame.class).hasMessageContaining("6 bytes (at most 5)");
        assertThatThrownBy(() -> new Wire.Reader(new Wire.Writer().i32(Integer.MAX_VALUE).toByteArray(), "m").bytes(Integer.MAX_VALUE))
                .isInstanceOf(BadFrame.class).hasMessageContaining("wants 2147483647 bytes, 0 left");
        assertThatThrownBy(() -> new Wire.Reader(new Wire.Writer().i32(-1).toByteArray(), "m").bytes(100))
                .isInstanceOf(BadFrame.class);
        assertThatThrownBy(() -> new Wire.Reader(new byte[] {0, 2, (byte) 0xc3, 0x28}, "m").string(10))
                .isInstanceOf(BadFrame.class).hasMessageContaining("not UTF-8");
        assertThatThrownBy(() -> new Wire.Reader(new byte[] {5, 0}, "m").address()).isInstanceOf(BadFrame.class)
                .hasMessageContaining("family 5");
        assertThatThrownBy(() -> new Wire.Reader(new byte[] {1, 2}, "m").end()).isInstanceOf(BadFrame.class)
                .hasMessageContaining("2 unexpected trailing bytes");
    }

    @Test
    void peerInfoRoundTripsAndRejectsTruncation() throws BadFrame {
        PeerInfo p = new PeerInfo(3, "boot/net:[1]", "h", 42, 7, 9, new InetSocketAddress(InetAddress.ofLiteral("127.0.0.1"), 999),
                List.of(InetAddress.ofLiteral("127.0.0.1"), InetAddress.ofLiteral("fd00::1")), Set.of("shm", "net"));
        byte[] b = p.encode();
        assertThat(PeerInfo.decode(b, "x")).isEqualTo(p);
        for (int cut = 0; cut < b.length; cut++) {
            byte[] shorter = java.util.Arrays.copyOf(b, cut);
            assertThatThrownBy(() -> PeerInfo.decode(shorter, "x")).isInstanceOf(BadFrame.class);
        }
    }

    /** A server and a client on loopback, each in its own thread, running {@code serverSide} and {@code clientSide}. */
    private static <S, C> void pair(IoFunction<Socket, S> serverSide, IoFunction<Socket, C> clientSide,
                                    IoBiConsumer<CompletableFuture<S>, CompletableFuture<C>> check) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (ServerSocket ss = new ServerSocket(0, 4, InetAddress.ofLiteral("127.0.0.1"));
             Socket c = new Socket(ss.getInetAddress(), ss.getLocalPort());
             Socket s = ss.accept()) {
            CompletableFuture<S> server = CompletableFuture.supplyAsync(() -> call(serverSide, s), pool);
            CompletableFuture<C> client = CompletableFuture.supplyAsync(() -> call(clientSide, c), pool);
            CompletableFuture.allOf(server, client).exceptionally(t -> null).get(20, TimeUnit.SECONDS);
            check.accept(server, client);
        } finally {
            pool.shutdownNow();
        }
    }

    private static <T> T call(IoFunction<Socket, T> f, Socket s) {
        try {
            return f.apply(s);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    interface IoFunction<A, B> {
        B apply(A a) throws IOException;
    }

    interface IoBiConsumer<A, B> {
        void accept(A a, B b) throws Exception;
    }

    @Test
    void handshakeWithTheSameSecretGivesAWorkingChannelBothWays() throws Exception {
        pair(s -> {
            SecureChannel ch = Handshake.accept(s, SECRET, Handshake.PEER, 10_000);
            byte[] got = ch.receive(100, 10_000);
            ch.send(new byte[] {(byte) (got[0] + 1)});
            return ch.claim();
        }, c -> {
            SecureChannel ch = Handshake.connect(c, SECRET, Handshake.PEER, new byte[] {4, 5}, 10_000);
            ch.send(new byte[] {41});
            return ch.receive(100, 10_000);
        }, (server, client) -> {
            assertThat(server.get()).containsExactly(4, 5);
            assertThat(client.get()).containsExactly(42);
        });
    }

    @Test
    void aClientWithoutTheSecretIsRefusedAndToldSo() throws Exception {
        pair(s -> Handshake.accept(s, SECRET, Handshake.ROOT, 10_000),
                c -> Handshake.connect(c, CommId.newSecret(), Handshake.ROOT, new byte[0], 10_000),
                (server, client) -> {
                    assertThat(server).isCompletedExceptionally();
                    assertThatThrownBy(server::get).hasRootCauseInstanceOf(BadFrame.class).hasRootCauseMessage(
                            "wrong proof: the client does not know the secret");
                    assertThatThrownBy(client::get).hasRootCauseInstanceOf(BadFrame.class)
                            .rootCause().hasMessageContaining("refused this side's proof");
                });
    }

    @Test
    void aServerWithoutTheSecretIsCaughtByTheClient() throws Exception {
        // A fake server that answers "ok" with a made-up proof.
        pair(s -> {
            OutputStream o = s.getOutputStream();
            Frames.write(o, new Wire.Writer().raw("JCCL".getBytes()).u8(1).u8(Handshake.ROOT).raw(new byte[32]).toByteArray());
            Frames.read(SecureChannel.input(s), 256);
            Frames.write(o, new byte[] {0}, new byte[32]);
            return 0;
        }, c -> Handshake.connect(c, SECRET, Handshake.ROOT, new byte[0], 10_000), (server, client) ->
                assertThatThrownBy(client::get).rootCause().isInstanceOf(BadFrame.class)
                        .hasMessageContaining("its proof is wrong"));
    }

    @Test
    void wrongPurposeOrVersionOrMagicIsABadFrame() throws Exception {
        pair(s -> Handshake.accept(s, SECRET, Handshake.ROOT, 500),
                c -> Handshake.connect(c, SECRET, Handshake.PEER, new byte[0], 10_000),
                (server, client) -> assertThatThrownBy(client::get).rootCause().hasMessageContaining("a root handshake where a peer one"));
        pair(s -> Handshake.accept(s, SECRET, Handshake.ROOT, 10_000), c -> {
            Frames.read(SecureChannel.input(c), 256);
            Frames.write(c.getOutputStream(), "GET / HTTP/1.1\r\n".getBytes());
            return 0;
        }, (server, client) -> assertThatThrownBy(server::get).rootCause().hasMessageContaining("wrong magic"));
    }

    /** The MAC a sealed frame carries, computed independently of SecureChannel. */
    private static byte[] mac(byte[] key, char direction, long seq, byte[] payload) {
        javax.crypto.Mac m = SecureChannel.hmac(key);
        m.update((byte) direction);
        m.update(java.nio.ByteBuffer.allocate(8).putLong(seq).array());
        return m.doFinal(payload);
    }

    @Test
    void alteredReplayedOrReflectedFramesFailTheirMac() throws Exception {
        byte[] key = CommId.newSecret();
        byte[] p = {1, 2, 3};
        byte[][][] attacks = {
                {p, mac(key, 'C', 0, p)},                       // genuine frame 0
                {p, mac(key, 'C', 0, p)},                       // replayed as frame 1
                {{1, 2, 4}, mac(key, 'C', 1, p)},               // altered payload
                {p, mac(key, 'S', 1, p)},                       // reflected: the server's own direction
        };
        for (int a = 1; a < attacks.length; a++) {
            byte[][] attack = attacks[a];
            pair(s -> {
                SecureChannel ch = new SecureChannel(s, SecureChannel.input(s), key, false, new byte[0]);
                String first = java.util.Arrays.toString(ch.receive(100, 10_000));
                try {
                    return first + " then " + java.util.Arrays.toString(ch.receive(100, 10_000));
                } catch (BadFrame e) {
                    return first + " then " + e.getMessage();
                }
            }, c -> {
                OutputStream o = c.getOutputStream();
                Frames.write(o, attacks[0][0], attacks[0][1]);
                Frames.write(o, attack[0], attack[1]);
                return 0;
            }, (server, client) -> assertThat(server.get()).isEqualTo("[1, 2, 3] then frame 1 fails its MAC (altered, replayed or not from the session)"));
        }
        // and the genuine frame 1 passes, so the checks above fail for the right reason
        pair(s -> java.util.Arrays.toString(new SecureChannel(s, SecureChannel.input(s), key, false, new byte[0]).receive(100, 10_000)),
                c -> {
                    Frames.write(c.getOutputStream(), p, mac(key, 'C', 0, p));
                    return 0;
                }, (server, client) -> assertThat(server.get()).isEqualTo("[1, 2, 3]"));
    }

    @Test
    void aFrameShorterThanItsMacIsBad() throws Exception {
        pair(s -> {
            try {
                new SecureChannel(s, SecureChannel.input(s), SECRET, false, new byte[0]).receive(100, 10_000);
                return "accepted";
            } catch (BadFrame e) {
                return e.getMessage();
            }
        }, c -> {
            Frames.write(c.getOutputStream(), new byte[5]);
            return 0;
        }, (server, client) -> assertThat(server.get()).contains("shorter than its MAC"));
    }

    @Test
    void aTimeoutBeforeAFrameIsCleanButInsideAFrameIsNot() throws Exception {
        pair(s -> {
            DataInputStream in = SecureChannel.input(s);
            s.setSoTimeout(100);
            String first;
            try {
                Frames.read(in, 100);
                first = "read";
            } catch (SocketTimeoutException e) {
                first = "clean";
            }
            s.setSoTimeout(500);
            try {
                Frames.read(in, 100);
                return first + ",read";
            } catch (SocketTimeoutException e) {
                return first + ",clean";
            } catch (IOException e) {
                return first + ",broken: " + e.getMessage();
            }
        }, c -> {
            try {
                Thread.sleep(300);
                c.getOutputStream().write(new byte[] {0, 0, 0, 10, 1});
                c.getOutputStream().flush();
                Thread.sleep(1500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 0;
        }, (server, client) -> assertThat(server.get()).isEqualTo("clean,broken: timed out inside a frame; the connection is out of step"));
    }
}
