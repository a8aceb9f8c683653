// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.Config;
import io.jccl.Config.Subsys;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.log.Log;
import io.jccl.log.Throttle;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The rendezvous point of one bootstrap: it accepts the ranks, checks each proves the secret,
 * checks their ranks and rank counts, and once all have joined tells each rank its successor's
 * address; then it closes. It runs in a daemon thread of the process that started it: in
 * {@link CommId#create()} (as NCCL's {@code ncclGetUniqueId}), or in a launcher's rank 0 for an id
 * that names a fixed address ({@link #listen}). It serves one rendezvous and never outlives it:
 * after success it stops; after a failure it reported to the ranks (a timeout among them:
 * {@code JCCL_BOOTSTRAP_TIMEOUT}, counted from its start until the first rank joins and from then
 * until the last) it goes on answering ranks that come late with that failure, for as long again
 * (at most a minute) or until closed, so that none of them waits out its own timeout.
 *
 * <p>A connection that does not know the secret, speaks something else, or sends an oversized or
 * malformed frame is dropped and logged ({@link #rejectedConnections()}); the rendezvous goes on.
 * Ranks that contradict each other fail the whole rendezvous with an error naming them: a rank
 * that joins twice, or a rank count that differs from the first rank's.
 *
 * <pre>{@code
 * try (BootstrapRoot root = BootstrapRoot.start(config)) {
 *     String id = root.id().encode();   // to the ranks
 *     root.awaitDone(Duration.ofMinutes(5));
 * }
 * }</pre>
 */
public final class BootstrapRoot implements AutoCloseable {
    private static final int MAX_PENDING = 4096;
    /** How long a connection may take to prove the secret and say which rank it is (a rank takes milliseconds). */
    private static final long HANDSHAKE_MAX_MILLIS = 5_000;

    private final CommId id;
    private final Log log;
    private final ServerSocket server;
    private final long timeoutNanos;
    private final int handshakeMillis;
    private final long startNanos = System.nanoTime();
    private final Thread thread;
    private final HandshakeSlots pending = new HandshakeSlots(MAX_PENDING);
    /** Dropped connections are logged at most once a second: strangers must not flood the log. */
    private final Throttle dropped = new Throttle(1_000_000_000L);
    private final AtomicInteger rejected = new AtomicInteger();
    private final CountDownLatch done = new CountDownLatch(1);
    private final Object lock = new Object();
    private final Map<Integer, Member> members = new TreeMap<>();
    private int nranks = -1;
    private int firstRank = -1;
    private long firstJoinNanos;
    private volatile boolean finished;
    private String outcome = "running";
    private byte[] failure;
    /** Whether the root goes on answering late joins after success ({@link #keepServing}). */
    private boolean serving;
    private java.util.function.Consumer<String> strangers;
    private final List<String> alarms = new ArrayList<>();
    /** Until when a failed root still answers late ranks with its failure. */
    private long lingerUntil;
    private static final long LINGER_NANOS = 60_000_000_000L;

    /** A rank that joined: its channel, its listener, and its process (pid and host) for errors. */
    private record Member(SecureChannel channel, InetSocketAddress listen, long pid, String host) {
        String describe() {
            return "pid " + pid + " on " + host + " (" + channel.remote() + ")";
        }
    }

    private BootstrapRoot(CommId id, ServerSocket server, Config config) {
        this.id = id;
        this.server = server;
        this.log = Log.of(config, Log.NO_RANK);
        log.info(Subsys.BOOTSTRAP, () -> "bootstrap root listening at " + id);
        Duration t = config.bootstrapTimeout();
        this.timeoutNanos = t.toNanos();
        this.handshakeMillis = Math.clamp(Math.min(t.toMillis(), HANDSHAKE_MAX_MILLIS), 1, Integer.MAX_VALUE);
        this.thread = new Thread(this::run, "jccl-bootstrap-root-" + id.port());
        thread.setDaemon(true);
        thread.start();
    }

    /** A root on the interface {@code config} selects, on a free port, with a new secret. */
    public static BootstrapRoot start(Config config) {
        NetInterfaces.Selected s = NetInterfaces.select(config, null);
        ServerSocket ss = Sockets.listen(s.address(), 0, JcclException.NO_RANK);
        CommId id = CommId.of(s.address().getHostAddress(), ss.getLocalPort(), CommId.newSecret());
        return new BootstrapRoot(id, ss, config);
    }

    /** A root listening at the address {@code id} names (which must be this host's), with its secret. */
    public static BootstrapRoot listen(CommId id, Config config) {
        InetAddress a;
        try {
            a = InetAddress.getByName(id.host());
        } catch (UnknownHostException e) {
            throw JcclException.invalidArgument(0, "id", "names host '" + id.host() + "', which does not resolve");
        }
        return new BootstrapRoot(id, Sockets.listen(a, id.port(), 0), config);
    }

    /** The id the ranks use to find this root (it holds the secret). */
    public CommId id() {
        return id;
    }

    /** Connections dropped because they did not prove the secret or broke the protocol. */
    public int rejectedConnections() {
        return rejected.get();
    }

    /** Waits until the root has finished (all ranks joined, failed, or timed out); false on timeout. */
    public boolean awaitDone(Duration timeout) throws InterruptedException {
        return done.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** "running", "done", or why it failed. */
    public String outcome() {
        synchronized (lock) {
            return outcome;
        }
    }

    private void run() {
        try {
            while (true) {
                long remaining;
                synchronized (lock) {
                    if (finished) {
                        // After a failure the root lingers, answering ranks that come late with it;
                        // after success a root that serves late joins does so until closed.
                        remaining = failure == null ? (serving ? 1_000_000_000L : 0) : lingerUntil - System.nanoTime();
                        if (remaining <= 0) {
                            break;
                        }
                    } else {
                        long from = nranks < 0 ? startNanos : firstJoinNanos;
                        remaining = from + timeoutNanos - System.nanoTime();
                        if (remaining <= 0) {
                            timeOut();
                            continue;
                        }
                    }
                }
                Socket s;
                try {
                    server.setSoTimeout(Math.clamp((remaining + 999_999) / 1_000_000, 1, Integer.MAX_VALUE));
                    s = server.accept();
                } catch (SocketTimeoutException e) {
                    continue;
                } catch (IOException e) {
                    synchronized (lock) {
                        if (finished) {
                            break;
                        }
                    }
                    log.warn(Subsys.BOOTSTRAP, "bootstrap root " + id + ": accept failed: " + e);
                    Sockets.sleep(50, JcclException.NO_RANK, "the bootstrap root's listener");
                    continue;
                }
                Socket oldest = pending.hold(s);
                if (oldest != null) {
                    reject(oldest, "it was the oldest of " + MAX_PENDING + " connections still in their handshake");
                }
                Thread.ofVirtual().name("jccl-bootstrap-root-handshake").start(() -> admit(s));
            }
        } finally {
            Sockets.closeQuietly(server);
            pending.closeAll();
            done.countDown();
        }
    }

    private void admit(Socket s) {
        int rank;
        int n;
        InetSocketAddress listen;
        long pid;
        String host;
        SecureChannel ch;
        try {
            s.setTcpNoDelay(true);
            ch = Handshake.accept(s, id.secret(), Handshake.ROOT, handshakeMillis);
            Wire.Reader r = new Wire.Reader(ch.receive(RootProtocol.MAX_MESSAGE, handshakeMillis), "join message");
            int type = r.u8();
            if (type == RootProtocol.FAIL) {
                int failed = r.i32();
                int of = r.i32();
                String why = r.string(RootProtocol.MAX_MESSAGE);
                r.end();
                pending.release(s);
                synchronized (lock) {
                    if (!finished) {
                        fail(ErrorCode.REMOTE_ERROR, "rank " + failed + " of " + of + " cannot take part: " + why, ch);
                    }
                }
                ch.close();
                return;
            }
            if (type != RootProtocol.JOIN) {
                throw new BadFrame("not a join message");
            }
            rank = r.i32();
            n = r.i32();
            listen = r.address();
            pid = r.i64();
            host = r.string(RootProtocol.MAX_HOST);
            r.end();
        } catch (IOException e) {
            pending.release(s);
            reject(s, e.getMessage());
            return;
        }
        pending.release(s);
        register(rank, n, new Member(ch, listen, pid, host));
    }

    private void reject(Socket s, String why) {
        Sockets.closeQuietly(s);
        if (finished) {
            return; // a handshake cut short by the root's own shutdown
        }
        rejected.incrementAndGet();
        dropped.write(line -> log.warn(Subsys.BOOTSTRAP, line), "bootstrap root " + id + ": dropped a connection from "
                + s.getRemoteSocketAddress() + ": " + why);
    }

    private void register(int rank, int n, Member joining) {
        SecureChannel ch = joining.channel();
        synchronized (lock) {
            if (finished && failure == null && serving) {
                Member first = members.get(rank);
                String msg = n != nranks || first == null
                        ? "a rank of another job (rank " + rank + " of " + n + ", " + joining.describe() + ") came to this job's root"
                                + " after the job had started: two jobs share this root's address and secret"
                        : "argument 'rank': rank " + rank + " joined twice, as " + first.describe() + " and, after the job had"
                                + " started, as " + joining.describe() + ": two jobs share this root's address and secret; one of"
                                + " this job's ranks is a stranger. Give each job its own (JCCL_COMM_ID, or MASTER_PORT and"
                                + " JCCL_COMM_SECRET), or a job id (JCCL_JOB_ID, or the launcher's) that binds each job's ranks";
                log.warn(Subsys.BOOTSTRAP, "bootstrap root " + id + ": " + msg);
                send(ch, RootProtocol.error(ErrorCode.INVALID_ARGUMENT, msg));
                ch.close();
                alarms.add(msg);
                if (strangers != null) {
                    strangers.accept(msg);
                }
                return;
            }
            if (finished) {
                send(ch, failure != null ? failure
                        : RootProtocol.error(ErrorCode.INVALID_USAGE, "this bootstrap root has finished (" + outcome + ")"));
                ch.close();
                return;
            }
            if (n < 1 || rank < 0 || rank >= n) {
                // A rank checks this before it joins: only a broken client gets here. The others go on.
                send(ch, RootProtocol.error(ErrorCode.INVALID_ARGUMENT, "argument 'rank' is " + rank
                        + ", not a rank of 0.." + (n - 1) + " (nranks " + n + ")"));
                ch.close();
                reject(ch.socket(), "rank " + rank + " of " + n + " is out of range");
                return;
            }
            if (nranks < 0) {
                nranks = n;
                firstRank = rank;
                firstJoinNanos = System.nanoTime();
            } else if (n != nranks) {
                fail(ErrorCode.INVALID_ARGUMENT, "argument 'nranks' differs: rank " + rank + " joined with nranks " + n
                        + " but rank " + firstRank + " with nranks " + nranks, ch);
                return;
            }
            Member twin = members.get(rank);
            if (twin != null) {
                fail(ErrorCode.INVALID_ARGUMENT, "argument 'rank': rank " + rank + " joined twice, as " + twin.describe()
                        + " and as " + joining.describe() + ": two jobs share this root's address and secret; give each its own"
                        + " (JCCL_COMM_ID, or MASTER_PORT and JCCL_COMM_SECRET), or a job id (JCCL_JOB_ID, or the launcher's)"
                        + " that binds each job's ranks to their own", ch);
                return;
            }
            members.put(rank, joining);
            log.trace(Subsys.BOOTSTRAP, () -> "bootstrap root " + id + ": rank " + rank + " joined from " + ch.remote());
            if (members.size() == nranks) {
                for (int r = 0; r < nranks; r++) {
                    Member m = members.get(r);
                    send(m.channel, RootProtocol.next(nranks, members.get((r + 1) % nranks).listen));
                    m.channel.close();
                }
                log.info(Subsys.BOOTSTRAP, "bootstrap root " + id + ": all " + nranks + " ranks joined");
                finish("done");
            }
        }
    }

    /**
     * Tells every joined rank (and {@code extra}) why the rendezvous failed, and stops the
     * rendezvous; the listener lingers a while to tell ranks that come late. Holding the lock.
     */
    private void fail(ErrorCode code, String message, SecureChannel extra) {
        if (finished) {
            if (extra != null) {
                send(extra, failure != null ? failure : RootProtocol.error(code, message));
                extra.close();
            }
            return;
        }
        log.warn(Subsys.BOOTSTRAP, "bootstrap root " + id + ": " + message);
        byte[] err = RootProtocol.error(code, message);
        failure = err;
        List<SecureChannel> all = new ArrayList<>();
        members.values().forEach(m -> all.add(m.channel));
        if (extra != null) {
            all.add(extra);
        }
        for (SecureChannel c : all) {
            send(c, err);
            c.close();
        }
        finished = true;
        outcome = message;
        lingerUntil = System.nanoTime() + Math.min(timeoutNanos, LINGER_NANOS);
        done.countDown();
    }

    private void timeOut() {
        if (nranks < 0) {
            log.warn(Subsys.BOOTSTRAP, "bootstrap root " + id + ": no rank joined within "
                    + Deadline.seconds(Duration.ofNanos(timeoutNanos)));
            finish("no rank joined");
            return;
        }
        List<Integer> missing = new ArrayList<>();
        for (int r = 0; r < nranks; r++) {
            if (!members.containsKey(r)) {
                missing.add(r);
            }
        }
        fail(ErrorCode.TIMEOUT, "ranks " + Ranks.format(missing) + " of " + nranks + " did not join within "
                + Deadline.seconds(Duration.ofNanos(timeoutNanos)) + " (joined: "
                + Ranks.format(members.keySet()) + ")", null);
    }

    private void finish(String why) {
        finished = true;
        outcome = why;
        done.countDown();
        if (!serving || !why.equals("done")) {
            Sockets.closeQuietly(server);
        }
    }

    /**
     * After the rendezvous succeeds, goes on listening until closed: a rank that comes late (one
     * of this job's whose place a stranger of another job with the same address and secret took)
     * is answered with the error, and {@link #onStranger} hears it, so that the job that runs with
     * the stranger fails instead. For a root its job's rank 0 hosts for the job's life.
     */
    void keepServing() {
        synchronized (lock) {
            serving = true;
        }
    }

    /** {@code l} hears (on the root's threads) each late join that shows a stranger in the job, those before it too. */
    void onStranger(java.util.function.Consumer<String> l) {
        synchronized (lock) {
            strangers = l;
            alarms.forEach(l);
        }
    }

    private void send(SecureChannel ch, byte[] message) {
        try {
            ch.send(message);
        } catch (IOException e) {
            log.warn(Subsys.BOOTSTRAP, "bootstrap root " + id + ": could not answer " + ch.remote() + ": " + e);
        }
    }

    /**
     * Stops the root. Ranks that joined and wait for the others get an error; after a finished
     * rendezvous this only releases the port (the ranks no longer need the root).
     */
    @Override
    public void close() {
        synchronized (lock) {
            if (!finished) {
                fail(ErrorCode.INVALID_USAGE, "the bootstrap root was closed before all ranks joined (joined: "
                        + Ranks.format(members.keySet()) + ")", null);
            }
        }
        Sockets.closeQuietly(server);
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
