// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.Config;
import io.jccl.bootstrap.PeerInfo;
import io.jccl.proto.Protocol;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One "host" of the proxy's tests: rank {@code local} of two (rank 0 on host A, rank 1 on host B),
 * its FIFOs and its proxy, failing as an engine's domain does (the first cause is kept); and the
 * messages those tests send, whose every byte the receiver checks.
 */
final class NetSide implements NetOwner, AutoCloseable {
    static final InetAddress LO = InetAddress.getLoopbackAddress();
    static final long COMM = 0x1234_5678_9abcL;

    /** How a test makes a side's proxy. */
    interface Proxies {
        NetProxy make(NetOwner owner, Config config, PeerProcesses where, int local);
    }

    final Config config;
    final Arena arena = Arena.ofShared();
    final HostFifos fifos;
    final NetProxy proxy;
    private volatile String cause;
    private volatile int lost = -1;

    NetSide(int local, Config config, Proxies proxies) {
        List<PeerInfo> peers = List.of(info(0, "A"), info(1, "B"));
        this.config = config;
        PeerProcesses where = new PeerProcesses(COMM, peers, peers.get(local));
        fifos = new HostFifos(2, config, where, r -> arena, null);
        proxy = fifos.net(() -> proxies.make(this, config, where, local));
    }

    /** The tests' settings: a 10 s timeout, {@code threads} × {@code socks} sockets per connection. */
    static Config config(int threads, int socks) {
        return Config.defaults().withTimeout(Duration.ofSeconds(10)).withSockets(threads, socks);
    }

    private static PeerInfo info(int rank, String host) {
        return new PeerInfo(rank, host, host, 1000 + rank, 77 + rank, 5, new InetSocketAddress(LO, 1), List.of(LO), Set.of());
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

    @Override
    public void close() {
        proxy.close();
        fifos.finish(0);
        fifos.finish(1);
        arena.close();
    }

    static void await(BooleanSupplier cond) throws InterruptedException {
        long until = System.nanoTime() + 5_000_000_000L;
        while (!cond.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 5 s").isLessThan(until);
            Thread.sleep(1);
        }
    }

    /** Sizes of the test messages: empty, one chunk, exactly 64 KiB, one byte more (two chunks), four chunks, the largest. */
    static long size(int m, long max) {
        long[] sizes = {0, 1, 8, 1000, 65536, 65537, 3 * 65536 + 5, max};
        return Math.min(max, sizes[m % sizes.length]);
    }

    private static byte pattern(int m, long i) {
        return (byte) (m * 31 + i * 7 + (i >> 16));
    }

    /** A thread that sends {@code messages} test messages on {@code out}, each built in place. */
    static Thread send(Fifo out, int messages, long max) {
        return Thread.ofPlatform().start(() -> {
            for (int m = 0; m < messages; m++) {
                long n = size(m, max);
                while (!out.hasRoom()) {
                    Thread.onSpinWait();
                }
                MemorySegment src = out.sendSegment();
                long at = out.sendOffset();
                for (long i = 0; i < n; i++) {
                    src.set(ValueLayout.JAVA_BYTE, at + i, pattern(m, i));
                }
                out.send(src, at, n, false);
            }
        });
    }

    /** Receives {@code messages} test messages on {@code in}, in order, checking every byte. */
    static void expect(Fifo in, int messages, long max) throws InterruptedException {
        for (int m = 0; m < messages; m++) {
            long n = size(m, max);
            await(in::hasData);
            assertThat(in.recvSize()).as("size of message " + m).isEqualTo(n);
            MemorySegment got = in.recvSegment();
            long at = in.recvOffset();
            for (long i = 0; i < n; i++) {
                if (got.get(ValueLayout.JAVA_BYTE, at + i) != pattern(m, i)) {
                    assertThat(got.get(ValueLayout.JAVA_BYTE, at + i)).as("message " + m + " byte " + i).isEqualTo(pattern(m, i));
                }
            }
            in.release();
        }
    }
}
