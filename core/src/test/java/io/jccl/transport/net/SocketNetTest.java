// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@link Net} interface on the socket net, over loopback: posted sends and receives match in
 * order with their sizes, across {@code K} sockets; a receive posted late still gets its message;
 * a message above the posted size is refused naming the connection; requests are a comm's own and
 * reused; a close with END is no loss, a close without is; the poller wakes on arrival.
 */
@Timeout(30)
class SocketNetTest {
    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final long TAG = 42;
    private static final long SECOND = 1_000_000_000L;
    private final Arena arena = Arena.ofShared();
    private final List<Net> nets = new ArrayList<>();
    private SendComm send;
    private RecvComm recv;

    private Net net(int threads, int socks) {
        Net n = new SocketNet(new NetSetup(InetAddress.getLoopbackAddress(), 7, KEY, t -> "connection " + t, w -> { }), threads, socks);
        nets.add(n);
        return n;
    }

    /** A sending net and a receiving net, and one connection from the first to the second. */
    private Net[] connected(int threads, int socks) throws IOException {
        Net a = net(threads, socks);
        Net b = net(threads, socks);
        ListenComm l = b.listen(0);
        send = a.connect(0, l.handle(), TAG, System.nanoTime() + 5 * SECOND);
        recv = b.accept(l, System.nanoTime() + 5 * SECOND);
        assertThat(recv).isNotNull();
        assertThat(recv.tag()).isEqualTo(TAG);
        return new Net[] {a, b};
    }

    @AfterEach
    void close() {
        nets.forEach(Net::close);
        arena.close();
    }

    private static void until(Net net, NetRequest r) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 5 * SECOND;
        while (!net.test(r)) {
            assertThat(System.nanoTime()).as("done within 5 s").isLessThan(deadline);
            Thread.sleep(0, 100_000);
        }
    }

    private MemorySegment filled(long n, int seed) {
        MemorySegment s = arena.allocate(Math.max(1, n));
        for (long i = 0; i < n; i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) (seed * 13 + i * 7 + (i >> 16)));
        }
        return s;
    }

    @Test
    void chunksFollowNcclsSplit() {
        assertThat(SocketFrames.chunks(0, 4)).isEqualTo(1);
        assertThat(SocketFrames.chunks(65536, 4)).isEqualTo(1);
        assertThat(SocketFrames.chunks(65537, 4)).isEqualTo(2);
        assertThat(SocketFrames.chunkLength(65537, 4, 1)).isEqualTo(1);
        assertThat(SocketFrames.chunks(1 << 20, 4)).isEqualTo(4);
        assertThat(SocketFrames.chunkLength(1 << 20, 4, 3)).isEqualTo(1 << 18);
        assertThat(SocketFrames.chunks((1 << 20) + 1, 4)).isEqualTo(4);
        assertThat(SocketFrames.chunkLength((1 << 20) + 1, 4, 3)).isEqualTo((1 << 20) + 1 - 3 * ((1 << 18) + 1));
        assertThat(SocketFrames.chunkLength(100, 1, 0)).isEqualTo(100);
        assertThat(SocketFrames.chunkLength(100, 1, 1)).isZero();
    }

    @Test
    void aDeviceOfHostMemory() throws IOException {
        Net n = net(2, 3);
        assertThat(n.name()).isEqualTo("Socket");
        assertThat(n.devices()).isEqualTo(1);
        assertThat(n.proxyThreads()).isEqualTo(2);
        NetProperties p = n.properties(0);
        assertThat(p.memory()).containsExactly(MemoryKind.HOST);
        assertThat(p.speedMbps()).isPositive();
        assertThat(p.maxRequests()).isGreaterThanOrEqualTo(8);
        Net[] pair = connected(1, 1);
        assertThatThrownBy(() -> pair[0].register(send, arena.allocate(64), MemoryKind.CUDA))
                .isInstanceOf(IOException.class).hasMessageContaining("host memory only");
    }

    @ParameterizedTest(name = "{0} x {1} sockets")
    @CsvSource({"1, 1", "2, 2", "1, 3"})
    void sendsFillReceivesInOrderWithTheirSizesAndStamps(int threads, int socks) throws Exception {
        Net[] pair = connected(threads, socks);
        long[] sizes = {0, 1, 65536, 65537, 3 * 65536 + 5, 1 << 20, 7};
        long max = 1 << 20;
        // Receives into one registered region, a slot per message; sends from registered and unregistered memory.
        MemorySegment into = arena.allocate(max * sizes.length);
        MemoryHandle in = pair[1].register(recv, into, MemoryKind.HOST);
        NetRequest[] rs = new NetRequest[sizes.length];
        for (int m = 0; m < sizes.length; m++) {
            rs[m] = pair[1].irecv(recv, into, m * max, max, in);
            assertThat(rs[m]).isNotNull();
        }
        // The sending comm is this thread's, the receiving one the test's.
        Thread sender = Thread.ofPlatform().start(() -> {
            try {
                for (int m = 0; m < sizes.length; m++) {
                    MemorySegment from = filled(sizes[m], m);
                    MemoryHandle out = m % 2 == 0 ? pair[0].register(send, from, MemoryKind.HOST) : null;
                    // Each message stamped, the largest stamp among them (22 bits).
                    NetRequest r = pair[0].isend(send, from, 0, sizes[m], out, m == 3 ? 0x3F_FFFF : m);
                    assertThat(r).isNotNull();
                    until(pair[0], r);
                    assertThat(r.size()).isEqualTo(sizes[m]);
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        for (int m = 0; m < sizes.length; m++) {
            until(pair[1], rs[m]);
            assertThat(rs[m].size()).as("size of message " + m).isEqualTo(sizes[m]);
            assertThat(rs[m].stamp()).as("stamp of message " + m).isEqualTo(m == 3 ? 0x3F_FFFF : m);
            MemorySegment want = filled(sizes[m], m);
            assertThat(into.asSlice(m * max, sizes[m]).mismatch(want.asSlice(0, sizes[m]))).as("message " + m).isEqualTo(-1);
        }
        sender.join(5000);
    }

    @Test
    void aReceivePostedLateGetsItsMessage() throws Exception {
        Net[] pair = connected(1, 2);
        for (int m = 0; m < 3; m++) {
            until(pair[0], pair[0].isend(send, filled(1000 + m, m), 0, 1000 + m, null, 0));
        }
        MemorySegment into = arena.allocate(4096);
        for (int m = 0; m < 3; m++) {
            Thread.sleep(20);
            NetRequest r = pair[1].irecv(recv, into, 0, 4096, null);
            until(pair[1], r);
            assertThat(r.size()).isEqualTo(1000 + m);
            assertThat(into.asSlice(0, r.size()).mismatch(filled(1000 + m, m))).isEqualTo(-1);
        }
    }

    @Test
    void aMessageAboveThePostedSizeIsRefusedNamingTheConnection() throws Exception {
        Net[] pair = connected(1, 1);
        until(pair[0], pair[0].isend(send, filled(100, 1), 0, 100, null, 0));
        NetRequest r = pair[1].irecv(recv, arena.allocate(64), 0, 50, null);
        assertThatThrownBy(() -> until(pair[1], r)).isInstanceOf(IOException.class)
                .hasMessageContaining("connection 42").hasMessageContaining("message 0 of 100 bytes, beyond the 50 bytes posted");
    }

    @Test
    void requestsAreTheCommsOwnAndReused() throws Exception {
        Net[] pair = connected(1, 1);
        int n = pair[1].properties(0).maxRequests();
        MemorySegment into = arena.allocate(64);
        List<NetRequest> first = new ArrayList<>();
        for (int m = 0; m < n; m++) {
            first.add(pair[1].irecv(recv, into, 0, 64, null));
        }
        assertThat(first).doesNotContainNull().doesNotHaveDuplicates();
        assertThat(pair[1].irecv(recv, into, 0, 64, null)).as("no request free").isNull();
        until(pair[0], pair[0].isend(send, filled(8, 0), 0, 8, null, 0));
        until(pair[1], first.getFirst());
        assertThat(pair[1].irecv(recv, into, 0, 64, null)).as("the first, free again").isSameAs(first.getFirst());
    }

    @Test
    void aCloseWithEndIsNoLossButOneWithoutIs() throws Exception {
        Net[] pair = connected(1, 2);
        NetRequest r = pair[1].irecv(recv, arena.allocate(64), 0, 64, null);
        pair[0].closeSend(send, System.nanoTime() + SECOND);
        for (int i = 0; i < 20; i++) {
            assertThat(pair[1].test(r)).as("nothing more comes, and that is no failure").isFalse();
            Thread.sleep(5);
        }
        // A sender whose net closes under it ends nothing: its receiver lost it.
        ListenComm l = pair[1].listen(0);
        SendComm again = pair[0].connect(0, l.handle(), TAG + 1, System.nanoTime() + 5 * SECOND);
        RecvComm other = pair[1].accept(l, System.nanoTime() + 5 * SECOND);
        assertThat(again).isNotNull();
        NetRequest lost = pair[1].irecv(other, arena.allocate(64), 0, 64, null);
        pair[0].close();
        assertThatThrownBy(() -> until(pair[1], lost)).isInstanceOf(IOException.class)
                .hasMessageContaining("the connection was closed").hasMessageContaining("connection 43");
    }

    @Test
    void thePollerWakesWhenAFrameArrives() throws Exception {
        Net[] pair = connected(1, 1);
        try (NetPoller p = pair[1].poller()) {
            p.add(recv);
            NetRequest r = pair[1].irecv(recv, arena.allocate(64), 0, 64, null);
            assertThat(pair[1].test(r)).isFalse();
            long t0 = System.nanoTime();
            assertThat(p.await(50_000_000)).as("nothing came").isFalse();
            assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(40_000_000);
            Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(50);
                    pair[0].test(pair[0].isend(send, filled(8, 3), 0, 8, null, 0));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            t0 = System.nanoTime();
            assertThat(p.await(5 * SECOND)).as("the frame woke it").isTrue();
            assertThat(System.nanoTime() - t0).isLessThan(3 * SECOND);
            until(pair[1], r);
            assertThat(r.size()).isEqualTo(8);
            Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
                p.wakeup();
            });
            t0 = System.nanoTime();
            p.await(5 * SECOND);
            assertThat(System.nanoTime() - t0).as("wakeup ended the wait").isLessThan(3 * SECOND);
        }
    }

    @Test
    void strangersAreClosedForgottenAndLoggedSparingly() throws Exception {
        List<String> warnings = new CopyOnWriteArrayList<>();
        SocketNet b = new SocketNet(new NetSetup(InetAddress.getLoopbackAddress(), 7, KEY, t -> "connection " + t, warnings::add), 1, 1);
        nets.add(b);
        ListenComm l = b.listen(0);
        String[] hostPort = new String(l.handle().bytes(), StandardCharsets.US_ASCII).split(" ");
        byte[] garbage = new byte[SocketHeader.BYTES + SocketHeader.MAC_BYTES];
        java.util.Arrays.fill(garbage, (byte) 0x5A);
        List<Socket> strangers = new ArrayList<>();
        try {
            for (int i = 0; i < 300; i++) {
                Socket s = new Socket(hostPort[0], Integer.parseInt(hostPort[1]));
                s.getOutputStream().write(garbage);
                strangers.add(s);
            }
            for (Socket s : strangers) {
                s.setSoTimeout(10_000);
                assertThat(s.getInputStream().read()).as("the listener closed the stranger's socket").isEqualTo(-1);
            }
        } finally {
            for (Socket s : strangers) {
                s.close();
            }
        }
        long until = System.nanoTime() + 5 * SECOND;
        while (b.looseSockets() > 0 && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertThat(b.looseSockets()).as("refused sockets are forgotten").isZero();
        // 300 refusals in well under a few seconds: a line a second at most, the first naming the address.
        assertThat(warnings).isNotEmpty().hasSizeLessThanOrEqualTo(5);
        assertThat(warnings.getFirst()).startsWith("dropped a connection from /127.0.0.1:")
                .contains("not a connection of this communicator");
        // The listener still serves its own.
        Net a = net(1, 1);
        send = a.connect(0, l.handle(), TAG, System.nanoTime() + 5 * SECOND);
        assertThat(b.accept(l, System.nanoTime() + 5 * SECOND)).isNotNull();
    }
}
