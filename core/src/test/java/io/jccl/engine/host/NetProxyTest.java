package io.jccl.engine.host;

import io.jccl.Config;
import io.jccl.bootstrap.PeerInfo;
import io.jccl.proto.Protocol;
import io.jccl.tune.Tuner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.OutputStream;
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
    private static final byte[] TOKEN = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private final List<HostComm> comms = new ArrayList<>();
    private final List<NetProxy> proxies = new ArrayList<>();

    private static PeerInfo info(int rank, String host) {
        return new PeerInfo(rank, host, host, 1000 + rank, 77 + rank, 5, new InetSocketAddress(LO, 1), List.of(LO), Set.of());
    }

    /** The domain of {@code local}'s process: rank 0 on host A, rank 1 on host B. */
    private HostDomain domain(int local) {
        List<PeerInfo> peers = List.of(info(0, "A"), info(1, "B"));
        Config c = Config.defaults().withTimeout(Duration.ofSeconds(10));
        HostDomain d = new HostDomain(2, c, Tuner.create(c, 2, 2), new PeerProcesses(COMM, peers, peers.get(local)));
        HostComm hc = new HostComm(d, local, c);
        d.join(hc);
        comms.add(hc);
        NetProxy p = d.net(() -> new NetProxy(d, LO, COMM, TOKEN, local));
        proxies.add(p);
        return d;
    }

    @AfterEach
    void close() {
        proxies.forEach(NetProxy::close);
        comms.forEach(HostComm::close);
    }

    private static void await(java.util.function.BooleanSupplier cond) throws InterruptedException {
        long until = System.nanoTime() + 5_000_000_000L;
        while (!cond.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 5 s").isLessThan(until);
            Thread.sleep(1);
        }
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void messagesCrossTheConnectionInOrder(Protocol protocol) throws Exception {
        HostDomain a = domain(0);
        HostDomain b = domain(1);
        NetProxy pa = proxies.get(0);
        pa.setAddress(1, proxies.get(1).address());
        Fifo out = a.fifo(protocol, 3, 0, 1);
        long[] sizes = {0, 1, 8, 1000, protocol.maxMessageBytes(a.config.buffSize(protocol))};
        for (int m = 0; m < 20; m++) {
            long n = sizes[m % sizes.length];
            await(out::hasRoom);
            MemorySegment src = out.sendSegment();
            long at = out.sendOffset();
            for (long i = 0; i < n; i++) {
                src.set(ValueLayout.JAVA_BYTE, at + i, (byte) (m * 31 + i));
            }
            out.send(src, at, n, false);
        }
        Fifo in = b.fifo(protocol, 3, 0, 1);
        for (int m = 0; m < 20; m++) {
            long n = sizes[m % sizes.length];
            await(in::hasData);
            assertThat(in.recvSize()).isEqualTo(n);
            MemorySegment got = in.recvSegment();
            long at = in.recvOffset();
            for (long i = 0; i < n; i++) {
                assertThat(got.get(ValueLayout.JAVA_BYTE, at + i)).isEqualTo((byte) (m * 31 + i));
            }
            in.release();
        }
        assertThat(a.aborted()).isFalse();
        assertThat(b.aborted()).isFalse();
    }

    private static byte[] header(long comm, byte[] token, int proto, int channel, int from, int to) {
        return ByteBuffer.allocate(44).putInt(0x4a434e31).putLong(comm).put(token).putInt(proto).putInt(channel).putInt(from)
                .putInt(to).array();
    }

    @Test
    void strangersAreDroppedAndAnOversizedFrameAbortsNamingTheSender() throws Exception {
        HostDomain b = domain(1);
        InetSocketAddress at = proxies.getFirst().address();
        byte[][] strangers = {
            "GET / HTTP/1.1\r\nHost: x\r\n\r\n".repeat(3).getBytes(StandardCharsets.US_ASCII),
            header(COMM, "wrong-token-1234".getBytes(StandardCharsets.US_ASCII), 0, 0, 0, 1),
            header(COMM + 1, TOKEN, 0, 0, 0, 1),
            header(COMM, TOKEN, 0, 0, 1, 1),   // from this process: not a connection from another host
            header(COMM, TOKEN, 0, 0, 0, 7),   // no such rank
            header(COMM, TOKEN, 9, 0, 0, 1),   // no such protocol
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
        assertThat(b.aborted()).isFalse();
        // An authentic connection whose frame announces more than a message holds.
        try (Socket sock = new Socket(at.getAddress(), at.getPort())) {
            OutputStream o = sock.getOutputStream();
            o.write(header(COMM, TOKEN, Protocol.LL.ordinal(), 0, 0, 1));
            o.write(ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).array());
            o.flush();
            await(b::aborted);
        }
        assertThat(b.abortCause()).contains("rank 1 lost its connection with rank 0").contains("beyond");
        assertThat(b.lostRank()).isZero();
    }
}
