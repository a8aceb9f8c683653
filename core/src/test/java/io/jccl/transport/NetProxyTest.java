package io.jccl.transport;

import io.jccl.Config;
import io.jccl.bootstrap.PeerInfo;
import io.jccl.proto.Protocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The socket transport between two "hosts" that are two domains of this JVM, each believing the
 * other rank is on another host: messages of every protocol cross a real loopback connection, and
 * strangers at a listener (garbage, a wrong token, impossible ranks) are dropped while the
 * connection goes on; an authentic sender's oversized frame aborts the receiver naming the sender.
 */
@Timeout(30)
class NetProxyTest {
    private static final InetAddress LO = InetAddress.getLoopbackAddress();
    private static final long COMM = 0x1234_5678_9abcL;
    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private final List<Side> sides = new ArrayList<>();

    private static PeerInfo info(int rank, String host) {
        return new PeerInfo(rank, host, host, 1000 + rank, 77 + rank, 5, new InetSocketAddress(LO, 1), List.of(LO), Set.of());
    }

    /** One "host" of the test: its rank's FIFOs and the proxy, failing as an engine's domain does (the first cause is kept). */
    static final class Side implements NetOwner {
        final Config config;
        final Arena arena = Arena.ofShared();
        final HostFifos fifos;
        final NetProxy proxy;
        private volatile String cause;
        private volatile int lost = -1;

        /** Rank {@code local}'s process: rank 0 on host A, rank 1 on host B; {@code threads} × {@code socks} sockets per connection. */
        Side(int local, int threads, int socks) {
            List<PeerInfo> peers = List.of(info(0, "A"), info(1, "B"));
            config = Config.defaults().withTimeout(Duration.ofSeconds(10)).withSockets(threads, socks);
            PeerProcesses where = new PeerProcesses(COMM, peers, peers.get(local));
            fifos = new HostFifos(2, config, where, r -> arena, null);
            proxy = fifos.net(() -> new NetProxy(this, config, where, LO, COMM, KEY, local));
        }

        @Override
        public boolean aborted() {
            return cause != null;
        }

        @Override
        public synchronized void abort(String why, int by, int lostRank) {
            if (cause == null) {
                cause = why;
                lost = lostRank;
            }
        }

        @Override
        public Fifo receiveFifo(Protocol protocol, int channel, int from, int to) {
            return fifos.receiving(protocol, channel, from, to);
        }

        Fifo fifo(Protocol protocol, int channel, int from, int to) {
            return fifos.receiving(protocol, channel, from, to);
        }

        String abortCause() {
            return cause;
        }

        int lostRank() {
            return lost;
        }
    }

    private Side domain(int local, int threads, int socks) {
        Side s = new Side(local, threads, socks);
        sides.add(s);
        return s;
    }

    private Side domain(int local) {
        return domain(local, 1, 1);
    }

    @AfterEach
    void close() {
        for (Side s : sides) {
            s.proxy.close();
        }
        for (Side s : sides) {
            s.fifos.finish(0);
            s.fifos.finish(1);
            s.arena.close();
        }
    }

    private static void await(java.util.function.BooleanSupplier cond) throws InterruptedException {
        long until = System.nanoTime() + 5_000_000_000L;
        while (!cond.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 5 s").isLessThan(until);
            Thread.sleep(1);
        }
    }

    static Stream<Arguments> protocolsAndSockets() {
        return Stream.of(Protocol.values()).flatMap(p -> Stream.of(Arguments.of(p, 1, 1), Arguments.of(p, 2, 2), Arguments.of(p, 1, 3)));
    }

    @ParameterizedTest
    @MethodSource("protocolsAndSockets")
    void messagesCrossTheConnectionInOrderCutIntoChunks(Protocol protocol, int threads, int socks) throws Exception {
        Side a = domain(0, threads, socks);
        Side b = domain(1, threads, socks);
        NetProxy pa = sides.get(0).proxy;
        pa.setAddress(1, sides.get(1).proxy.address());
        Fifo out = a.fifo(protocol, 3, 0, 1);
        long max = protocol.maxMessageBytes(protocol.buffSize(a.config));
        // Empty, one chunk, exactly 64 KiB, one byte more (two chunks), every socket, the largest message.
        long[] sizes = {0, 1, 8, 1000, 65536, 65537, 3 * 65536 + 5, max};
        int messages = 40;
        Thread writer = Thread.ofPlatform().start(() -> {
            for (int m = 0; m < messages; m++) {
                long n = Math.min(max, sizes[m % sizes.length]);
                while (!out.hasRoom()) {
                    Thread.onSpinWait();
                }
                MemorySegment src = out.sendSegment();
                long at = out.sendOffset();
                for (long i = 0; i < n; i++) {
                    src.set(ValueLayout.JAVA_BYTE, at + i, (byte) (m * 31 + i * 7 + (i >> 16)));
                }
                out.send(src, at, n, false);
            }
        });
        Fifo in = b.fifo(protocol, 3, 0, 1);
        for (int m = 0; m < messages; m++) {
            long n = Math.min(max, sizes[m % sizes.length]);
            await(in::hasData);
            assertThat(in.recvSize()).isEqualTo(n);
            MemorySegment got = in.recvSegment();
            long at = in.recvOffset();
            for (long i = 0; i < n; i++) {
                byte want = (byte) (m * 31 + i * 7 + (i >> 16));
                if (got.get(ValueLayout.JAVA_BYTE, at + i) != want) {
                    assertThat(got.get(ValueLayout.JAVA_BYTE, at + i)).as("message " + m + " byte " + i).isEqualTo(want);
                }
            }
            in.release();
        }
        writer.join(5000);
        assertThat(a.aborted()).as(a.abortCause()).isFalse();
        assertThat(b.aborted()).as(b.abortCause()).isFalse();
    }

    @Test
    void chunksFollowNcclsSplit() {
        assertThat(NetProxy.chunks(0, 4)).isEqualTo(1);
        assertThat(NetProxy.chunks(65536, 4)).isEqualTo(1);
        assertThat(NetProxy.chunks(65537, 4)).isEqualTo(2);
        assertThat(NetProxy.chunkLength(65537, 4, 1)).isEqualTo(1);
        assertThat(NetProxy.chunks(1 << 20, 4)).isEqualTo(4);
        assertThat(NetProxy.chunkLength(1 << 20, 4, 3)).isEqualTo(1 << 18);
        assertThat(NetProxy.chunks((1 << 20) + 1, 4)).isEqualTo(4);
        assertThat(NetProxy.chunkLength((1 << 20) + 1, 4, 3)).isEqualTo((1 << 20) + 1 - 3 * ((1 << 18) + 1));
        assertThat(NetProxy.chunkLength(100, 1, 0)).isEqualTo(100);
        assertThat(NetProxy.chunkLength(100, 1, 1)).isZero();
    }

    /** A connection header as a sender writes it, with its MAC under {@code key}. */
    private static byte[] header(long comm, byte[] key, int proto, int channel, int from, int to, int index, int count) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(NetProxy.HEADER + NetProxy.MAC_BYTES).putInt(NetProxy.MAGIC).putLong(comm).putInt(proto)
                .putInt(channel).putInt(from).putInt(to).putInt(index).putInt(count);
        javax.crypto.Mac m = javax.crypto.Mac.getInstance("HmacSHA256");
        m.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
        m.update(b.array(), 0, NetProxy.HEADER);
        return b.put(m.doFinal(), 0, NetProxy.MAC_BYTES).array();
    }

    private static byte[] header(int proto, int from, int to) throws Exception {
        return header(COMM, KEY, proto, 0, from, to, 0, 1);
    }

    private static byte[] frame(long seq, long size, long length) {
        return ByteBuffer.allocate(NetProxy.FRAME).putLong(seq).putInt((int) size).putInt((int) length).array();
    }

    @Test
    void strangersAreDropped() throws Exception {
        Side b = domain(1);
        InetSocketAddress at = sides.getFirst().proxy.address();
        byte[] forged = header(0, 0, 1);
        forged[forged.length - 1] ^= 1;
        byte[][] strangers = {
            "GET / HTTP/1.1\r\nHost: x\r\n\r\n".repeat(3).getBytes(StandardCharsets.US_ASCII),
            header(COMM, "another key, not this one's 32 b".getBytes(StandardCharsets.US_ASCII), 0, 0, 0, 1, 0, 1),
            forged,
            header(COMM + 1, KEY, 0, 0, 0, 1, 0, 1),
            header(0, 1, 1),                          // from this process: not a connection over sockets
            header(0, 0, 7),                          // no such rank
            header(9, 0, 1),                          // no such protocol
            header(COMM, KEY, 0, 0, 0, 1, 2, 2),      // socket 2 of 2
            header(COMM, KEY, 0, 0, 0, 1, 0, 65),     // more sockets than NCCL's 64
        };
        for (byte[] s : strangers) {
            try (Socket sock = new Socket(at.getAddress(), at.getPort())) {
                sock.getOutputStream().write(s);
                sock.getOutputStream().flush();
                sock.setSoTimeout(5000);
                int got;
                try {
                    got = sock.getInputStream().read();
                } catch (java.net.SocketException e) {
                    got = -1; // closed with our bytes unread: a reset
                }
                assertThat(got).as("dropped").isEqualTo(-1);
            }
        }
        // The same socket of one connection twice: the second is dropped, the first stays.
        try (Socket first = new Socket(at.getAddress(), at.getPort()); Socket again = new Socket(at.getAddress(), at.getPort())) {
            first.getOutputStream().write(header(COMM, KEY, 0, 2, 0, 1, 0, 2));
            first.getOutputStream().flush();
            Thread.sleep(100);
            again.getOutputStream().write(header(COMM, KEY, 0, 2, 0, 1, 0, 2));
            again.getOutputStream().flush();
            again.setSoTimeout(5000);
            assertThat(again.getInputStream().read()).isEqualTo(-1);
        }
        assertThat(b.aborted()).isFalse();
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            o.writeBytes(p);
        }
        return o.toByteArray();
    }

    @Test
    void anEndFrameClosesQuietlyButASilentCloseIsALoss() throws Exception {
        Side b = domain(1);
        InetSocketAddress at = sides.getFirst().proxy.address();
        try (Socket sock = new Socket(at.getAddress(), at.getPort())) {
            OutputStream o = sock.getOutputStream();
            o.write(header(Protocol.SIMPLE.ordinal(), 0, 1));
            o.write(frame(0, 8, 8));
            o.write(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
            o.write(frame(NetProxy.END, 0, 0));
        }
        Fifo in = b.fifo(Protocol.SIMPLE, 0, 0, 1);
        await(in::hasData);
        assertThat(in.recvSize()).isEqualTo(8);
        assertThat(in.recvSegment().get(ValueLayout.JAVA_BYTE, in.recvOffset() + 7)).isEqualTo((byte) 8);
        Thread.sleep(200);
        assertThat(b.aborted()).as("the close after END is no loss").isFalse();
        // Another connection closes without END: its peer is lost.
        try (Socket sock = new Socket(at.getAddress(), at.getPort())) {
            sock.getOutputStream().write(header(Protocol.LL.ordinal(), 0, 1));
        }
        await(b::aborted);
        assertThat(b.abortCause()).contains("rank 1 lost its connection with rank 0").contains("the connection was closed");
    }

    /** What an authentic LL sender (one socket) might send after its header, and what the abort must say. */
    static Stream<Arguments> badFrames() {
        int ll = (int) Protocol.LL.maxMessageBytes(Protocol.LL.buffSize(Config.defaults()));
        return Stream.of(
                Arguments.of("a size no slot holds", frame(0, Integer.MAX_VALUE, 8), "beyond"),
                Arguments.of("a size read as unsigned, never negative", frame(0, 0xFFFF_FFFFL, 8), "beyond"),
                Arguments.of("one byte beyond the largest message", frame(0, ll + 1, ll + 1), "beyond"),
                Arguments.of("a length that disagrees with the size", frame(0, 100, 99), "a chunk of 99 bytes"),
                Arguments.of("not the next message", frame(5, 100, 100), "skips"),
                Arguments.of("a number before the first", frame(-1, 100, 100), "after message"),
                Arguments.of("an end frame that announces bytes", frame(NetProxy.END, 8, 8), "after message"),
                Arguments.of("the largest message, then its number again",
                        concat(frame(0, ll, ll), new byte[ll], frame(0, 8, 8)), "after message"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badFrames")
    void aBadFrameAbortsTheReceiverNamingTheSender(String what, byte[] frames, String why) throws Exception {
        Side b = domain(1);
        InetSocketAddress at = sides.getFirst().proxy.address();
        try (Socket sock = new Socket(at.getAddress(), at.getPort())) {
            OutputStream o = sock.getOutputStream();
            o.write(header(Protocol.LL.ordinal(), 0, 1));
            o.write(frames);
            o.flush();
            await(b::aborted);
        }
        assertThat(b.abortCause()).contains("rank 1 lost its connection with rank 0").contains(why);
        assertThat(b.lostRank()).isZero();
    }
}
