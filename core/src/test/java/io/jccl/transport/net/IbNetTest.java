// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import io.jccl.Config;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@link Net} interface on the IB net, two nets of this JVM over one RDMA device: messages
 * match their receives in order with their sizes, stamps and every byte (inline, registered,
 * bounced; over several queue pairs); a send waits for its receive; a message above the posted
 * size fails naming the connection; the poller sees an arrival; a write with a key the buffer
 * did not issue changes nothing and fails both ends naming the connection. Runs on the fake libibverbs in
 * the fake-verbs JVM, or on the one {@code -Djccl.ibverbs.lib} names ({@link IbFake}).
 */
@Timeout(60)
class IbNetTest {
    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final long TAG = 42;
    private static final long SECOND = 1_000_000_000L;
    private final Arena arena = Arena.ofShared();
    private final List<Net> nets = new ArrayList<>();
    private SendComm send;
    private RecvComm recv;

    @BeforeAll
    static void needsADevice() throws Exception {
        IbFake.library();
        if (Boolean.getBoolean("jccl.test.fake.verbs.jvm")) {
            assertThat(IbFake.live()).as("the fake's counters, which each test's end checks").isNotNull();
        }
    }

    /** What the nets' listeners logged. */
    private final List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();

    private Net net(int qps) {
        Config c = Config.fromVariables(Map.of("JCCL_NET", "IB", "JCCL_IB_QPS_PER_CONNECTION", Integer.toString(qps)));
        Net n = Nets.open(c, new NetSetup(InetAddress.getLoopbackAddress(), 7, KEY, t -> "connection " + t, warnings::add));
        nets.add(n);
        assertThat(n.name()).isEqualTo("IB");
        return n;
    }

    private Net[] connected(int qps) throws IOException {
        return connected(qps, 0);
    }

    /** Two nets and a connection between them on device {@code dev} of each. */
    private Net[] connected(int qps, int dev) throws IOException {
        Net a = net(qps);
        Net b = net(qps);
        ListenComm l = b.listen(dev);
        send = a.connect(dev, l.handle(), TAG, System.nanoTime() + 10 * SECOND);
        recv = b.accept(l, System.nanoTime() + 10 * SECOND);
        assertThat(recv).isNotNull();
        assertThat(recv.tag()).isEqualTo(TAG);
        return new Net[] {a, b};
    }

    @AfterEach
    void close() {
        nets.forEach(Net::close);
        arena.close();
        IbDevice.closeShared(); // FakeVerbsTest, in this JVM too, counts live verbs objects
        String live = IbFake.live();
        if (live != null) {
            assertThat(live).as("verbs objects the nets left").isEqualTo("qp=0 mr=0 cq=0 pd=0 context=0");
        }
    }

    private static void fill(MemorySegment s, long offset, long n, int seed) {
        for (long i = 0; i < n; i++) {
            s.set(ValueLayout.JAVA_BYTE, offset + i, (byte) (i * 31 + seed));
        }
    }

    private static void check(MemorySegment s, long offset, long n, int seed) {
        for (long i = 0; i < n; i++) {
            if (s.get(ValueLayout.JAVA_BYTE, offset + i) != (byte) (i * 31 + seed)) {
                throw new AssertionError("byte " + i + " of " + n + " (seed " + seed + ")");
            }
        }
    }

    /** Tests both requests until both are done. */
    private static void both(Net a, NetRequest s, Net b, NetRequest r) throws IOException {
        long deadline = System.nanoTime() + 20 * SECOND;
        boolean sd = false;
        boolean rd = false;
        while (!(sd && rd)) {
            sd = sd || a.test(s);
            rd = rd || b.test(r);
            assertThat(System.nanoTime()).as("requests done in time").isLessThan(deadline);
        }
    }

    @Test
    void messagesArriveInOrderWithTheirSizesStampsAndBytes() throws IOException {
        // Every device (the fake's: InfiniBand, RoCE), with one queue pair and with three.
        int devices = net(1).devices();
        for (int k = 0; k < 2 * devices; k++) {
            int qps = k % 2 == 0 ? 1 : 3;
            Net[] n = connected(qps, k / 2);
            MemorySegment out = arena.allocate(1 << 20, 4096);
            MemorySegment in = arena.allocate(1 << 20, 4096);
            MemoryHandle mo = n[0].register(send, out, MemoryKind.HOST);
            MemoryHandle mi = n[1].register(recv, in, MemoryKind.HOST);
            long[] sizes = {0, 17, 4096, 100_000, 1, 65_536, 3, 250_000, 8, 12_345, 0, 777};
            for (int m = 0; m < sizes.length; m++) {
                long at = (m % 4) * 262_144L;
                fill(out, at, sizes[m], m + qps);
                NetRequest r = n[1].irecv(recv, in, at, 262_144, mi);
                NetRequest s = n[0].isend(send, out, at, sizes[m], mo, 0x3F_0000 | m);
                both(n[0], s, n[1], r);
                assertThat(r.size()).as("message " + m).isEqualTo(sizes[m]);
                assertThat(r.stamp()).isEqualTo(0x3F_0000 | m);
                check(in, at, sizes[m], m + qps);
            }
            n[0].deregister(mo);
            n[1].deregister(mi);
            n[0].closeSend(send, System.nanoTime() + SECOND);
            n[1].closeRecv(recv);
        }
    }

    @Test
    void aSendWaitsForItsReceiveAndUnregisteredBytesAreCopied() throws IOException {
        Net[] n = connected(1);
        MemorySegment out = arena.allocate(200_000, 4096);
        MemorySegment in = arena.allocate(200_000, 4096);
        MemoryHandle mi = n[1].register(recv, in, MemoryKind.HOST);
        fill(out, 5, 150_000, 9);
        NetRequest s = n[0].isend(send, out, 5, 150_000, null, 7);
        for (int i = 0; i < 100; i++) {
            assertThat(n[0].test(s)).as("sent before the receive was posted").isFalse();
        }
        fill(out, 5, 150_000, 10); // the bounce copy was made at isend: this does not travel
        NetRequest r = n[1].irecv(recv, in, 0, 200_000, mi);
        both(n[0], s, n[1], r);
        assertThat(r.size()).isEqualTo(150_000);
        assertThat(r.stamp()).isEqualTo(7);
        check(in, 0, 150_000, 9);
    }

    @Test
    void requestsAreTheCommsOwnAndFlowControlHoldsTheRest() throws IOException {
        Net[] n = connected(2);
        MemorySegment out = arena.allocate(64 * 16, 64);
        MemorySegment in = arena.allocate(64 * 16, 64);
        MemoryHandle mo = n[0].register(send, out, MemoryKind.HOST);
        MemoryHandle mi = n[1].register(recv, in, MemoryKind.HOST);
        int max = n[0].properties(0).maxRequests();
        List<NetRequest> sends = new ArrayList<>();
        for (int m = 0; m < max; m++) {
            fill(out, m * 64L, 64, m);
            sends.add(n[0].isend(send, out, m * 64L, 64, mo, m));
        }
        assertThat(sends).doesNotContainNull();
        assertThat(n[0].isend(send, out, 0, 64, mo, 0)).as("all requests in flight").isNull();
        List<NetRequest> recvs = new ArrayList<>();
        for (int m = 0; m < max; m++) {
            recvs.add(n[1].irecv(recv, in, m * 64L, 64, mi));
        }
        assertThat(n[1].irecv(recv, in, 0, 64, mi)).isNull();
        try (NetPoller p = n[1].poller()) {
            p.add(recv);
            assertThat(p.await(10 * SECOND)).as("the poller sees the arrivals").isTrue();
            for (int m = 0; m < max; m++) {
                both(n[0], sends.get(m), n[1], recvs.get(m));
                assertThat(recvs.get(m).size()).isEqualTo(64);
                assertThat(recvs.get(m).stamp()).isEqualTo(m);
                check(in, m * 64L, 64, m);
            }
            p.remove(recv);
        }
    }

    @Test
    void aMessageAboveThePostedSizeFailsNamingTheConnection() throws IOException {
        Net[] n = connected(1);
        MemorySegment out = arena.allocate(8192, 4096);
        MemorySegment in = arena.allocate(8192, 4096);
        MemoryHandle mo = n[0].register(send, out, MemoryKind.HOST);
        MemoryHandle mi = n[1].register(recv, in, MemoryKind.HOST);
        n[1].irecv(recv, in, 0, 100, mi);
        long deadline = System.nanoTime() + 10 * SECOND;
        assertThatThrownBy(() -> {
            // isend writes at once when the receive is posted already; else test does.
            NetRequest s = n[0].isend(send, out, 0, 101, mo, 0);
            while (System.nanoTime() < deadline) {
                n[0].test(s);
            }
        }).isInstanceOf(IOException.class).hasMessage("connection 42: message 0 of 101 bytes, beyond the 100 bytes the receiver posted");
        assertThatThrownBy(() -> n[1].irecv(recv, in, 0, 10, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("registered");
        assertThatThrownBy(() -> n[0].register(send, out, MemoryKind.CUDA)).isInstanceOf(IOException.class)
                .hasMessageContaining("host memory only");
    }

    /**
     * A connected sender whose clear-to-send slot carries a key it must not write with (one
     * nobody issued, one of a registration released, the right one beyond its registration):
     * nothing lands, the sender's write fails with a remote access error, and the receiver, whose
     * queue pair the refused write put in error, fails too; both name the connection.
     */
    @Test
    void aWriteWithoutTheBuffersKeyChangesNothingAndFailsBothEndsNamingTheConnection() throws IOException {
        for (String wrong : new String[] {"a key nobody issued", "a released registration's key", "beyond its registration"}) {
            Net[] n = connected(1);
            MemorySegment out = arena.allocate(4096, 4096);
            MemorySegment in = arena.allocate(3 * 4096, 4096);
            fill(out, 0, 4096, 3);
            MemoryHandle mo = n[0].register(send, out, MemoryKind.HOST);
            MemoryHandle mi = n[1].register(recv, in.asSlice(0, 2 * 4096), MemoryKind.HOST);
            int rkey = ((IbMemory) mi).entry.rkey();
            MemorySegment target;
            if (wrong.equals("a key nobody issued")) {
                target = in;
                rkey ^= 0x5a5a_5a5a;
            } else if (wrong.equals("a released registration's key")) {
                target = arena.allocate(4096, 4096);
                MemoryHandle released = n[1].register(recv, target, MemoryKind.HOST);
                rkey = ((IbMemory) released).entry.rkey();
                n[1].deregister(released);
            } else {
                target = in.asSlice(2 * 4096); // the page after the registered two
            }
            NetRequest r = n[1].irecv(recv, in, 0, 4096, mi);
            // The receiver's clear-to-send write has filled slot 0 of the sender's FIFO: overwrite it.
            IbConnInfo fifo = ((IbSendComm) send).info();
            MemorySegment slots = MemorySegment.ofAddress(fifo.fifo()).reinterpret((long) IbCts.SLOT * fifo.slots());
            assertThat(IbCts.ready(slots, fifo.slots(), 0)).as("the receive's slot, filled").isTrue();
            IbCts.fill(slots, fifo.slots(), 0, target.address(), 4096, rkey);
            NetRequest s = n[0].isend(send, out, 0, 4096, mo, 5);
            assertThatThrownBy(() -> untilThrown(n[0], s)).as(wrong).isInstanceOf(IOException.class)
                    .hasMessageStartingWith("connection 42: a work completion failed: remote access error");
            assertThatThrownBy(() -> untilThrown(n[1], r)).as(wrong).isInstanceOf(IOException.class)
                    .hasMessageStartingWith("connection 42: a work completion failed: local access error");
            assertThat(target.toArray(ValueLayout.JAVA_BYTE)).as(wrong).containsOnly(0);
            assertThat(in.toArray(ValueLayout.JAVA_BYTE)).as(wrong).containsOnly(0);
            assertThatThrownBy(() -> n[0].test(s)).as("the failure sticks").isInstanceOf(IOException.class);
            n[0].deregister(mo);
            n[1].deregister(mi);
            n[0].closeSend(send, System.nanoTime() + SECOND);
            n[1].closeRecv(recv);
        }
    }

    /** Tests {@code r} until it throws (or 10 s passed). */
    private static void untilThrown(Net net, NetRequest r) throws IOException {
        long deadline = System.nanoTime() + 10 * SECOND;
        while (System.nanoTime() < deadline) {
            net.test(r);
        }
    }

    @Test
    void peersThatDisagreeOnQueuePairsFailNamingTheSetting() throws Exception {
        Net a = net(2);
        Net b = net(1);
        ListenComm l = b.listen(0);
        assertThatThrownBy(() -> a.connect(0, l.handle(), TAG, System.nanoTime() + 10 * SECOND)).isInstanceOf(IOException.class)
                .hasMessageStartingWith("the receiver of connection 42 at ").hasMessageContaining("refused the IB handshake")
                .hasMessageContaining("JCCL_IB_QPS_PER_CONNECTION");
        assertThat(b.accept(l, System.nanoTime() + SECOND / 10)).isNull();
        long deadline = System.nanoTime() + 10 * SECOND;
        while (warnings.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(warnings).singleElement().asString().contains("dropped a connection from ")
                .endsWith("connection 42: the peer has 2 queue pairs per connection, this rank 1 (JCCL_IB_QPS_PER_CONNECTION must agree)");
    }
}
