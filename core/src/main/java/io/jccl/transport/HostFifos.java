// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.proto.Protocol;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The host engine's FIFOs of one communicator's ranks in this process, each made on first use by
 * the {@link Transport} of its connection: between threads of this process in the receiver's
 * memory ({@link Transport#P2P}), between processes of one host in a {@code /dev/shm} file both
 * map ({@link Transport#SHM}), to and from other hosts as an in-process FIFO whose other end is
 * the socket proxy ({@link Transport#NET}). An abort is written into every shared FIFO, so that
 * the other processes' waits end too.
 */
public final class HostFifos {
    private final int nranks;
    private final Config config;
    /** Where the ranks run; null when all are threads of this process. */
    private final PeerProcesses peers;
    /** A local rank's memory for the FIFOs it receives on (and those it sends on over sockets). */
    private final IntFunction<Arena> arenas;
    /** Where single-copy verdicts are told (JCCL_DEBUG=INFO), or null. */
    private final Consumer<String> info;
    /** Per protocol and channel, the FIFOs indexed by from * nranks + to. */
    private final AtomicReferenceArray<AtomicReferenceArray<Fifo>> fifos =
            new AtomicReferenceArray<>(Protocol.values().length * FifoKey.MAX_CHANNELS);
    /** Sender ends of socket connections between two ranks of this process (the table holds their receiver ends). */
    private final ConcurrentHashMap<Long, Fifo> loopbackSends = new ConcurrentHashMap<>();
    /** The shared-memory FIFOs this process mapped (their abort words carry an abort to the other processes). */
    private final List<Fifo> shared = new CopyOnWriteArrayList<>();
    /** The socket transport, when some ranks are on other hosts (set once at init); else null. */
    private volatile NetProxy net;

    /**
     * FIFOs among {@code nranks} ranks placed as {@code peers} says (null: all threads of this
     * process), in the arena {@code arenas} gives each local rank; {@code info} (or null) hears
     * how large messages from other processes will come.
     */
    public HostFifos(int nranks, Config config, PeerProcesses peers, IntFunction<Arena> arenas, Consumer<String> info) {
        this.nranks = nranks;
        this.config = config;
        this.peers = peers;
        this.arenas = arenas;
        this.info = info;
    }

    /** The FIFO rank {@code to} receives on from {@code from}: the connection's, created on first use. */
    public Fifo receiving(Protocol protocol, int channel, int from, int to) {
        if (channel >= FifoKey.MAX_CHANNELS) {
            throw new IllegalStateException("channel " + channel + " beyond " + FifoKey.MAX_CHANNELS);
        }
        int pc = protocol.ordinal() * FifoKey.MAX_CHANNELS + channel;
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
                        case P2P -> Fifo.create(protocol, arenas.apply(to), channel, from, to, protocol.buffSize(config));
                        case SHM -> inSharedMemory(protocol, channel, from, to);
                        case NET -> overNetwork(protocol, channel, from, to, peers.inProcess(to) ? to : from);
                    };
                    perChannel.set(i, f);
                }
            }
        }
        return f;
    }

    /**
     * The FIFO the sending lane of {@code from} writes: the connection's, except between two ranks
     * of this process that talk over sockets (P2P and SHM disabled), where each end has its own.
     */
    public Fifo sending(Protocol protocol, int channel, int from, int to) {
        if (peers == null || !peers.inProcess(to) || peers.transport(from, to) != Transport.NET) {
            return receiving(protocol, channel, from, to);
        }
        return loopbackSends.computeIfAbsent(FifoKey.pack(protocol, channel, from, to, nranks),
                k -> overNetwork(protocol, channel, from, to, from));
    }

    /**
     * Starts the socket transport of these FIFOs (the first local rank that calls; {@code owner}
     * hears of its failures) and lets local rank {@code rank} contribute its listener's address:
     * collective over the bootstrap, every rank calls it.
     */
    public void connectNet(io.jccl.bootstrap.Bootstrap bootstrap, NetOwner owner, long commId, int rank) {
        net(() -> new NetProxy(owner, config, peers, bootstrap.peer(rank).addresses().getFirst(), commId,
                NetProxy.key(bootstrap, commId), rank)).exchangeAddresses(bootstrap);
    }

    /** The network transport and how it connects (JCCL_DEBUG=INFO), or null before {@link #connectNet}. */
    public String describeNet() {
        NetProxy n = net;
        return n != null ? n.describe() : null;
    }

    /** Whether a network connection from rank {@code from} to rank {@code to} (one of them local) was ever made. */
    public boolean netConnected(int from, int to) {
        NetProxy n = net;
        return n != null && n.connected(from, to);
    }

    /** The network transport, made by the first caller ({@code make}). */
    synchronized NetProxy net(java.util.function.Supplier<NetProxy> make) {
        if (net == null) {
            net = make.get();
        }
        return net;
    }

    /**
     * Rank's registration of the user buffer {@code buffer}: the network transport sends large
     * messages straight out of it (without a net, nothing to do).
     */
    public void registerUser(MemorySegment buffer) {
        NetProxy n = net;
        if (n != null) {
            n.registerUser(buffer);
        }
    }

    /** Undoes one {@link #registerUser} of {@code buffer}. */
    public void deregisterUser(MemorySegment buffer) {
        NetProxy n = net;
        if (n != null) {
            n.deregisterUser(buffer);
        }
    }

    /** A local rank closes: what it sent over sockets leaves first, then its connections end (before its arena goes). */
    public void finish(int rank) {
        NetProxy n = net;
        if (n != null) {
            n.finish(rank);
        }
    }

    /** The last local rank closed: files no peer mapped are removed, the socket transport stops. */
    public void close() {
        if (peers != null) {
            ShmFiles.removeUnclaimed(peers.commId);
        }
        NetProxy n = net;
        if (n != null) {
            n.close();
        }
    }

    /**
     * Tells the other processes of this host that rank {@code by} aborted (after losing rank
     * {@code lost}, or -1): the abort word in every shared FIFO this process mapped, and in every
     * file of the communicator whose other side has not come yet.
     */
    public void abort(int by, int lost) {
        long word = FifoLayout.abortWord(by, lost);
        for (Fifo f : shared) {
            f.abort(word);
        }
        if (peers != null) {
            ShmFiles.abortAll(peers.commId, word);
        }
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
        Fifo f = Fifo.create(protocol, arenas.apply(local), channel, from, to, protocol.buffSize(config));
        if (local == from) {
            n.startSend(f);
        }
        return f;
    }

    /** A FIFO to or from a rank of another process of this host, in a {@code /dev/shm} file. */
    private Fifo inSharedMemory(Protocol protocol, int channel, int from, int to) {
        int local = peers.inProcess(to) ? to : from;
        long buff = protocol.buffSize(config);
        Path path = ShmFiles.path(peers.commId, protocol, channel, from, to, peers.pid(from), peers.pid(to));
        Arena arena = arenas.apply(local);
        MemorySegment shm = ShmFiles.attach(path, Fifo.bytes(protocol.slotBytes(buff)), arena, local);
        Fifo f = Fifo.over(protocol, arena, shm, channel, from, to, buff);
        if (f instanceof SimpleFifo s) {
            if (local == from && config.crossMemory()) {
                s.offerCrossMemory();
            } else if (local == to && info != null) {
                s.logTo(m -> info.accept("rank " + to + ": " + m));
            }
        }
        shared.add(f);
        return f;
    }
}
