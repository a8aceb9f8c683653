// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.Config;
import io.jccl.Config.Subsys;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.log.Log;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.crypto.Mac;

/**
 * One rank's bootstrap: the ranks of a communicator found each other, proved a shared secret,
 * exchanged their {@link PeerInfo}, and hold authenticated connections to each other for small
 * exchanges (all-gather, barrier, tagged send/recv, split), with no root left. This is what
 * {@code Communicator.init} builds on: transports exchange their connection details through it.
 *
 * <pre>{@code
 * // TCP rendezvous: rank 0 made the id (CommId.create()) and passed id.encode() to the others
 * try (Bootstrap b = Bootstrap.init(CommId.parse(text), nranks, rank, Config.fromEnvironment(), Set.of("shm", "net"))) {
 *     byte[][] all = b.allGather(("rank " + b.rank()).getBytes());
 *     b.barrier();
 *     Locality l = b.locality();     // which ranks share this host
 * }
 * }</pre>
 *
 * <p>Collective calls ({@link #allGather}, {@link #barrier}, {@link #split}) must be made by every
 * rank in the same order, one at a time per rank; {@link #send}/{@link #recv} may be called from
 * any thread. Every wait is bounded by {@code JCCL_BOOTSTRAP_TIMEOUT} and fails with a
 * {@link JcclException} naming the rank waited for. {@link #close()} from another thread makes
 * blocked calls fail at once (what {@code Communicator.abort()} needs).
 */
public final class Bootstrap implements OutOfBandAllGather, AutoCloseable {
    /** The color of {@link #split} for ranks that join no new communicator (NCCL_SPLIT_NOCOLOR). */
    public static final int NO_COLOR = -1;
    /** Largest contribution to {@link #allGather} and largest {@link #send} payload. */
    public static final int MAX_MESSAGE = PeerLinks.MAX_MESSAGE;

    private static final int TAG_ALL_GATHER = -1;
    private static final int TAG_BARRIER = -2;
    private static final int TAG_KEEPALIVE = -3;
    private static final int TAG_SHRINK = -4;

    private final int rank;
    private final List<PeerInfo> peers;
    private final Locality locality;
    private final PeerLinks links;
    private final byte[] secret;
    private final Config config;
    private final Object collective = new Object();
    private int splits;
    private int shrinks;
    private volatile KeepAlive keepAlive;
    /** The root this rank's process hosts for the job's life, or null. */
    private volatile BootstrapRoot hosted;

    private Bootstrap(int rank, List<PeerInfo> peers, PeerLinks links, byte[] secret, Config config) {
        this.rank = rank;
        this.peers = List.copyOf(peers);
        this.locality = Locality.of(this.peers, rank);
        this.links = links;
        this.secret = secret;
        this.config = config;
    }

    /**
     * Joins the TCP rendezvous of {@code id} as {@code rank} of {@code nranks}. Retries connecting
     * to a root that does not listen yet, and fails after {@code config.bootstrapTimeout()} with a
     * {@link ErrorCode#TIMEOUT} naming the ranks that never came.
     *
     * @param transports the transports this rank offers, published in its {@link PeerInfo}
     */
    public static Bootstrap init(CommId id, int nranks, int rank, Config config, Set<String> transports) {
        if (nranks < 1) {
            throw JcclException.invalidArgument(rank, "nranks", "must be at least 1, was " + nranks);
        }
        if (rank < 0 || rank >= nranks) {
            throw JcclException.invalidArgument(rank, "rank", "is " + rank + ", not a rank of 0.." + (nranks - 1));
        }
        Objects.requireNonNull(id, "id");
        checkCommon(rank, config, transports);
        Deadline d = Deadline.after(config.bootstrapTimeout());
        NetInterfaces.Selected sel;
        PeerLinks links;
        try {
            sel = NetInterfaces.awaitSelect(NetInterfaces::system, config, rootAddress(id), d, rank);
            links = PeerLinks.bind(sel.address(), rank, config);
        } catch (JcclException e) {
            RootClient.tellFailure(id, nranks, rank, e.getMessage());
            throw e;
        }
        try {
            links.start(rank, nranks, id.secret(), handshakeTimeout(config));
            InetSocketAddress next = RootClient.join(id, nranks, rank, links.address(), d, grace(config));
            int nextRank = (rank + 1) % nranks;
            links.setAddress(nextRank, next);
            PeerInfo me = PeerInfo.local(rank, config, links.address(), List.of(sel.address()), transports);
            List<PeerInfo> peers = decodeAll(ringAllGather(links, rank, nranks, me.encode(), d), rank, "peer info");
            if (!peers.get(nextRank).bootstrapAddress().equals(next)) {
                throw new JcclException(ErrorCode.REMOTE_ERROR, rank, "rank " + nextRank + " says it listens at "
                        + peers.get(nextRank).bootstrapAddress() + " but the root said " + next);
            }
            peers.forEach(p -> links.setAddress(p.rank(), p.bootstrapAddress()));
            Log.of(config, rank).info(Subsys.BOOTSTRAP, () -> "joined the bootstrap of root " + id + " as rank " + rank + " of "
                    + nranks + ", listening at " + links.address() + " (" + sel.name() + ")");
            return new Bootstrap(rank, peers, links, id.secret(), config);
        } catch (RuntimeException e) {
            links.close();
            throw e;
        }
    }

    /**
     * Bootstraps through an all-gather the job already has (Spark barrier mode, MPI, a key-value
     * store, {@link InProcessAllGather}): one call of {@code oob.allGather} carries every rank's
     * {@link PeerInfo} and rank 0's fresh secret, so no TCP root is needed. The out-of-band channel
     * must reach only the job's ranks, since the secret travels on it.
     */
    public static Bootstrap init(OutOfBandAllGather oob, Config config, Set<String> transports) {
        Objects.requireNonNull(oob, "oob");
        int rank = oob.rank();
        int size = oob.size();
        if (size < 1 || rank < 0 || rank >= size) {
            throw JcclException.invalidArgument(rank, "oob", "reports rank " + rank + " of " + size);
        }
        checkCommon(rank, config, transports);
        NetInterfaces.Selected sel = NetInterfaces.select(config, null);
        PeerLinks links = PeerLinks.bind(sel.address(), rank, config);
        try {
            PeerInfo me = PeerInfo.local(rank, config, links.address(), List.of(sel.address()), transports);
            byte[] mySecret = rank == 0 ? CommId.newSecret() : new byte[0];
            byte[][] all = oob.allGather(new Wire.Writer().bytes(mySecret).bytes(me.encode()).toByteArray());
            if (all == null || all.length != size) {
                throw new JcclException(ErrorCode.REMOTE_ERROR, rank, "the out-of-band all-gather returned "
                        + (all == null ? "null" : all.length + " entries") + " for " + size + " ranks");
            }
            byte[] secret = null;
            byte[][] infos = new byte[size][];
            for (int r = 0; r < size; r++) {
                try {
                    Wire.Reader rd = new Wire.Reader(Objects.requireNonNull(all[r], "entry"), "out-of-band entry of rank " + r);
                    byte[] s = rd.bytes(CommId.SECRET_BYTES);
                    infos[r] = rd.bytes(PeerLinks.MAX_MESSAGE);
                    rd.end();
                    if (r == 0) {
                        secret = s;
                    }
                } catch (BadFrame | NullPointerException e) {
                    throw new JcclException(ErrorCode.REMOTE_ERROR, rank, "the out-of-band all-gather returned a bad entry for rank "
                            + r + ": " + e.getMessage(), e);
                }
            }
            if (secret == null || secret.length != CommId.SECRET_BYTES) {
                throw new JcclException(ErrorCode.REMOTE_ERROR, rank, "rank 0's out-of-band entry holds no secret");
            }
            List<PeerInfo> peers = decodeAll(infos, rank, "peer info");
            links.start(rank, size, secret, handshakeTimeout(config));
            peers.forEach(p -> links.setAddress(p.rank(), p.bootstrapAddress()));
            Log.of(config, rank).info(Subsys.BOOTSTRAP, () -> "joined through the job's all-gather as rank " + rank + " of "
                    + size + ", listening at " + links.address() + " (" + sel.name() + ")");
            return new Bootstrap(rank, peers, links, secret, config);
        } catch (RuntimeException e) {
            links.close();
            throw e;
        }
    }

    private static void checkCommon(int rank, Config config, Set<String> transports) {
        if (config == null) {
            throw JcclException.invalidArgument(rank, "config", "is null");
        }
        if (transports == null) {
            throw JcclException.invalidArgument(rank, "transports", "is null (pass Set.of() for none)");
        }
        if (transports.size() > PeerInfo.MAX_TRANSPORTS
                || transports.stream().anyMatch(t -> t.isEmpty() || t.getBytes(StandardCharsets.UTF_8).length > PeerInfo.MAX_STRING)) {
            throw JcclException.invalidArgument(rank, "transports", "must be at most " + PeerInfo.MAX_TRANSPORTS
                    + " non-empty names of at most " + PeerInfo.MAX_STRING + " bytes");
        }
    }

    private static InetAddress rootAddress(CommId id) {
        InetAddress a = CommId.literal(id.host());
        if (a != null) {
            return a;
        }
        try {
            return InetAddress.getByName(id.host());
        } catch (UnknownHostException e) {
            return null; // connecting retries the name; the interface choice just lacks the hint
        }
    }

    private static Duration handshakeTimeout(Config c) {
        Duration t = c.bootstrapTimeout();
        return t.compareTo(Duration.ofSeconds(10)) < 0 ? t : Duration.ofSeconds(10);
    }

    private static Duration grace(Config c) {
        Duration half = c.bootstrapTimeout().dividedBy(2);
        return half.compareTo(Duration.ofSeconds(5)) < 0 ? half : Duration.ofSeconds(5);
    }

    private static List<PeerInfo> decodeAll(byte[][] all, int rank, String what) {
        List<PeerInfo> peers = new ArrayList<>(all.length);
        for (int r = 0; r < all.length; r++) {
            PeerInfo p;
            try {
                p = PeerInfo.decode(all[r], what + " of rank " + r);
            } catch (BadFrame e) {
                throw new JcclException(ErrorCode.REMOTE_ERROR, rank, e.getMessage(), e);
            }
            if (p.rank() != r) {
                throw new JcclException(ErrorCode.REMOTE_ERROR, rank, what + " in slot " + r + " says rank " + p.rank());
            }
            peers.add(p);
        }
        return peers;
    }

    /**
     * All-gather around the ring: in step s rank r sends the block of rank r-s to r+1 and receives
     * the block of rank r-s-1 from r-1. Sends run in a virtual thread, so blocks larger than the
     * socket buffers cannot deadlock the ring.
     */
    private static byte[][] ringAllGather(PeerLinks links, int rank, int n, byte[] mine, Deadline d) {
        return ringAllGather(links, java.util.stream.IntStream.range(0, n).toArray(), rank, mine, d, TAG_ALL_GATHER);
    }

    /** The same around {@code ring} (the ranks taking part, in ring order), this rank at position {@code rank}; indexed by position. */
    private static byte[][] ringAllGather(PeerLinks links, int[] ring, int rank, byte[] mine, Deadline d, int tag) {
        int n = ring.length;
        byte[][] out = new byte[n][];
        out[rank] = mine.clone();
        if (n == 1) {
            return out;
        }
        int next = ring[(rank + 1) % n];
        int prev = ring[(rank - 1 + n) % n];
        BlockingQueue<byte[]> toSend = new ArrayBlockingQueue<>(n);
        toSend.add(out[rank]);
        AtomicReference<RuntimeException> sendFailure = new AtomicReference<>();
        Thread sender = Thread.ofVirtual().name("jccl-bootstrap-allgather").start(() -> {
            try {
                for (int s = 0; s < n - 1; s++) {
                    byte[] b = toSend.poll(Math.max(0, d.remainingNanos()), TimeUnit.NANOSECONDS);
                    if (b == null) {
                        return; // the receiving side failed or timed out and reports it
                    }
                    links.send(next, tag, b, d, "all-gather step " + s);
                }
            } catch (RuntimeException e) {
                sendFailure.set(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            for (int s = 0; s < n - 1; s++) {
                byte[] b = links.recv(prev, tag, d, "all-gather step " + s);
                out[(rank - s - 1 + n) % n] = b;
                if (s < n - 2) {
                    toSend.add(b);
                }
            }
            sender.join(Duration.ofNanos(Math.max(1, d.remainingNanos())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "interrupted during a bootstrap all-gather", e);
        } catch (RuntimeException e) {
            sender.interrupt();
            throw e;
        }
        if (sendFailure.get() != null) {
            throw sendFailure.get();
        }
        if (sender.isAlive()) {
            sender.interrupt();
            throw new JcclException(ErrorCode.TIMEOUT, rank, "sending to rank " + next + " during an all-gather did not finish within "
                    + d.budget());
        }
        return out;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return peers.size();
    }

    /** Every rank's info, indexed by rank. */
    public List<PeerInfo> peers() {
        return peers;
    }

    public PeerInfo peer(int r) {
        checkPeer(r, "peer");
        return peers.get(r);
    }

    /** Which ranks share this rank's host (from the exchanged host identities). */
    public Locality locality() {
        return locality;
    }

    /** Connections this rank's listener dropped (no secret, garbage, oversized frames). */
    public int rejectedConnections() {
        return links.rejectedConnections();
    }

    /** Every rank's {@code mine} (at most {@link #MAX_MESSAGE} bytes each), indexed by rank. */
    @Override
    public byte[][] allGather(byte[] mine) {
        checkMessage(mine, "mine");
        synchronized (collective) {
            return ringAllGather(links, rank, size(), mine, Deadline.after(config.bootstrapTimeout()));
        }
    }

    /** Returns once every rank has called it (dissemination: log2(n) rounds of empty messages). */
    public void barrier() {
        synchronized (collective) {
            Deadline d = Deadline.after(config.bootstrapTimeout());
            int n = size();
            for (int k = 1, round = 0; k < n; k <<= 1, round++) {
                links.send((rank + k) % n, TAG_BARRIER, new byte[0], d, "barrier round " + round);
                links.recv((rank - k + n) % n, TAG_BARRIER, d, "barrier round " + round);
            }
        }
    }

    /**
     * Sends {@code data} to {@code peer} under {@code tag} (&ge; 0); returns once the bytes are
     * handed to the kernel. Between two ranks, messages of one tag arrive in order.
     */
    public void send(int peer, int tag, byte[] data) {
        checkPeer(peer, "peer");
        checkTag(tag);
        checkMessage(data, "data");
        links.send(peer, tag, data, Deadline.after(config.bootstrapTimeout()), "a send with tag " + tag);
    }

    /** The next message {@code peer} sent under {@code tag}. */
    public byte[] recv(int peer, int tag) {
        checkPeer(peer, "peer");
        checkTag(tag);
        return links.recv(peer, tag, Deadline.after(config.bootstrapTimeout()), "a receive with tag " + tag);
    }

    /**
     * A bootstrap for the ranks that pass the same {@code color}, ranked by {@code key} and then by
     * their rank here, as {@code ncclCommSplit}; {@code null} for {@link #NO_COLOR}. Every rank
     * must call it. The new bootstrap has its own listeners and a secret derived from this one,
     * so it lives on when this one closes.
     */
    public Bootstrap split(int color, int key) {
        if (color < NO_COLOR) {
            throw JcclException.invalidArgument(rank, "color", "is " + color + ", not >= 0 or NO_COLOR (-1)");
        }
        synchronized (collective) {
            int seq = ++splits;
            PeerLinks child = color == NO_COLOR ? null : PeerLinks.bind(links.address().getAddress(), rank, config);
            try {
                Wire.Writer w = new Wire.Writer().i32(color).i32(key);
                if (child != null) {
                    w.address(child.address());
                }
                byte[][] all = ringAllGather(links, rank, size(), w.toByteArray(), Deadline.after(config.bootstrapTimeout()));
                if (child == null) {
                    return null;
                }
                record Member(int parentRank, int key, InetSocketAddress address) {
                }
                List<Member> members = new ArrayList<>();
                for (int r = 0; r < all.length; r++) {
                    try {
                        Wire.Reader rd = new Wire.Reader(all[r], "split entry of rank " + r);
                        int c = rd.i32();
                        int k = rd.i32();
                        if (c == color) {
                            members.add(new Member(r, k, rd.address()));
                            rd.end();
                        }
                    } catch (BadFrame e) {
                        throw new JcclException(ErrorCode.REMOTE_ERROR, rank, e.getMessage(), e);
                    }
                }
                members.sort(Comparator.comparingInt(Member::key).thenComparingInt(Member::parentRank));
                List<PeerInfo> infos = new ArrayList<>();
                int newRank = -1;
                for (int i = 0; i < members.size(); i++) {
                    Member m = members.get(i);
                    infos.add(peers.get(m.parentRank).renumbered(i, m.address));
                    if (m.parentRank == rank) {
                        newRank = i;
                    }
                }
                byte[] childSecret = splitSecret(seq, color);
                child.start(newRank, members.size(), childSecret, handshakeTimeout(config));
                infos.forEach(p -> child.setAddress(p.rank(), p.bootstrapAddress()));
                Log.of(config, newRank).info(Subsys.BOOTSTRAP, "split color " + color + " key " + key + ": rank " + rank
                        + " became rank " + newRank + " of " + members.size());
                return new Bootstrap(newRank, infos, child, childSecret, config);
            } catch (RuntimeException e) {
                if (child != null) {
                    child.close();
                }
                throw e;
            }
        }
    }

    /**
     * A bootstrap of the ranks not in {@code exclude}, renumbered in their order here, as
     * {@code ncclCommShrink}: every remaining rank must call it with the same ranks (in any order),
     * and the excluded ones need not be alive. The remaining ranks check that they agree and fail
     * naming two that differ. The new bootstrap has its own listeners and a secret derived from this
     * one.
     */
    public Bootstrap shrink(int[] exclude) {
        if (exclude == null) {
            throw JcclException.invalidArgument(rank, "excludeRanks", "is null");
        }
        KeepAlive beats = keepAlive;
        if (beats != null && beats.selfLost()) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "this rank was declared lost by the others (it was stopped or"
                    + " cut off too long); it cannot take part in their shrink: close the communicator");
        }
        int[] out = java.util.Arrays.stream(exclude).sorted().distinct().toArray();
        for (int r : out) {
            checkPeer(r, "excludeRanks");
            if (r == rank) {
                throw JcclException.invalidArgument(rank, "excludeRanks", "holds this rank itself; an excluded rank does not call shrink");
            }
        }
        int[] ring = java.util.stream.IntStream.range(0, size()).filter(r -> java.util.Arrays.binarySearch(out, r) < 0).toArray();
        int me = java.util.Arrays.binarySearch(ring, rank);
        synchronized (collective) {
            int seq = ++shrinks;
            PeerLinks child = PeerLinks.bind(links.address().getAddress(), rank, config);
            try {
                Wire.Writer w = new Wire.Writer().i32(out.length);
                for (int r : out) {
                    w.i32(r);
                }
                byte[][] all = ringAllGather(links, ring, me, w.address(child.address()).toByteArray(),
                        Deadline.after(config.bootstrapTimeout()), TAG_SHRINK);
                List<PeerInfo> infos = new ArrayList<>();
                for (int i = 0; i < ring.length; i++) {
                    try {
                        Wire.Reader rd = new Wire.Reader(all[i], "shrink entry of rank " + ring[i]);
                        int[] theirs = new int[Math.min(rd.i32(), size())];
                        for (int k = 0; k < theirs.length; k++) {
                            theirs[k] = rd.i32();
                        }
                        if (!java.util.Arrays.equals(theirs, out)) {
                            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "shrink: rank " + rank + " excludes ranks "
                                    + java.util.Arrays.toString(out) + " but rank " + ring[i] + " excludes "
                                    + java.util.Arrays.toString(theirs) + "; every remaining rank must exclude the same ranks");
                        }
                        infos.add(peers.get(ring[i]).renumbered(i, rd.address()));
                        rd.end();
                    } catch (BadFrame e) {
                        throw new JcclException(ErrorCode.REMOTE_ERROR, rank, e.getMessage(), e);
                    }
                }
                Mac m = SecureChannel.hmac(secret);
                m.update("jccl/1 shrink".getBytes(StandardCharsets.US_ASCII));
                Wire.Writer context = new Wire.Writer().i32(seq);
                for (int r : out) {
                    context.i32(r);
                }
                m.update(context.toByteArray());
                byte[] childSecret = m.doFinal();
                child.start(me, ring.length, childSecret, handshakeTimeout(config));
                infos.forEach(p -> child.setAddress(p.rank(), p.bootstrapAddress()));
                Log.of(config, me).info(Subsys.BOOTSTRAP, "shrink excluding " + java.util.Arrays.toString(out) + ": rank " + rank
                        + " became rank " + me + " of " + ring.length);
                return new Bootstrap(me, infos, child, childSecret, config);
            } catch (RuntimeException e) {
                child.close();
                throw e;
            }
        }
    }

    /**
     * Starts heartbeats with the ranks of other processes, one every {@code interval}
     * ({@link KeepAlive}), each carrying what {@code probe} says of this rank's call: {@code onLost} hears (why, rank) once for each rank found lost (stopped,
     * unreachable, or gone without closing), and for this rank itself if the others declared it
     * lost while it was stopped, and (with rank -1) what another rank told with {@link #tellPeers}.
     * {@link #close()} stops them and tells the peers this rank leaves.
     */
    public synchronized void keepAlive(Duration interval, java.util.function.ObjIntConsumer<String> onLost, CallProbe probe) {
        if (keepAlive != null) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "the keep-alive of this bootstrap runs already");
        }
        keepAlive = KeepAlive.start(links, TAG_KEEPALIVE, rank, peers, interval, onLost, probe);
    }

    /** What the heartbeats say of this rank's calls, and who hears what the peers' say. */
    public interface CallProbe {
        /** The call this rank started last, encoded (a few bytes), or null; every heartbeat carries it. */
        byte[] current();

        /** How long the operation under way has run, 0 between operations: a call that runs long is sent at once. */
        long runningNanos();

        /** {@code peer}'s call as its heartbeat carried it (called on a jccl thread). */
        void heard(int peer, byte[] call);
    }

    /** Makes {@code root} (this rank's process hosts it) live as long as this bootstrap. */
    void host(BootstrapRoot root) {
        hosted = root;
    }

    /**
     * {@code l} hears when a rank of this job comes to the root this rank hosts after the
     * rendezvous, because a stranger of another job (same address and secret) took its place:
     * the job must fail. Nothing is heard where this rank hosts no root.
     */
    public void onStranger(java.util.function.Consumer<String> l) {
        BootstrapRoot r = hosted;
        if (r != null) {
            r.onStranger(l);
        }
    }

    /** Tells the other ranks (through the keep-alive, if it runs) why this rank fails the communicator. */
    public void tellPeers(String why) {
        KeepAlive k = keepAlive;
        if (k != null) {
            k.tell(why);
        }
    }

    /** The ranks the keep-alive declared lost, ascending (none without a keep-alive). */
    public int[] lostRanks() {
        KeepAlive k = keepAlive;
        return k == null ? new int[0] : k.lost();
    }

    /**
     * A key for another purpose of this communicator (the socket transport's connections), derived
     * from the secret: HMAC-SHA256(secret, "jccl/1 " + label, context). Only ranks that know the
     * secret can compute it, and it never crosses the wire.
     */
    public byte[] deriveKey(String label, byte[] context) {
        Mac m = SecureChannel.hmac(secret);
        m.update(("jccl/1 " + label).getBytes(StandardCharsets.US_ASCII));
        m.update(context);
        return m.doFinal();
    }

    private byte[] splitSecret(int seq, int color) {
        Mac m = SecureChannel.hmac(secret);
        m.update("jccl/1 split".getBytes(StandardCharsets.US_ASCII));
        m.update(new Wire.Writer().i32(seq).i32(color).toByteArray());
        return m.doFinal();
    }

    private void checkPeer(int peer, String argument) {
        if (peer < 0 || peer >= size()) {
            throw JcclException.invalidArgument(rank, argument, "is " + peer + ", not a rank of 0.." + (size() - 1));
        }
    }

    private void checkTag(int tag) {
        if (tag < 0) {
            throw JcclException.invalidArgument(rank, "tag", "is " + tag + "; negative tags are the bootstrap's own");
        }
    }

    private void checkMessage(byte[] data, String argument) {
        if (data == null) {
            throw JcclException.invalidArgument(rank, argument, "is null");
        }
        if (data.length > MAX_MESSAGE) {
            throw JcclException.invalidArgument(rank, argument, "holds " + data.length + " bytes; bootstrap messages hold at most "
                    + MAX_MESSAGE);
        }
    }

    /** Closes this rank's listener and connections; calls blocked in another thread fail at once. */
    @Override
    public void close() {
        KeepAlive k = keepAlive;
        if (k != null) {
            k.stop();
        }
        links.close();
        BootstrapRoot r = hosted;
        if (r != null) {
            r.close();
        }
    }

    @Override
    public String toString() {
        return "Bootstrap[rank " + rank + " of " + size() + ", listening at " + links.address() + "]";
    }
}
