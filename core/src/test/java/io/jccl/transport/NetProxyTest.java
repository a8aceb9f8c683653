// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.Config;
import io.jccl.proto.Protocol;
import io.jccl.transport.net.SocketFrames;
import io.jccl.transport.net.SocketHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.OutputStream;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The proxy over the socket net between two "hosts" that are two domains of this JVM, each
 * believing the other rank is on another host: messages of every protocol cross a real loopback
 * connection, and strangers at a listener (garbage, a wrong key, impossible connections) are
 * dropped while the connection goes on; an authentic sender's bad frame, or a close without END,
 * aborts the receiver naming the sender.
 */
@Timeout(30)
class NetProxyTest {
    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private final List<NetSide> sides = new ArrayList<>();

    private NetSide domain(int local, int threads, int socks) {
        return domain(local, NetSide.config(threads, socks));
    }

    private NetSide domain(int local, Config config) {
        NetSide s = new NetSide(local, config,
                (owner, c, where, rank) -> new NetProxy(owner, c, where, NetSide.LO, NetSide.COMM, KEY, rank));
        sides.add(s);
        return s;
    }

    private NetSide domain(int local) {
        return domain(local, 1, 1);
    }

    @AfterEach
    void close() {
        sides.forEach(NetSide::close);
    }

    static Stream<Arguments> protocolsAndSockets() {
        return Stream.of(Protocol.values()).flatMap(p -> Stream.of(Arguments.of(p, 1, 1), Arguments.of(p, 2, 2), Arguments.of(p, 1, 3)));
    }

    @ParameterizedTest
    @MethodSource("protocolsAndSockets")
    void messagesCrossTheConnectionInOrderCutIntoChunks(Protocol protocol, int threads, int socks) throws Exception {
        NetSide a = domain(0, threads, socks);
        NetSide b = domain(1, threads, socks);
        sides.get(0).proxy.setHandle(1, sides.get(1).proxy.handle());
        long max = protocol.maxMessageBytes(protocol.buffSize(a.config));
        int messages = 40;
        Thread writer = NetSide.send(a.fifo(protocol, 3, 0, 1), messages, max);
        NetSide.expect(b.fifo(protocol, 3, 0, 1), messages, max);
        writer.join(5000);
        assertThat(a.aborted()).as(a.abortCause()).isFalse();
        assertThat(b.aborted()).as(b.abortCause()).isFalse();
    }

    /**
     * With TRACE of NET each message shows in the timeline (NetTrace): posted, sent, posted for
     * and arrived, numbered in order, the sizes the sender gave, each arrival after its send on
     * the clock the two sides share; with INFO of NET there is no timeline.
     */
    @ParameterizedTest
    @ValueSource(strings = {"TRACE", "INFO"})
    void theTimelineShowsEveryMessageInOrderOnlyAtTrace(String level, @TempDir Path dir) throws Exception {
        Protocol protocol = Protocol.SIMPLE;
        Config traced = NetSide.config(1, 1).withDebug(Config.Debug.valueOf(level)).withDebugSubsys("NET");
        Path sent = dir.resolve("a.log");
        Path received = dir.resolve("b.log");
        NetSide a = domain(0, traced.withDebugFile(sent.toString()));
        NetSide b = domain(1, traced.withDebugFile(received.toString()));
        a.proxy.setHandle(1, b.proxy.handle());
        long max = protocol.maxMessageBytes(protocol.buffSize(a.config));
        int messages = 20;
        Thread writer = NetSide.send(a.fifo(protocol, 2, 0, 1), messages, max);
        NetSide.expect(b.fifo(protocol, 2, 0, 1), messages, max);
        writer.join(5000);
        // the sender's last "sent" may follow the receiver's last arrival
        NetSide.await(() -> timeline(sent, "sent").size() == messages || !level.equals("TRACE"));
        Map<String, List<long[]>> events = new HashMap<>();
        for (String e : List.of("isend", "sent")) {
            events.put(e, timeline(sent, e));
        }
        for (String e : List.of("irecv", "arrived")) {
            events.put(e, timeline(received, e));
        }
        if (level.equals("INFO")) {
            assertThat(events.values()).allSatisfy(l -> assertThat(l).isEmpty());
            assertThat(Files.readString(received)).contains("[receive] via NET/Socket");
            return;
        }
        events.forEach((e, l) -> {
            if (e.equals("irecv")) {
                // receives are posted ahead into every free slot: up to STEPS beyond the last message
                assertThat(l.size()).as(e).isBetween(messages, messages + Protocol.STEPS);
            } else {
                assertThat(l).as(e).hasSize(messages);
            }
        });
        for (int m = 0; m < messages; m++) {
            long[] isend = events.get("isend").get(m);
            long[] done = events.get("sent").get(m);
            long[] arrived = events.get("arrived").get(m);
            assertThat(new long[] {isend[1], done[1], events.get("irecv").get(m)[1], arrived[1]}).as("message numbers")
                    .containsOnly(m);
            assertThat(isend[2]).as("size sent of " + m).isEqualTo(NetSide.size(m, max));
            assertThat(arrived[2]).as("size arrived of " + m).isEqualTo(NetSide.size(m, max));
            assertThat(done[0]).as("sent after posted, " + m).isGreaterThanOrEqualTo(isend[0]);
            assertThat(arrived[0]).as("arrived after posted, " + m).isGreaterThanOrEqualTo(isend[0]);
        }
    }

    /** The timeline lines of {@code event} for connection Simple ch2 0->1 in {@code log}: time µs, message number, bytes. */
    private static List<long[]> timeline(Path log, String event) {
        List<long[]> out = new ArrayList<>();
        if (!Files.exists(log)) {
            return out;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(log);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        for (String line : lines) {
            int at = line.indexOf(" jccl TRACE NET timeline ");
            if (at < 0) {
                continue;
            }
            String[] f = line.substring(at + " jccl TRACE NET timeline ".length()).split(" ");
            assertThat(f).as(line).hasSize(9);
            // the test's messages carry no call's stamp
            assertThat(f[7] + " " + f[8]).as(line).isEqualTo("call 0");
            if (f[1].equals(event)) {
                assertThat(f[2] + " " + f[3] + " " + f[4]).as(line).isEqualTo("Simple ch2 0->1");
                out.add(new long[] {Long.parseLong(f[0]), Long.parseLong(f[5].substring(1)), Long.parseLong(f[6])});
            }
        }
        return out;
    }

    /** The tag of connection (protocol, channel, from, to) among the test's two ranks. */
    private static long tag(Protocol protocol, int channel, int from, int to) {
        return FifoKey.pack(protocol, channel, from, to, 2);
    }

    /** A socket's connection header as a sender writes it, with its MAC under {@code key}. */
    private static byte[] header(long comm, byte[] key, long tag, int index, int count) {
        return SocketHeader.encode(comm, key, tag, index, count);
    }

    private static byte[] header(Protocol protocol, int from, int to) {
        return header(NetSide.COMM, KEY, tag(protocol, 0, from, to), 0, 1);
    }

    private static byte[] frame(long seq, long size, long length) {
        return ByteBuffer.allocate(SocketFrames.FRAME).putLong(seq).putInt((int) size).putInt((int) length).array();
    }

    @Test
    void strangersAreDropped() throws Exception {
        NetSide b = domain(1);
        InetSocketAddress at = address(b);
        byte[] forged = header(Protocol.SIMPLE, 0, 1);
        forged[forged.length - 1] ^= 1;
        long simple01 = tag(Protocol.SIMPLE, 0, 0, 1);
        byte[][] strangers = {
            "GET / HTTP/1.1\r\nHost: x\r\n\r\n".repeat(3).getBytes(StandardCharsets.US_ASCII),
            header(NetSide.COMM, "another key, not this one's 32 b".getBytes(StandardCharsets.US_ASCII), simple01, 0, 1),
            forged,
            header(NetSide.COMM + 1, KEY, simple01, 0, 1),
            header(Protocol.SIMPLE, 1, 1),                   // to itself
            header(Protocol.SIMPLE, 1, 0),                   // to a rank of another process
            header(NetSide.COMM, KEY, -1, 0, 1),                     // no connection's tag
            header(NetSide.COMM, KEY, 3L * FifoKey.MAX_CHANNELS * 4, 0, 1), // no such protocol
            header(NetSide.COMM, KEY, simple01, 2, 2),               // socket 2 of 2
            header(NetSide.COMM, KEY, simple01, 0, 65),              // more sockets than NCCL's 64
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
            first.getOutputStream().write(header(NetSide.COMM, KEY, tag(Protocol.SIMPLE, 2, 0, 1), 0, 2));
            first.getOutputStream().flush();
            Thread.sleep(100);
            again.getOutputStream().write(header(NetSide.COMM, KEY, tag(Protocol.SIMPLE, 2, 0, 1), 0, 2));
            again.getOutputStream().flush();
            again.setSoTimeout(5000);
            assertThat(again.getInputStream().read()).isEqualTo(-1);
        }
        assertThat(b.aborted()).isFalse();
    }

    /** Where a side's listener is (the socket net's handle: "address port"). */
    private static InetSocketAddress address(NetSide s) {
        String[] hp = new String(s.proxy.handle().bytes(), StandardCharsets.US_ASCII).split(" ");
        return new InetSocketAddress(InetAddress.ofLiteral(hp[0]), Integer.parseInt(hp[1]));
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
        NetSide b = domain(1);
        InetSocketAddress at = address(b);
        try (Socket sock = new Socket(at.getAddress(), at.getPort())) {
            OutputStream o = sock.getOutputStream();
            o.write(header(Protocol.SIMPLE, 0, 1));
            o.write(frame(0, 8, 8));
            o.write(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
            o.write(frame(SocketFrames.END, 0, 0));
        }
        Fifo in = b.fifo(Protocol.SIMPLE, 0, 0, 1);
        NetSide.await(in::hasData);
        assertThat(in.recvSize()).isEqualTo(8);
        assertThat(in.recvSegment().get(ValueLayout.JAVA_BYTE, in.recvOffset() + 7)).isEqualTo((byte) 8);
        Thread.sleep(200);
        assertThat(b.aborted()).as("the close after END is no loss").isFalse();
        // Another connection closes without END: its peer is lost.
        try (Socket sock = new Socket(at.getAddress(), at.getPort())) {
            sock.getOutputStream().write(header(Protocol.LL, 0, 1));
        }
        NetSide.await(b::aborted);
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
                // Every bit set: stamp 0x3fffff, message number 2^42 - 1, not the next one.
                Arguments.of("a number with every bit set", frame(-1, 100, 100), "skips"),
                Arguments.of("an end frame that announces bytes", frame(SocketFrames.END, 8, 8), "skips"),
                Arguments.of("the largest message, then its number again",
                        concat(frame(0, ll, ll), new byte[ll], frame(0, 8, 8)), "after message"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badFrames")
    void aBadFrameAbortsTheReceiverNamingTheSender(String what, byte[] frames, String why) throws Exception {
        NetSide b = domain(1);
        InetSocketAddress at = address(b);
        try (Socket sock = new Socket(at.getAddress(), at.getPort())) {
            OutputStream o = sock.getOutputStream();
            o.write(header(Protocol.LL, 0, 1));
            o.write(frames);
            o.flush();
            NetSide.await(b::aborted);
        }
        assertThat(b.abortCause()).contains("rank 1 lost its connection with rank 0").contains(why);
        assertThat(b.lostRank()).isZero();
    }
}
