// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.Config;
import io.jccl.bindings.cuda.Cuda;
import io.jccl.bootstrap.Bootstrap;
import io.jccl.cuda.CudaDriver;
import io.jccl.proto.Protocol;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/**
 * The CUDA engine's FIFOs of one communicator's ranks in this process, each made on first use by
 * the {@link Transport} of its connection, at the device address the kernels are given. A FIFO is
 * in the receiver's memory, where the sender writes:
 * <ul>
 *   <li>P2P: the receiver's GPU's device memory, when the sender's GPU is the same one or reaches
 *       it (peer access both ways, enabled on first use); between processes the receiver exports
 *       it and the sender opens it through CUDA IPC ({@link GpuProcessFifos});</li>
 *   <li>SHM: pinned host memory both GPUs map, when they cannot reach each other or
 *       JCCL_P2P_DISABLE says so; between processes a {@code /dev/shm} file both pin;</li>
 *   <li>NET: pinned host memory of this process that the socket proxy empties or fills
 *       ({@link NetFifos}).</li>
 * </ul>
 * Connections that cross GPUs or the CPU need system-scope ordering in the kernels and no LL128.
 */
public final class GpuFifos {
    private final Config config;
    /** Each rank's GPU by PCI bus id (ranks behind sockets too, unused). */
    private final String[] gpuIds;
    /** Each rank of this process's GPU; null for ranks of other processes. */
    private final GpuMemory[] gpuOf;
    /** Pairs of this process's GPUs whose kernels may write each other's memory, by PCI bus ids. */
    private final Set<List<String>> peerAccess = new HashSet<>();
    /** FIFOs between ranks of this process, made on first use. */
    private final Map<FifoKey, Long> fifos = new HashMap<>();
    /** The FIFOs shared with other processes of this host; null when every rank is in this process. */
    private final GpuProcessFifos remote;
    /** This process's abort, which ends a wait for another process's FIFO. */
    private final BooleanSupplier aborted;
    /** The socket transport of connections with ranks behind sockets (set once at init), or null. */
    private volatile NetFifos net;
    /** Pinned host memory of FIFOs (socket transport, GPUs without peer access), by host address: its device address. */
    private final Map<Long, Long> hostFifos = new ConcurrentHashMap<>();
    private final List<MemorySegment> hostAllocations = new CopyOnWriteArrayList<>();
    /** Plans whose receiving connections some local rank has made (see {@link #connect}). */
    private final Map<Object, Boolean> connected = new ConcurrentHashMap<>();

    /**
     * The FIFOs of ranks on {@code gpus} (this process's: non-null entries; all ranks' GPUs named by
     * {@code gpuIds}); {@code remote} makes those with other processes of this host (null if none).
     */
    public GpuFifos(Config config, GpuMemory[] gpus, String[] gpuIds, GpuProcessFifos remote, BooleanSupplier aborted) {
        this.config = config;
        this.gpuOf = gpus.clone();
        this.gpuIds = gpuIds.clone();
        this.remote = remote;
        this.aborted = aborted;
        Map<String, GpuMemory> byBusId = new HashMap<>();
        for (GpuMemory g : gpus) {
            if (g != null) {
                byBusId.putIfAbsent(g.busId(), g);
            }
        }
        for (GpuMemory a : byBusId.values()) {
            for (GpuMemory b : byBusId.values()) {
                if (a != b && !config.p2pDisable() && CudaDriver.canAccessPeer(a.ordinal(), b.ordinal())
                        && CudaDriver.canAccessPeer(b.ordinal(), a.ordinal())) {
                    peerAccess.add(List.of(a.busId(), b.busId()));
                }
            }
        }
    }

    /** Device address of the FIFO rank {@code to} receives on from {@code from} (made on first use). */
    public long receiving(Protocol p, int channel, int from, int to) {
        if (overSockets(from, to)) {
            return hostFifos.get(net.receiving(p, channel, from, to).address());
        }
        FifoKey k = new FifoKey(p, channel, from, to);
        long bytes = FifoLayout.bytes(p.slotBytes(p.buffSize(config)));
        if (remote != null && (gpuOf[from] == null || gpuOf[to] == null)) {
            // Outside the lock: a sender may wait here for another process, while other local ranks make theirs.
            int mine = gpuOf[to] != null ? to : from;
            return remote.fifo(k, bytes, mine, gpuOf[mine], aborted);
        }
        synchronized (fifos) {
            return fifos.computeIfAbsent(k, x -> localFifo(from, to, bytes));
        }
    }

    /**
     * Device address of the FIFO local rank {@code from} sends to {@code to} through: the
     * connection's FIFO, or, over sockets, this process's FIFO that the proxy empties.
     */
    public long sending(Protocol p, int channel, int from, int to) {
        return overSockets(from, to) ? hostFifos.get(net.sending(p, channel, from, to).address()) : receiving(p, channel, from, to);
    }

    /** A new FIFO between two ranks of this process, in the receiver's memory (see the class comment). */
    private long localFifo(int from, int to, long bytes) {
        GpuMemory sender = gpuOf[from];
        GpuMemory receiver = gpuOf[to];
        if (sender == receiver) {
            return receiver.zeroed(bytes);
        }
        if (peers(sender, receiver)) {
            sender.reach(receiver);
            return receiver.zeroed(bytes);
        }
        return hostFifos.get(hostFifo(bytes).address());
    }

    private boolean peers(GpuMemory a, GpuMemory b) {
        return peerAccess.contains(List.of(a.busId(), b.busId()));
    }

    /**
     * Whether a connection's ends are on two GPUs, or one end is the CPU (the socket proxy): it
     * needs system-scope ordering and no LL128.
     */
    public boolean crossesGpus(int from, int to) {
        if (overSockets(from, to)) {
            return true; // the CPU's proxy is the other end, even between threads of this process
        }
        return !gpuIds[from].equals(gpuIds[to]);
    }

    /** Whether the connection between {@code from} and {@code to} goes through the socket transport. */
    public boolean overSockets(int from, int to) {
        NetFifos n = net;
        return n != null && n.peers().overSockets(from, to);
    }

    /** How rank {@code from} of this process reaches rank {@code to} of this process (JCCL_DEBUG=INFO). */
    public String localTransport(int from, int to) {
        GpuMemory a = gpuOf[from];
        GpuMemory b = gpuOf[to];
        if (a == b) {
            return "P2P/device memory";
        }
        return (peers(a, b) ? "P2P/peer access to GPU " : "SHM/pinned host memory to GPU ") + b.busId() + " (LL128 off)";
    }

    /**
     * How this process's rank {@code rank} reaches {@code r} (JCCL_DEBUG=INFO), as {@code where}
     * placed them and {@code kind} puts FIFOs between processes.
     */
    public String describe(int rank, int r, GpuPlacement where, GpuProcessFifos.Kind kind) {
        NetFifos n = net;
        if (where.processes.overSockets(rank, r) && n != null) {
            return n.describe("pinned host memory, ", "; LL128 off");
        }
        if (where.local[r]) {
            return localTransport(rank, r);
        }
        if (where.otherGpu(rank, r)) {
            boolean host = where.viaHost(rank, r);
            return (host ? "SHM/pinned host memory" : "P2P/CUDA IPC") + " (its GPU " + where.gpus[r]
                    + (host ? "" : ", peer access") + "; LL128 off)";
        }
        return kind == GpuProcessFifos.Kind.IPC ? "P2P/CUDA IPC" : "SHM/pinned host memory";
    }

    /**
     * Starts the socket transport (the first local rank that calls; {@code failure} hears once of a
     * lost peer or a bad frame) and lets local rank {@code rank} contribute its listener's address:
     * collective over the bootstrap, every rank calls it.
     */
    public void connectNet(Bootstrap bootstrap, long commId, PeerProcesses peers, int rank, NetFifos.Failure failure) {
        NetFifos n;
        synchronized (this) {
            if (net == null) {
                net = new NetFifos(bootstrap, commId, config, peers, rank, this::hostFifo, aborted, failure);
            }
            n = net;
        }
        n.exchangeAddresses(bootstrap);
    }

    /**
     * Zeroed pinned host memory the GPUs reach, for a FIFO (freed when the FIFOs close). Called from
     * the proxy's threads too: the context is made current first, and nothing between that and the
     * driver's calls can unmount a virtual thread.
     */
    private MemorySegment hostFifo(long bytes) {
        firstGpu().makeCurrent();
        MemorySegment m = CudaDriver.hostAlloc(bytes, Cuda.CU_MEMHOSTALLOC_PORTABLE | Cuda.CU_MEMHOSTALLOC_DEVICEMAP);
        long onDevice = CudaDriver.hostDevicePointer(m);
        m.fill((byte) 0);
        hostAllocations.add(m);
        hostFifos.put(m.address(), onDevice);
        return m;
    }

    private GpuMemory firstGpu() {
        for (GpuMemory g : gpuOf) {
            if (g != null) {
                return g;
            }
        }
        throw new IllegalStateException("no GPU of this process");
    }

    /**
     * Makes the FIFOs {@code rank} receives on in {@code plan} before any of the FIFOs it sends on,
     * which may mean waiting for another process to make them. Every rank of a collective does the
     * same, so none waits for a rank that waits for it. Send/recv calls need not be grouped alike on
     * both sides, so for them every FIFO from each peer on every lane is made first too.
     */
    public void connect(io.jccl.plan.Plan plan, Object shape, int rank, Protocol p) {
        List<Object> key = List.of(shape, rank, p);
        if (remote == null && net == null || connected.containsKey(key)) {
            return;
        }
        java.util.Set<Integer> peers = new java.util.TreeSet<>();
        for (io.jccl.plan.Segment seg : plan.segments(rank)) {
            for (int l = 0; l < plan.lanes(); l++) {
                for (io.jccl.plan.Step st : seg.schedule().stepArray(rank, l)) {
                    for (io.jccl.plan.Link from : st.recv()) {
                        receiving(p, from.channel(), from.peer(), rank);
                    }
                    st.send().forEach(to -> peers.add(to.peer()));
                    st.recv().forEach(from -> peers.add(from.peer()));
                }
            }
        }
        if (plan.collective() == io.jccl.Collective.SEND_RECV) {
            for (int peer : peers) {
                for (int c = 0; c < plan.lanes(); c++) {
                    receiving(p, c, peer, rank);
                }
            }
        }
        // Only once all are made: a failed export is tried again by the next call of this shape.
        connected.put(key, Boolean.TRUE);
    }

    /** The FIFOs shared with other processes of this host, or null when every rank is in this process. */
    public GpuProcessFifos remote() {
        return remote;
    }

    /** A local rank closes: what it sent over sockets leaves first (bounded), then its connections end. */
    public void finish(int rank) {
        NetFifos n = net;
        if (n != null) {
            n.finish(rank);
        }
    }

    /** The last local rank left: closes what other processes opened, stops the proxy, frees the pinned memory. */
    public void close() {
        firstGpu().makeCurrent();
        if (remote != null) {
            remote.close();
        }
        if (net != null) {
            net.close();
        }
        hostAllocations.forEach(CudaDriver::freeHost);
    }
}
