// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.Config;
import io.jccl.Config.Subsys;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.log.Log;
import io.jccl.log.Throttle;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The authenticated connections of one rank to the others after the rendezvous. Each ordered pair
 * of ranks has at most one connection, opened by the sender on its first message and accepted by
 * the receiver's acceptor thread after the peer {@link Handshake}; data flows one way, so closing
 * never discards a message in flight. Messages carry a tag; between two ranks, messages of one tag
 * arrive in the order they were sent, and a receiver that reads a message of another tag keeps it
 * for the call that asks for it. Each accepted connection has a reader thread that files its
 * frames as they come, so that a peer's heartbeats and notices ({@link #listen}) are seen whatever
 * the callers wait for, and its end is seen at once.
 */
final class PeerLinks implements AutoCloseable {
    /** Largest message (all-gather contribution or send/recv payload). */
    static final int MAX_MESSAGE = 64 << 20;
    private static final int MAX_PENDING = 1024;
    private static final Duration PEER_CONNECT_RETRY = Duration.ofSeconds(2);

    private final ServerSocket server;
    private final Config config;
    private Log log;
    private final InetSocketAddress address;
    private final HandshakeSlots pending = new HandshakeSlots(MAX_PENDING);
    /** Dropped connections are logged at most once a second: strangers must not flood the log. */
    private final Throttle dropped = new Throttle(1_000_000_000L);
    private final AtomicInteger rejected = new AtomicInteger();
    private volatile boolean closed;
    private int rank;
    private int size;
    private byte[] secret;
    private int handshakeMillis;
    private InetSocketAddress[] addresses;
    private Inbound[] inbound;
    private Outbound[] outbound;
    private Thread acceptor;
    /** Where frames of {@link #listenTag} go instead of the queues, and who hears of every frame and broken link. */
    private volatile Listener listener;
    private volatile int listenTag;

    /** Hears from the readers: every frame (proof the peer is alive), the frames of one tag, and links that broke. */
    interface Listener {
        /** A frame of the listened tag from {@code peer} (called on its reader thread). */
        void frame(int peer, byte[] payload);

        /** Any frame from {@code peer} arrived. */
        void heard(int peer);

        /** The connection from {@code peer} failed or was closed by it ({@code e}: why). */
        void broken(int peer, IOException e);
    }

    private PeerLinks(ServerSocket server, Config config) {
        this.server = server;
        this.config = config;
        this.address = new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
    }

    /** Listens on a free port of {@code address}; connections wait in the backlog until {@link #start}. */
    static PeerLinks bind(InetAddress address, int rank, Config config) {
        return new PeerLinks(Sockets.listen(address, 0, rank), config);
    }

    InetSocketAddress address() {
        return address;
    }

    void start(int rank, int size, byte[] secret, Duration handshakeTimeout) {
        this.rank = rank;
        this.log = Log.of(config, rank);
        this.size = size;
        this.secret = secret.clone();
        this.handshakeMillis = Math.clamp(handshakeTimeout.toMillis(), 1, Integer.MAX_VALUE);
        this.addresses = new InetSocketAddress[size];
        this.inbound = new Inbound[size];
        this.outbound = new Outbound[size];
        for (int p = 0; p < size; p++) {
            inbound[p] = new Inbound(p);
            outbound[p] = new Outbound(p);
        }
        acceptor = new Thread(this::acceptLoop, "jccl-bootstrap-accept-" + address.getPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    void setAddress(int peer, InetSocketAddress a) {
        synchronized (addresses) {
            addresses[peer] = a;
        }
    }

    private InetSocketAddress addressOf(int peer) {
        synchronized (addresses) {
            return addresses[peer];
        }
    }

    /** From now on frames of {@code tag} go to {@code l} (on the readers' threads), which also hears of every frame and broken link. */
    void listen(int tag, Listener l) {
        listenTag = tag;
        listener = l;
    }

    int rejectedConnections() {
        return rejected.get();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    log.warn(Subsys.BOOTSTRAP, "bootstrap accept failed: " + e);
                    Sockets.sleep(50, rank, "the bootstrap listener");
                }
                continue;
            }
            Socket oldest = pending.hold(s);
            if (oldest != null) {
                reject(oldest, "it was the oldest of " + MAX_PENDING + " connections still in their handshake");
            }
            if (closed) {
                Sockets.closeQuietly(s);
                break;
            }
            Thread.ofVirtual().name("jccl-bootstrap-handshake").start(() -> admit(s));
        }
    }

    private void admit(Socket s) {
        try {
            s.setTcpNoDelay(true);
            SecureChannel ch = Handshake.accept(s, secret, Handshake.PEER, handshakeMillis);
            Wire.Reader r = new Wire.Reader(ch.claim(), "peer claim");
            int from = r.i32();
            int to = r.i32();
            int n = r.i32();
            r.end();
            if (to != rank || n != size || from < 0 || from >= size) {
                throw new BadFrame("it claims to be rank " + from + " of " + n + " calling rank " + to
                        + ", but this is rank " + rank + " of " + size);
            }
            if (!inbound[from].attach(ch)) {
                throw new BadFrame("rank " + from + " is connected already");
            }
            pending.release(s);
        } catch (IOException e) {
            pending.release(s);
            reject(s, e.getMessage());
        }
    }

    private void reject(Socket s, String why) {
        Sockets.closeQuietly(s);
        if (!closed) {
            rejected.incrementAndGet();
            dropped.write(line -> log.warn(Subsys.BOOTSTRAP, line), "dropped a bootstrap connection from "
                    + s.getRemoteSocketAddress() + ": " + why);
        }
    }

    /** Sends {@code data} to {@code peer} under {@code tag}; returns once the kernel holds it. */
    void send(int peer, int tag, byte[] data, Deadline d, String what) {
        if (peer == rank) {
            inbound[rank].deliver(tag, data.clone());
            return;
        }
        outbound[peer].send(ByteBuffer.allocate(4 + data.length).putInt(tag).put(data).array(), d, what);
    }

    /** The next message from {@code peer} under {@code tag}, waiting until {@code d}. */
    byte[] recv(int peer, int tag, Deadline d, String what) {
        return inbound[peer].take(tag, d, what);
    }

    private JcclException closedError(int peer, String what) {
        return new JcclException(ErrorCode.INVALID_USAGE, rank, "the bootstrap was closed while " + what
                + " with rank " + peer + " was under way");
    }

    private JcclException lost(int peer, String what, IOException e) {
        String why = e instanceof EOFException ? "rank " + peer + " closed it (it exited, was killed or closed its communicator)"
                : e.getMessage();
        return new JcclException(ErrorCode.REMOTE_ERROR, rank, "lost the bootstrap connection with rank " + peer
                + " (" + addressOf(peer) + ") during " + what + ": " + why, e);
    }

    private final class Inbound {
        private final int peer;
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition changed = lock.newCondition();
        private final Map<Integer, ArrayDeque<byte[]>> queued = new HashMap<>();
        private SecureChannel channel;
        private IOException failure;

        Inbound(int peer) {
            this.peer = peer;
        }

        boolean attach(SecureChannel ch) {
            lock.lock();
            try {
                if (channel != null || closed) {
                    return false;
                }
                channel = ch;
                Thread reader = new Thread(() -> readAll(ch), "jccl-bootstrap-read-" + rank + "-from-" + peer);
                reader.setDaemon(true);
                reader.start();
                changed.signalAll();
                return true;
            } finally {
                lock.unlock();
            }
        }

        void deliver(int tag, byte[] data) {
            lock.lock();
            try {
                queued.computeIfAbsent(tag, t -> new ArrayDeque<>()).add(data);
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        byte[] take(int tag, Deadline d, String what) {
            lock.lock();
            try {
                while (true) {
                    ArrayDeque<byte[]> q = queued.get(tag);
                    if (q != null && !q.isEmpty()) {
                        return q.poll();
                    }
                    if (closed) {
                        throw closedError(peer, what);
                    }
                    if (failure != null) {
                        throw lost(peer, what, failure);
                    }
                    if (d.expired()) {
                        throw new JcclException(ErrorCode.TIMEOUT, rank, "waited " + d.budget() + " for rank " + peer
                                + " during " + what + " (" + (channel == null ? "it never connected" : "no message came") + ")");
                    }
                    changed.await(d.remainingNanos(), TimeUnit.NANOSECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "interrupted during " + what + " with rank " + peer, e);
            } finally {
                lock.unlock();
            }
        }

        /** Reads every frame of {@code ch} until it fails or closes, filing each under its tag. */
        private void readAll(SecureChannel ch) {
            while (true) {
                byte[] frame;
                try {
                    frame = ch.receive(MAX_MESSAGE + 4, 0);
                    if (frame.length < 4) {
                        throw new BadFrame("a message of " + frame.length + " bytes, shorter than its tag");
                    }
                } catch (IOException e) {
                    ch.close();
                    lock.lock();
                    try {
                        failure = e;
                        changed.signalAll();
                    } finally {
                        lock.unlock();
                    }
                    Listener l = listener;
                    if (l != null && !closed) {
                        l.broken(peer, e);
                    }
                    return;
                }
                int tag = ByteBuffer.wrap(frame).getInt();
                byte[] payload = Arrays.copyOfRange(frame, 4, frame.length);
                Listener l = listener;
                if (l != null) {
                    l.heard(peer);
                    if (tag == listenTag) {
                        l.frame(peer, payload);
                        continue;
                    }
                }
                deliver(tag, payload);
            }
        }

        void close() {
            lock.lock();
            try {
                if (channel != null) {
                    channel.close();
                }
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private final class Outbound {
        private final int peer;
        private final ReentrantLock lock = new ReentrantLock();
        private volatile SecureChannel channel;
        private IOException failure;

        Outbound(int peer) {
            this.peer = peer;
        }

        void send(byte[] payload, Deadline d, String what) {
            try {
                if (!lock.tryLock(Math.max(0, d.remainingNanos()), TimeUnit.NANOSECONDS)) {
                    throw new JcclException(ErrorCode.TIMEOUT, rank, "waited " + d.budget()
                            + " for another thread sending to rank " + peer + " during " + what);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "interrupted during " + what + " with rank " + peer, e);
            }
            try {
                if (closed) {
                    throw closedError(peer, what);
                }
                if (failure != null) {
                    throw lost(peer, what, failure);
                }
                if (channel == null) {
                    channel = connect(d);
                }
                AtomicBoolean timedOut = new AtomicBoolean();
                SecureChannel ch = channel;
                try {
                    Sockets.bounded(ch, d, timedOut, () -> {
                        ch.send(payload);
                        return null;
                    });
                } catch (IOException e) {
                    failure = e;
                    ch.close();
                    if (closed) {
                        throw closedError(peer, what);
                    }
                    if (timedOut.get()) {
                        throw new JcclException(ErrorCode.TIMEOUT, rank, "sending to rank " + peer + " during " + what
                                + " blocked for " + d.budget() + " (it does not read)");
                    }
                    throw lost(peer, what, e);
                }
            } finally {
                lock.unlock();
            }
        }

        private SecureChannel connect(Deadline d) {
            InetSocketAddress a = addressOf(peer);
            if (a == null) {
                throw new JcclException(ErrorCode.INTERNAL_ERROR, rank, "the bootstrap address of rank " + peer + " is not known yet");
            }
            // A peer's listener exists before its address is published, so a refusal means it is
            // gone: retry only briefly (transient errors), not for the whole deadline as for a root.
            Deadline attempt = d.remainingNanos() > PEER_CONNECT_RETRY.toNanos() ? Deadline.after(PEER_CONNECT_RETRY) : d;
            Socket s;
            try {
                s = Sockets.connect(a, attempt, rank, "rank " + peer + "'s bootstrap");
            } catch (JcclException e) {
                if (attempt == d) {
                    throw e;
                }
                throw new JcclException(ErrorCode.REMOTE_ERROR, rank, "rank " + peer + " no longer listens at " + a
                        + " (it exited, was killed or closed its communicator; last error: " + e.getCause() + ")", e);
            }
            try {
                byte[] claim = new Wire.Writer().i32(rank).i32(peer).i32(size).toByteArray();
                return Handshake.connect(s, secret, Handshake.PEER, claim, d.socketTimeoutMillis());
            } catch (IOException e) {
                Sockets.closeQuietly(s);
                throw new JcclException(ErrorCode.REMOTE_ERROR, rank, "bootstrap handshake with rank " + peer + " at " + a
                        + " failed: " + e.getMessage(), e);
            }
        }

        void close() {
            // Not under the lock: a writer blocked in the kernel must be woken by the close itself.
            SecureChannel ch = channel;
            if (ch != null) {
                ch.close();
            }
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Sockets.closeQuietly(server);
        pending.closeAll();
        if (inbound != null) {
            for (int p = 0; p < size; p++) {
                inbound[p].close();
                outbound[p].close();
            }
        }
        if (acceptor != null && acceptor != Thread.currentThread()) {
            try {
                acceptor.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
