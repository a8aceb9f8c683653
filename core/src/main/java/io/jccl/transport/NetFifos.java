// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.Config;
import io.jccl.bootstrap.Bootstrap;
import io.jccl.proto.Protocol;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The network transport for another engine's FIFOs: those of the CUDA engine, in pinned host
 * memory its kernels reach. A kernel that sends to a rank on another host writes into a FIFO of
 * this process ({@link #sending}), which the {@link NetProxy}'s threads empty onto the network; a
 * kernel that receives from one reads a FIFO ({@link #receiving}) the proxy fills from it, as the
 * host engine's own net connections do (NCCL's net transport with host-memory buffers). The FIFOs
 * keep the host engine's layout, which the kernels share, so the proxy reads and writes them with
 * the host engine's protocol code; the engine gives the memory ({@link Memory}) and marks these
 * connections for system-scope fences in its kernels.
 *
 * <p>LL128 cannot cross the CPU: its 128-byte lines are atomic only within a GPU's memory system,
 * not between a CPU and a GPU over PCIe, so an engine using this transport must leave LL128 out
 * (as NCCL does off NVLink; the CUDA engine does so at init).
 *
 * <p>Example (what the CUDA engine does at init, collectively over the bootstrap):
 * <pre>{@code
 * if (NetFifos.needed(bootstrap, settings.p2pDisable(), settings.shmDisable())) {
 *     NetFifos net = new NetFifos(bootstrap, settings.commId(), config, peers, rank, hostMemory, aborted, onFailure);
 *     net.exchangeAddresses(bootstrap);
 *     MemorySegment in = net.receiving(Protocol.SIMPLE, 0, peer, rank);   // the kernel polls its tail
 * }
 * }</pre>
 */
public final class NetFifos implements NetOwner, AutoCloseable {
    /** Zeroed host memory the engine's kernels reach (pinned and mapped), kept until the engine frees it. */
    public interface Memory {
        MemorySegment allocate(long bytes);
    }

    /** Told once when a connection breaks or brings a bad frame: {@code cause} names rank {@code by}'s loss of {@code lost}. */
    public interface Failure {
        void failed(String cause, int by, int lost);
    }

    private final int nranks;
    private final Config config;
    private final PeerProcesses peers;
    private final Memory memory;
    private final BooleanSupplier engineAborted;
    private final Failure failure;
    /** The LL protocols' staging buffers (the proxy unpacks lines there). */
    private final Arena staging = Arena.ofShared();
    private final ConcurrentHashMap<Long, Fifo> receiving = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, Fifo> sending = new ConcurrentHashMap<>();
    private final NetProxy proxy;
    private volatile String cause;

    /** Whether some pair of the communicator's ranks talks over the network: then every rank makes one (collective). */
    public static boolean needed(Bootstrap bootstrap, boolean p2pDisable, boolean shmDisable) {
        return Transport.anyNet(bootstrap.peers(), p2pDisable, shmDisable);
    }

    /**
     * Listens on the address the bootstrap found for {@code rank}; {@code config} holds the
     * communicator's shared settings; the engine's abort ({@code engineAborted}) stops the proxy.
     */
    public NetFifos(Bootstrap bootstrap, long commId, Config config, PeerProcesses peers, int rank, Memory memory,
                    BooleanSupplier engineAborted, Failure failure) {
        this.nranks = bootstrap.size();
        this.config = config;
        this.peers = peers;
        this.memory = memory;
        this.engineAborted = engineAborted;
        this.failure = failure;
        this.proxy = new NetProxy(this, config, peers, bootstrap.peer(rank).addresses().getFirst(), commId, NetProxy.key(bootstrap, commId), rank);
    }

    /** Every rank contributes its process's listener and learns everyone's (collective over the bootstrap). */
    public void exchangeAddresses(Bootstrap bootstrap) {
        proxy.exchangeAddresses(bootstrap);
    }

    /** The FIFO local rank {@code to} receives on from {@code from}, which the proxy fills from the network. */
    public MemorySegment receiving(Protocol protocol, int channel, int from, int to) {
        return receiveFifo(protocol, channel, from, to).mem;
    }

    /** The FIFO local rank {@code from} sends to {@code to} through, which the proxy empties onto the network. */
    public MemorySegment sending(Protocol protocol, int channel, int from, int to) {
        return sending.computeIfAbsent(key(protocol, channel, from, to), k -> {
            Fifo f = make(protocol, channel, from, to);
            proxy.startSend(f);
            return f;
        }).mem;
    }

    @Override
    public Fifo receiveFifo(Protocol protocol, int channel, int from, int to) {
        return receiving.computeIfAbsent(key(protocol, channel, from, to), k -> make(protocol, channel, from, to));
    }

    private Fifo make(Protocol protocol, int channel, int from, int to) {
        long buff = protocol.buffSize(config);
        return Fifo.over(protocol, staging, memory.allocate(Fifo.bytes(protocol.slotBytes(buff))), channel, from, to, buff);
    }

    private long key(Protocol protocol, int channel, int from, int to) {
        return FifoKey.pack(protocol, channel, from, to, nranks);
    }

    /** Local rank {@code rank} closes: what it sent leaves first (bounded), then its connections end. */
    public void finish(int rank) {
        proxy.finish(rank);
    }

    /** Why the transport failed, or null. */
    public String failure() {
        return cause;
    }

    /** The network transport and how it connects, with {@code first} and {@code last} inside its parentheses (logs). */
    public String describe(String first, String last) {
        return proxy.describe(first, last);
    }

    /** Where every rank runs, and which connections go over the network. */
    public PeerProcesses peers() {
        return peers;
    }

    @Override
    public boolean aborted() {
        return cause != null || engineAborted.getAsBoolean();
    }

    @Override
    public void abort(String why, int by, int lost) {
        synchronized (this) {
            if (cause != null) {
                return;
            }
            cause = why;
        }
        failure.failed(why, by, lost);
    }

    /** Stops the proxy and closes its net; the FIFOs' memory stays the engine's to free. */
    @Override
    public void close() {
        proxy.close();
        staging.close();
    }
}
