// SPDX-License-Identifier: Apache-2.0
package io.jccl.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code jccl tcpprobe}: an iperf-style measurement of one TCP stream, the yardstick of the socket
 * transport. The receiver ({@code --listen PORT}) accepts one connection, reads until the sender
 * closes, and prints what it received over the time from the first byte to the end:
 * {@code # tcp 37748736 B in 1.003 s: 301.1 Mbit/s}. The sender ({@code --connect HOST:PORT})
 * writes from a 1 MiB buffer for {@code --seconds} (retrying the connection for up to 10 s while
 * the receiver starts), then closes. Both give up after {@code --seconds} + 30 s.
 */
final class TcpProbe {
    static final String USAGE = """
            usage: jccl tcpprobe --listen PORT [--seconds S]      receive one stream, print its throughput
                   jccl tcpprobe --connect HOST:PORT [--seconds S] send for S seconds (default 2)
            The receiver prints: # tcp BYTES B in SECONDS s: MBITS Mbit/s""";
    private static final Pattern RESULT = Pattern.compile("# tcp (\\d+) B in ([0-9.]+) s: ([0-9.]+) Mbit/s");

    private TcpProbe() {
    }

    static int run(List<String> args, PrintStream out) throws IOException {
        ArgReader r = new ArgReader("tcpprobe", args);
        int listen = -1;
        String connect = null;
        double seconds = 2;
        while (r.hasNext()) {
            String o = r.option("");
            switch (o) {
                case "--listen" -> listen = r.intValue(o, 1, 65535);
                case "--connect" -> connect = r.value(o);
                case "--seconds" -> seconds = r.intValue(o, 1, 3600);
                default -> throw r.unknown(o);
            }
        }
        if ((listen < 0) == (connect == null)) {
            throw new UsageException("jccl tcpprobe: give one of --listen PORT and --connect HOST:PORT");
        }
        long limitNanos = (long) ((seconds + 30) * 1e9);
        if (listen >= 0) {
            out.println(receive(listen, limitNanos));
            return 0;
        }
        int colon = connect.lastIndexOf(':');
        if (colon <= 0) {
            throw new UsageException("jccl tcpprobe: --connect wants HOST:PORT, got '" + connect + "'");
        }
        send(new InetSocketAddress(InetAddress.getByName(connect.substring(0, colon)), Integer.parseInt(connect.substring(colon + 1))),
                (long) (seconds * 1e9), limitNanos);
        return 0;
    }

    /** Receives one stream; the result line. */
    static String receive(int port, long limitNanos) throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(port));
            Watchdog dog = Watchdog.start(server, limitNanos);
            try (SocketChannel ch = server.accept()) {
                dog.watch(ch);
                ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
                long bytes = 0;
                long first = 0;
                for (int k; (k = ch.read(buf.clear())) >= 0; ) {
                    if (first == 0 && k > 0) {
                        first = System.nanoTime();
                    }
                    bytes += k;
                }
                double s = first == 0 ? 0 : (System.nanoTime() - first) / 1e9;
                return String.format(Locale.ROOT, "# tcp %d B in %.3f s: %.1f Mbit/s", bytes, s, s == 0 ? 0 : bytes * 8 / s / 1e6);
            } finally {
                dog.cancel();
            }
        }
    }

    /** Sends for {@code nanos}, then closes the stream (the receiver's clock stops at the end of it). */
    static void send(InetSocketAddress to, long nanos, long limitNanos) throws IOException {
        SocketChannel ch = connect(to);
        Watchdog dog = Watchdog.start(ch, limitNanos);
        try (ch) {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
            long end = System.nanoTime() + nanos;
            while (System.nanoTime() < end) {
                ch.write(buf.clear());
            }
            ch.shutdownOutput();
            // Wait for the receiver to close: every byte is then read.
            ch.read(ByteBuffer.allocate(1));
        } finally {
            dog.cancel();
        }
    }

    /** Connects, retrying for up to 10 s while the receiver starts. */
    private static SocketChannel connect(InetSocketAddress to) throws IOException {
        long until = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try {
                return SocketChannel.open(to);
            } catch (IOException e) {
                if (System.nanoTime() > until) {
                    throw e;
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted");
                }
            }
        }
    }

    /** The throughput in Mbit/s a receiver printed, or NaN if {@code text} holds no result line. */
    static double mbits(String text) {
        Matcher m = RESULT.matcher(text);
        return m.find() ? Double.parseDouble(m.group(3)) : Double.NaN;
    }

    /** Closes a channel that outlives its time limit, so that no probe hangs. */
    private static final class Watchdog {
        private final Thread thread;
        private volatile java.nio.channels.Channel extra;

        private Watchdog(Thread thread) {
            this.thread = thread;
        }

        static Watchdog start(java.nio.channels.Channel ch, long nanos) {
            Watchdog[] self = new Watchdog[1];
            Thread t = Thread.ofPlatform().daemon().unstarted(() -> {
                try {
                    Thread.sleep(nanos / 1_000_000);
                    ch.close();
                    java.nio.channels.Channel x = self[0].extra;
                    if (x != null) {
                        x.close();
                    }
                } catch (InterruptedException | IOException e) {
                    // cancelled, or closed anyway
                }
            });
            self[0] = new Watchdog(t);
            t.start();
            return self[0];
        }

        void watch(java.nio.channels.Channel ch) {
            extra = ch;
        }

        void cancel() {
            thread.interrupt();
        }
    }
}
