package io.jccl.engine.host;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.proto.Protocol;
import io.jccl.tune.Tuner;

import java.lang.foreign.Arena;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What the ranks of one communicator in this process share: their FIFOs (each allocated when first
 * used: from the receiver's arena between ranks of this process, in a {@code /dev/shm} file mapped
 * by both sides between processes of one host), the plans they compute alike (so each is made
 * once), and the abort flag that makes every local rank's waits give up as soon as one rank fails
 * (written into the shared FIFOs too, so that the other processes give up as well).
 */
final class HostDomain implements NetOwner, Wait.Watch {
    /** Highest channel index a plan may use (tree lanes are doubled for the split tree). */
    static final int MAX_CHANNELS = 256;

    final int nranks;
    final Config config;
    /** The Simple protocol's slot: the largest message of a send/recv exchange. */
    final long slotBytes;
    final HostComm[] comms;
    /** Per protocol, per channel, the FIFOs indexed by from * nranks + to. */
    private final AtomicReferenceArray<AtomicReferenceArray<Fifo>> fifos =
            new AtomicReferenceArray<>(Protocol.values().length * MAX_CHANNELS);
    /** Sender ends of socket connections between two ranks of this process (the table above holds their receiver ends). */
    private final ConcurrentHashMap<Long, Fifo> loopbackSends = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<HostPlanner.CallKey, HostPlanner.Planned> plans = new ConcurrentHashMap<>();
    /** Chooses every call's algorithm, protocol and channels; built once from the shared configuration. */
    final Tuner tuner;
    /** Which server each rank is on (the tuner's, so plans and choices see one layout). */
    final io.jccl.topo.ServerLayout layout;
    /** Where the ranks run when they span processes; null when all are threads of this process. */
    final PeerProcesses peers;
    /** The shared-memory FIFOs this process mapped (their abort words carry an abort to the other processes). */
    private final java.util.List<Fifo> sharedFifos = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile String abortCause;
    private volatile int lostRank = -1;
    /** The socket transport, when some ranks are on other hosts (set once at init); else null. */
    private volatile NetProxy net;
    /** Local ranks that joined and have not closed yet (the last one removes leftover files). */
    private int open;

    HostDomain(int nranks, Config config, io.jccl.topo.ServerLayout layout) {
        this(nranks, config, Tuner.create(config, layout), null);
    }

    HostDomain(int nranks, Config config, Tuner tuner, PeerProcesses peers) {
        this.nranks = nranks;
        this.config = config;
        this.slotBytes = Protocol.SIMPLE.slotBytes(config.buffSize());
        this.comms = new HostComm[nranks];
        this.tuner = tuner;
        this.layout = tuner.layout();
        this.peers = peers;
    }

    /** Counts a local rank in; {@link #leave} counts it out. */
    synchronized void join(HostComm c) {
        comms[c.rank()] = c;
        open++;
    }

    /** A local rank closes: what it sent over sockets leaves first, then its connections end (before its arena goes). */
    void finishNet(int rank) {
        NetProxy n = net;
        if (n != null) {
            n.finish(rank);
        }
    }

    /** Counts a closing local rank out; the last one removes the files no peer will map. */
    void leave() {
        boolean last;
        synchronized (this) {
            last = --open == 0;
        }
        if (last && peers != null) {
            ShmFiles.removeUnclaimed(peers.commId);
            NetProxy n = net;
            if (n != null) {
                n.close();
            }
        }
    }

    /** The rank a process of which died, as the first failure saw it, or -1. */
    int lostRank() {
        return lostRank;
    }

    @Override
    public boolean aborted() {
        return abortCause != null;
    }

    @Override
    public boolean dead(int rank) {
        return peers != null && peers.dead(rank);
    }

    @Override
    public int anyDead() {
        return peers == null ? -1 : peers.lost();
    }

    String abortCause() {
        return abortCause;
    }

    /**
     * Makes every wait of every local rank give up (the first cause is kept), and those of the other processes through the
     * abort word of every shared FIFO this process mapped ({@code by}: the rank that failed or
     * aborted, {@code lost}: the rank whose death caused it, or -1).
     */
    @Override
    public void abort(String cause, int by, int lost) {
        synchronized (this) {
            if (abortCause != null) {
                return;
            }
            if (lost >= 0) {
                lostRank = lost;
            }
            abortCause = cause;
        }
        long word = ((long) (lost + 1) << 32) | ((by + 1) & 0xFFFF_FFFFL);
        for (Fifo f : sharedFifos) {
            try {
                Fifo.LONG.compareAndSet(f.mem, Fifo.ABORT, 0L, word);
            } catch (IllegalStateException e) {
                // its arena is closed: that rank is gone, and its peers were told when it went
            }
        }
        if (peers != null) {
            ShmFiles.abortAll(peers.commId, word);
        }
    }

    @Override
    public Fifo receiveFifo(Protocol protocol, int channel, int from, int to) {
        return fifo(protocol, channel, from, to);
    }

    /** The FIFO of a connection in one protocol, created on first use in the receiver's arena. */
    Fifo fifo(Protocol protocol, int channel, int from, int to) {
        if (channel >= MAX_CHANNELS) {
            throw new IllegalStateException("channel " + channel + " beyond " + MAX_CHANNELS);
        }
        int pc = protocol.ordinal() * MAX_CHANNELS + channel;
        AtomicReferenceArray<Fifo> perChannel = fifos.get(pc);
        if (perChannel == null) {
            fifos.compareAndSet(pc, null, new AtomicReferenceArray<>(nranks * nranks));
            perChannel = fifos.get(pc);
        }
        int i = from * nranks + to;
        Fifo f = perChannel.get(i);
        if (f == null) {
            synchronized (this) {
                f = perChannel.get(i);
                if (f == null) {
                    f = switch (peers == null ? Transport.P2P : peers.transport(from, to)) {
                        case P2P -> Fifo.create(protocol, comms[to].arena(), channel, from, to, config.buffSize(protocol));
                        case SHM -> shared(protocol, channel, from, to);
                        case NET -> overNetwork(protocol, channel, from, to, peers.inProcess(to) ? to : from);
                    };
                    perChannel.set(i, f);
                }
            }
        }
        return f;
    }

    /**
     * The FIFO the sending lane of {@code from} writes: the connection's FIFO, except between two
     * ranks of this process that talk over sockets (P2P and SHM disabled), where each end has its own.
     */
    Fifo sendFifo(Protocol protocol, int channel, int from, int to) {
        if (peers == null || !peers.inProcess(to) || peers.transport(from, to) != Transport.NET) {
            return fifo(protocol, channel, from, to);
        }
        long key = ((long) (protocol.ordinal() * MAX_CHANNELS + channel) * nranks + from) * nranks + to;
        return loopbackSends.computeIfAbsent(key, k -> overNetwork(protocol, channel, from, to, from));
    }

    /** The socket transport of this domain, made by the first local rank that asks ({@code make}). */
    synchronized NetProxy net(java.util.function.Supplier<NetProxy> make) {
        if (net == null) {
            net = make.get();
        }
        return net;
    }

    /**
     * A FIFO to or from a rank on another host: an in-process FIFO whose other end is a proxy
     * thread of the socket transport (started here on the sender's side, by the accepted
     * connection on the receiver's).
     */
    private Fifo overNetwork(Protocol protocol, int channel, int from, int to, int local) {
        NetProxy n = net;
        if (n == null) {
            throw new JcclException(ErrorCode.INTERNAL_ERROR, local, "no socket transport for " + peers.describe(local == to ? from : to));
        }
        Fifo f = Fifo.create(protocol, comms[local].arena(), channel, from, to, config.buffSize(protocol));
        if (local == from) {
            n.startSend(f);
        }
        return f;
    }

    /** A FIFO to or from a rank of another process of this host, in a {@code /dev/shm} file. */
    private Fifo shared(Protocol protocol, int channel, int from, int to) {
        int local = peers.inProcess(to) ? to : from;
        long buff = config.buffSize(protocol);
        java.nio.file.Path path = ShmFiles.path(peers.commId, protocol, channel, from, to, peers.pid(from), peers.pid(to));
        Arena arena = comms[local].arena();
        java.lang.foreign.MemorySegment shm = ShmFiles.attach(path, Fifo.bytes(protocol.slotBytes(buff)), arena, local);
        Fifo f = Fifo.over(protocol, arena, shm, channel, from, to, buff);
        if (f instanceof SimpleFifo s) {
            if (local == from && config.crossMemory()) {
                s.offerCrossMemory();
            } else if (local == to && config.debug() == Config.Debug.INFO) {
                s.logTo(m -> System.err.println("jccl INFO rank " + to + ": " + m));
            }
        }
        sharedFifos.add(f);
        return f;
    }

    HostPlanner.Planned plan(HostPlanner.CallKey key, java.util.function.Function<HostPlanner.CallKey, HostPlanner.Planned> make) {
        HostPlanner.Planned p = plans.get(key);
        if (p == null) {
            if (plans.size() > 4096) {
                plans.clear();
            }
            p = plans.computeIfAbsent(key, make);
        }
        return p;
    }
}
