// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport.net;

import io.jccl.log.Throttle;
import io.jccl.transport.Wait;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The socket net's listener: a thread accepts sockets, and each new socket's header is read and
 * checked on a virtual thread of its own (a silent stranger holds up only that one, for
 * {@link #HEADER_TIMEOUT_MS}); a connection is handed to {@link #accept} once all its {@code K}
 * sockets arrived. Strangers, ranks of other communicators and a socket that comes twice are
 * dropped and logged while the job goes on. Its handle is {@code "address port"} in ASCII. The
 * socket net and the IB net's side channel both listen so ({@link Owner}).
 *
 * @param <C> the comm an authentic connection becomes
 */
final class SocketListener<C extends RecvComm> implements ListenComm {
    /** The net a listener serves: the communicator's id and key, names and logs, and what a whole connection becomes. */
    interface Owner<C> {
        long commId();

        byte[] key();

        String name(long tag);

        void warn(String message);

        /** A socket was accepted (closed with the net unless {@link #received} adopts it). */
        void opened(SocketChannel ch);

        /** Closes a socket the listener refused, and forgets it. */
        void dropped(SocketChannel ch);

        /** Connection {@code tag}, all of whose sockets came and were authenticated, made a comm (on the listener's virtual thread). */
        C received(long tag, SocketChannel[] channels) throws IOException;

        /** Closes a comm nobody accepted (the listener closes). */
        void discard(C comm);
    }

    /** A socket's header must arrive within this long, or it is dropped. */
    private static final int HEADER_TIMEOUT_MS = 10_000;

    /** The sockets of one connection as they arrive. */
    private static final class Arrival {
        final SocketChannel[] sockets;
        int placed;

        Arrival(int count) {
            sockets = new SocketChannel[count];
        }

        /** Takes socket {@code index}: 1 when it was the last one missing, 0 when others are, -1 if it came already or the count differs. */
        synchronized int place(int index, int count, SocketChannel ch) {
            if (count != sockets.length || sockets[index] != null) {
                return -1;
            }
            sockets[index] = ch;
            return ++placed == count ? 1 : 0;
        }
    }

    private final Owner<C> net;
    private final ServerSocketChannel server;
    private final NetHandle handle;
    private final LinkedBlockingQueue<C> accepted = new LinkedBlockingQueue<>();
    /** Every connection whose first socket came, whole or not (so that a replayed socket is refused). */
    private final Map<Long, Arrival> arriving = new ConcurrentHashMap<>();
    /** Refused connections are logged at most once a second: strangers must not flood the log. */
    private final Throttle dropped = new Throttle(1_000_000_000L);
    private volatile boolean closed;

    SocketListener(Owner<C> net, InetAddress bind) throws IOException {
        this.net = net;
        this.server = ServerSocketChannel.open();
        try {
            server.bind(new InetSocketAddress(bind, 0), 256);
        } catch (IOException e) {
            server.close();
            throw e;
        }
        InetSocketAddress a = (InetSocketAddress) server.getLocalAddress();
        this.handle = new NetHandle((a.getAddress().getHostAddress() + " " + a.getPort()).getBytes(StandardCharsets.US_ASCII));
        Thread.ofPlatform().daemon().name("jccl-net-accept").start(this::acceptLoop);
    }

    /**
     * Socket {@code index} of {@code count} of connection {@code tag} to the listener at {@code to}:
     * connected (retrying until {@code deadline} while {@code closed} says the net is open) and its
     * header written; {@code owner} sees each socket opened, and each failed attempt dropped.
     */
    static SocketChannel connect(Owner<?> owner, InetSocketAddress to, long tag, int index, int count, long deadline,
                                 BooleanSupplier closed) throws IOException {
        Wait pause = new Wait(Wait.NOTHING, Math.max(0, deadline - System.nanoTime()), Wait.Pacing.NET_CONNECT);
        pause.begin();
        IOException last = null;
        while (!closed.getAsBoolean()) {
            SocketChannel ch = SocketChannel.open();
            owner.opened(ch);
            try {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.socket().connect(to, (int) Math.clamp((deadline - System.nanoTime()) / 1_000_000, 1, Integer.MAX_VALUE));
                ByteBuffer h = ByteBuffer.wrap(SocketHeader.encode(owner.commId(), owner.key(), tag, index,
                        count));
                while (h.hasRemaining()) {
                    ch.write(h);
                }
                return ch;
            } catch (IOException e) {
                last = e;
                owner.dropped(ch);
                if (!pause.pause()) {
                    break;
                }
            }
        }
        throw new IOException("cannot connect " + (count == 1 ? "the socket" : "socket " + index + " of " + count) + " of "
                + owner.name(tag) + " to " + to + (last != null ? ": " + last.getMessage() : ": the net closed"), last);
    }

    /** The address a handle names. */
    static InetSocketAddress address(NetHandle h) throws IOException {
        String[] hp = new String(h.bytes(), StandardCharsets.US_ASCII).split(" ");
        try {
            return new InetSocketAddress(InetAddress.ofLiteral(hp[0]), Integer.parseInt(hp[1]));
        } catch (RuntimeException e) {
            throw new IOException("not a socket net's handle: " + h, e);
        }
    }

    @Override
    public NetHandle handle() {
        return handle;
    }

    /** The next connection whose sockets all came, or null at {@code deadline}. */
    C accept(long deadline) throws IOException {
        try {
            return accepted.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while accepting", e);
        }
    }

    private void acceptLoop() {
        while (!closed) {
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (IOException e) {
                return;
            }
            net.opened(ch);
            Thread.ofVirtual().name("jccl-net-header").start(() -> admit(ch));
        }
    }

    private void admit(SocketChannel ch) {
        try {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.socket().setSoTimeout(HEADER_TIMEOUT_MS);
            byte[] h = new byte[SocketHeader.BYTES + SocketHeader.MAC_BYTES];
            new DataInputStream(ch.socket().getInputStream()).readFully(h);
            SocketHeader.Opened o = SocketHeader.check(h, net.commId(), net.key());
            Arrival a = arriving.computeIfAbsent(o.tag(), t -> new Arrival(o.count()));
            ch.socket().setSoTimeout(0);
            int placed = a.place(o.index(), o.count(), ch);
            if (placed < 0) {
                throw new IOException("socket " + o.index() + " of " + o.count() + " of " + net.name(o.tag())
                        + " came twice, or the count differs");
            }
            if (placed == 1) {
                accepted.add(net.received(o.tag(), a.sockets));
            }
        } catch (IOException | RuntimeException e) {
            String from = remote(ch);
            net.dropped(ch);
            dropped.write(net::warn, "dropped a connection from " + from + " to the network transport: " + e.getMessage());
        }
    }

    /** Where a connection came from, for the log. */
    private static String remote(SocketChannel ch) {
        try {
            return String.valueOf(ch.getRemoteAddress());
        } catch (IOException e) {
            return "an unknown address";
        }
    }

    void close() {
        closed = true;
        SocketNet.closeQuietly(server);
        for (C c; (c = accepted.poll()) != null; ) {
            net.discard(c);
        }
    }
}
