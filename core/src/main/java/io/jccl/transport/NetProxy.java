// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.Config;
import io.jccl.Config.Subsys;
import io.jccl.log.Log;
import io.jccl.proto.Protocol;
import io.jccl.transport.net.ListenComm;
import io.jccl.transport.net.MemoryHandle;
import io.jccl.transport.net.MemoryKind;
import io.jccl.transport.net.Net;
import io.jccl.transport.net.NetHandle;
import io.jccl.transport.net.NetProperties;
import io.jccl.transport.net.NetSetup;
import io.jccl.transport.net.Nets;
import io.jccl.transport.net.RecvComm;
import io.jccl.transport.net.SendComm;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The network transport of one process's domain, for connections whose {@link Transport} is NET:
 * each such connection has an ordinary in-process FIFO at both ends, and this proxy moves its
 * messages over a {@link Net} (sockets or ibverbs, as {@link Nets#open} chooses). On the
 * sender's side {@link NetSender} threads take each message the lane put in the FIFO (in its slot,
 * or in the lane's memory for a by-reference message), {@code isend} it and release it when the
 * net says it was sent; on the receiver's side {@link NetReceiver} threads post {@code irecv}s
 * into the FIFO's free slots (up to {@link Protocol#STEPS}, in order) and publish each message
 * when the net says it arrived. The lanes see in-process FIFOs only, and the proxy nothing of the
 * wire: a connection is a send or receive comm named by its tag, {@link FifoKey#pack}.
 *
 * <p>A connection whose net fails (a broken connection, a bad frame, a peer that cannot be
 * reached) aborts the domain naming the peer. A closing rank's messages leave first, bounded
 * ({@link #finish}). The process listens once; every rank's handle is exchanged through the
 * bootstrap at init, and a sender connects when its connection is first used.
 */
final class NetProxy implements AutoCloseable {
    /** How long a closing rank waits for its messages to leave. */
    private static final long FINISH_NANOS = 30_000_000_000L;
    private static final int DEVICE = 0;

    final NetOwner owner;
    final Net net;
    private final int nranks;
    /** The communicator's shared settings (buffer sizes, timeout). */
    private final Config config;
    final PeerProcesses peers;
    private final ListenComm listener;
    private final NetHandle[] handles;
    /** FIFOs whose messages this process sends (drained when their rank closes). */
    private final List<Fifo> sendFifos = new CopyOnWriteArrayList<>();
    /** Receiving connections admitted, by tag: a connection comes once. */
    private final Set<Long> admitted = ConcurrentHashMap.newKeySet();
    private final NetSender sender;
    /** The user buffers this process's ranks registered: by-reference messages in them go without staging. */
    private final UserMemory user = new UserMemory();
    private final NetReceiver receiver;
    /** What the proxy's waits watch: this domain's abort, and the proxy's close. */
    final Wait.Watch watch;
    private final Log log;
    /** Each message's events, when TRACE of NET asks for them. */
    final NetTrace trace;
    private volatile boolean closed;

    /**
     * Listens on {@code bind} with the net {@link Nets#open} chooses; {@code key} (from the
     * bootstrap's secret) authenticates connections.
     */
    NetProxy(NetOwner owner, Config config, PeerProcesses peers, InetAddress bind, long commId, byte[] key, int rank) {
        this(owner, config, peers, Nets.open(config, new NetSetup(bind, commId, key, names(peers.size()),
                warning -> Log.of(config, rank).warn(Subsys.NET, warning)), rank), rank);
    }

    /** Serves the NET connections of {@code peers}'s local ranks over {@code net} (closed with the proxy). */
    NetProxy(NetOwner owner, Config config, PeerProcesses peers, Net net, int rank) {
        this.owner = owner;
        this.nranks = peers.size();
        this.config = config;
        this.peers = peers;
        this.net = net;
        this.log = Log.of(config, rank);
        this.trace = new NetTrace(log);
        this.handles = new NetHandle[nranks];
        this.watch = Wait.abortOnly(() -> closed || owner.aborted());
        try {
            listener = net.listen(DEVICE);
        } catch (IOException | RuntimeException e) {
            net.close();
            throw new JcclException(ErrorCode.SYSTEM_ERROR, rank, "cannot listen for the network transport (" + net.name() + ", "
                    + net.properties(DEVICE).name() + "): " + e.getMessage(), e);
        }
        int threads = net.proxyThreads();
        if (log.on(Config.Debug.INFO, Subsys.NET)) {
            NetProperties p = net.properties(DEVICE);
            log.info(Subsys.NET, "using NET/" + net.name() + " (" + net.devices() + " device" + (net.devices() == 1 ? "" : "s")
                    + "), device " + DEVICE + ": " + p.name() + (p.pciPath() != null ? " at " + p.pciPath() : "") + ", "
                    + p.speedMbps() + " Mbit/s, " + p.maxRequests() + " requests per comm; " + threads
                    + " proxy thread" + (threads == 1 ? "" : "s") + " per direction");
        }
        sender = new NetSender(this, threads);
        receiver = new NetReceiver(this, threads);
        Thread.ofVirtual().name("jccl-net-admit").start(this::acceptLoop);
    }

    /** How the net names a connection's tag: its FIFO, or the number when no FIFO has it. */
    private static java.util.function.LongFunction<String> names(int nranks) {
        return tag -> {
            FifoKey k = connection(tag, nranks);
            return k != null ? k.toString() : "connection " + Long.toHexString(tag);
        };
    }

    /** The FIFO a tag names among {@code nranks} ranks, or null when none does. */
    private static FifoKey connection(long tag, int nranks) {
        long n = (long) nranks * nranks * FifoKey.MAX_CHANNELS * Protocol.values().length;
        FifoKey k = tag >= 0 && tag < n ? FifoKey.unpack(tag, nranks) : null;
        return k != null && k.from() != k.to() ? k : null;
    }

    /** The key that authenticates a communicator's connections, derived from the bootstrap's secret. */
    static byte[] key(io.jccl.bootstrap.Bootstrap bootstrap, long commId) {
        return bootstrap.deriveKey("net", ByteBuffer.allocate(8).putLong(commId).array());
    }

    /** Every rank contributes its process's listener handle and learns everyone's (collective over the bootstrap). */
    void exchangeAddresses(io.jccl.bootstrap.Bootstrap bootstrap) {
        byte[][] all = bootstrap.allGather(listener.handle().bytes());
        for (int r = 0; r < all.length; r++) {
            setHandle(r, new NetHandle(all[r]));
        }
    }

    /** This process's listener, as senders reach it. */
    NetHandle handle() {
        return listener.handle();
    }

    void setHandle(int rank, NetHandle h) {
        handles[rank] = h;
    }

    /** Whether a connection from rank {@code from} to rank {@code to} (one of them local) was made, on any channel. */
    boolean connected(int from, int to) {
        for (NetSender.Conn c : sender.conns) {
            if (c.fifo.from == from && c.fifo.to == to) {
                return true;
            }
        }
        for (long tag : admitted) {
            FifoKey k = connection(tag, nranks);
            if (k != null && k.from() == from && k.to() == to) {
                return true;
            }
        }
        return false;
    }

    boolean closed() {
        return closed;
    }

    /**
     * Starts sending what the local rank {@code f.from} writes into {@code f} to rank {@code f.to}:
     * a virtual thread connects (retrying until the timeout), then a send thread serves it.
     */
    void startSend(Fifo f) {
        sendFifos.add(f);
        Thread.ofVirtual().name("jccl-net-connect-" + f).start(() -> {
            try {
                NetHandle to = handles[f.to];
                if (to == null) {
                    throw new IOException("no handle of rank " + f.to + "'s listener");
                }
                long tag = FifoKey.pack(f.protocol, f.channel, f.from, f.to, nranks);
                SendComm comm = net.connect(DEVICE, to, tag, System.nanoTime() + config.timeout().toNanos());
                MemorySegment region = sendRegion(f);
                MemoryHandle memory = net.register(comm, region, MemoryKind.HOST);
                sender.add(new NetSender.Conn(f, comm, memory, user));
                log.info(Subsys.NET, () -> connected(f.protocol, f.channel, f.from, f.to, "send"));
            } catch (IOException | RuntimeException e) {
                lost(f.from, f.to, e);
            }
        });
    }

    /** A connection's line, as NCCL's: {@code channel 00/LL : 0[pid] -> 1[pid] [send] via NET/Socket/0}. */
    private String connected(Protocol protocol, int channel, int from, int to, String direction) {
        return String.format("channel %02d/%s : %s -> %s [%s] via NET/%s/%d", channel, protocol, peers.describe(from),
                peers.describe(to), direction, net.name(), DEVICE);
    }

    /** One more registration of the user buffer {@code buffer} ({@code Communicator.register}). */
    void registerUser(MemorySegment buffer) {
        user.add(buffer);
    }

    /** One registration of {@code buffer} fewer; the last one drops its net registrations. */
    void deregisterUser(MemorySegment buffer) {
        MemorySegment last = user.remove(buffer);
        if (last != null) {
            sender.forget(last);
        }
    }

    /** The net and how it connects, for logs: {@code NET/IB (1 proxy thread(s) per direction, 1 queue pair(s) per connection)}. */
    String describe() {
        return describe("", "");
    }

    /** The same with {@code first} and {@code last} inside the parentheses (the CUDA engine's "pinned host memory, "). */
    String describe(String first, String last) {
        return "NET/" + net.name() + " (" + first + net.proxyThreads() + " proxy thread(s) per direction, " + net.connectionShape()
                + last + ")";
    }

    /** Where a sending FIFO's messages lie when the lane did not pass them by reference. */
    private static MemorySegment sendRegion(Fifo f) {
        return f instanceof LineFifo l ? l.recvStage : f.mem;
    }

    private void acceptLoop() {
        long wait = Wait.Pacing.NET_IDLE.maxParkNanos();
        while (!closed) {
            RecvComm c;
            try {
                c = net.accept(listener, System.nanoTime() + wait);
            } catch (IOException | RuntimeException e) {
                if (!closed) {
                    lost(peers.localRanks()[0], -1, e);
                }
                return;
            }
            if (c != null) {
                admit(c);
            }
        }
    }

    /** Hands an accepted connection to the receiving FIFO its tag names; drops and logs anything else. */
    private void admit(RecvComm c) {
        FifoKey k = connection(c.tag(), nranks);
        try {
            if (k == null || !peers.inProcess(k.to()) || peers.transport(k.from(), k.to()) != Transport.NET) {
                throw new IOException("impossible connection " + (k != null ? k.toString() : Long.toHexString(c.tag())));
            }
            if (!admitted.add(c.tag())) {
                throw new IOException(k + " came twice");
            }
            Fifo f = owner.receiveFifo(k.protocol(), k.channel(), k.from(), k.to());
            MemorySegment region = f instanceof LineFifo l ? l.sendStage : f.mem;
            MemoryHandle memory = net.register(c, region, MemoryKind.HOST);
            receiver.add(new NetReceiver.Conn(f, c, memory, k.protocol().maxMessageBytes(k.protocol().buffSize(config))));
            log.info(Subsys.NET, () -> connected(k.protocol(), k.channel(), k.from(), k.to(), "receive"));
        } catch (IOException | RuntimeException e) {
            log.warn(Subsys.NET, "dropped a connection to the network transport: " + e.getMessage());
            net.closeRecv(c);
        }
    }

    /**
     * Rank {@code rank} of this process closes: waits (bounded) until the messages it sent have
     * all left, ends its connections (so the receivers take the close for what it is, not for a
     * lost peer), and stops receiving on its connections (their FIFOs go with its arena).
     */
    void finish(int rank) {
        long budget = Math.min(FINISH_NANOS, config.timeout().toNanos());
        long deadline = System.nanoTime() + budget;
        Wait wait = new Wait(watch, budget, Wait.Pacing.NET_POLL);
        wait.begin();
        drain:
        for (Fifo f : sendFifos) {
            // A message is released only once the net sent it.
            while (f.from == rank && f.tail() != f.head()) {
                if (!wait.pause()) {
                    break drain;
                }
            }
        }
        sender.end(rank, deadline);
        receiver.detach(rank);
    }

    /** A connection of {@code local} with {@code remote} failed: the domain fails naming the peer. */
    void lost(int local, int remote, Throwable e) {
        if (closed || owner.aborted()) {
            return;
        }
        owner.abort(remote < 0 ? "rank " + local + ": the network transport failed: " + e
                : "rank " + local + " lost its connection with " + peers.describe(remote) + ": " + e.getMessage(), local, remote);
    }

    @Override
    public void close() {
        closed = true;
        sender.wakeAll();
        receiver.wakeAll();
        net.close();
    }
}
