package io.jccl.engine.cuda;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.cuda.CudaDriver;
import io.jccl.kernels.Kernels;
import io.jccl.kernels.WorkLayout;
import io.jccl.proto.Protocol;
import io.jccl.tune.Tuner;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The ranks of one process on one GPU: the module loaded from the PTX resource, the FIFOs between
 * the ranks (in device memory: the receiver's FIFO is where the sender writes, and every rank here
 * can reach it, which is p2p on one GPU), the abort word every kernel of the domain polls, the
 * tuner and the plans. Rank 0's configuration decides plans, as on the host engine. When the
 * communicator has ranks in other processes too, the FIFOs of their connections come from
 * {@link ProcessFifos} (CUDA IPC, or pinned host memory).
 */
final class CudaDomain {
    final int nranks;
    final Config config;
    final Tuner tuner;
    final CudaDevice device;
    /**
     * The most ranks of the communicator on one GPU (all of them, unless some are behind sockets):
     * their blocks must be resident together, so each rank's channels are capped by the GPU's
     * resident blocks over this. Every rank computes the same, so plans agree.
     */
    final int sharing;
    /** Ranks of other processes of this host on another GPU: their FIFOs are pinned host memory, reached at system scope. */
    private final boolean[] otherGpu;
    final Map<CudaPlanner.CallKey, CudaPlanner.Planned> plans = new ConcurrentHashMap<>();
    /** Which lane uses each connection in a plan (plans are cached per shape, so this is bounded too). */
    private final Map<io.jccl.plan.Plan, Map<io.jccl.plan.Connection, Integer>> lanes = new ConcurrentHashMap<>();
    private final Arena arena = Arena.ofShared();
    /** The kernels by protocol and type index, loaded on first use (read on every launch, so no lock). */
    private final AtomicReferenceArray<MemorySegment> functions =
            new AtomicReferenceArray<>(Kernels.PROTOCOLS.size() * Kernels.TYPES.size());
    /** Blocks of the executor kernels the GPU keeps resident at once; 0 until first asked. */
    private volatile int residentBlocks;
    /** FIFOs between ranks of this process, made on first use. */
    private final Map<FifoKey, Long> fifos = new HashMap<>();
    /** Which rank launched on a stream: two ranks on one stream would wait for each other forever. */
    private final Map<Long, Integer> streamOwners = new ConcurrentHashMap<>();
    private MemorySegment module;
    /**
     * The engine's own work (zeroing FIFOs, uploading descriptors, raising the abort word) goes on
     * this non-blocking stream: the legacy default stream would wait for the kernels of ranks on
     * blocking streams, which may be waiting for exactly this work.
     */
    private final MemorySegment setup;
    final long abortFlag;
    final CudaComm[] comms;
    private int open;
    /** The FIFOs shared with other processes; null when every rank is in this process. */
    private final ProcessFifos remote;
    /** Which ranks are in this process. */
    private final boolean[] local;
    /** Plans whose receiving connections some local rank has made (see {@link #connect}). */
    private final Map<Object, Boolean> connected = new ConcurrentHashMap<>();
    private volatile boolean aborted;
    /** The socket transport of connections with ranks behind sockets (set once at init), or null. */
    private volatile io.jccl.engine.host.NetFifos net;
    /** Pinned host memory of the socket transport's FIFOs, by host address: its device address. */
    private final Map<Long, Long> hostFifos = new ConcurrentHashMap<>();
    private final List<MemorySegment> hostAllocations = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Why the socket transport failed (a peer lost, a bad frame), or null. */
    private volatile String netFailure;

    record FifoKey(Protocol protocol, int channel, int from, int to) {
    }

    CudaDomain(int nranks, Config config, CudaDevice device) {
        this(nranks, config, device, tuner(config, nranks, device, nranks, null), null, null, nranks, new boolean[nranks]);
    }

    /**
     * The ranks of this process ({@code local}) of a communicator spanning processes; {@code remote}
     * makes the FIFOs of connections with the others; at most {@code sharing} ranks are on one GPU,
     * and {@code otherGpu} marks the ranks of this host's other processes on another GPU than this one's.
     */
    CudaDomain(int nranks, Config config, CudaDevice device, Tuner tuner, ProcessFifos remote, boolean[] local, int sharing,
               boolean[] otherGpu) {
        this.nranks = nranks;
        this.sharing = sharing;
        this.otherGpu = otherGpu;
        this.config = config;
        this.device = device;
        this.tuner = tuner;
        this.remote = remote;
        this.local = local;
        this.comms = new CudaComm[nranks];
        device.makeCurrent();
        this.setup = CudaDriver.createStream(io.jccl.bindings.cuda.Cuda.CU_STREAM_NON_BLOCKING);
        this.abortFlag = zeroed(64);
    }

    /**
     * The tuner of {@code nranks} ranks on {@code device}, at most {@code sharing} of them on one
     * GPU: {@link CudaTuning#tuner} for this GPU's name and multiprocessors.
     */
    static Tuner tuner(Config config, int nranks, CudaDevice device, int sharing, String tuningText) {
        return CudaTuning.tuner(config, nranks, sharing, device.name(), device.multiprocessors(), tuningText);
    }

    /** Device memory that lives as long as the domain, zeroed before any kernel sees it. */
    long zeroed(long bytes) {
        MemorySegment m = device.allocate(bytes, arena);
        synchronized (setup) {
            CudaDriver.memsetAsync(m.address(), (byte) 0, bytes, setup);
            CudaDriver.synchronize(setup);
        }
        return m.address();
    }

    /** The kernel for a protocol and data type, the module loaded on first use. */
    MemorySegment function(int protocol, int type) {
        MemorySegment f = functions.get(protocol * Kernels.TYPES.size() + type);
        return f != null ? f : load(protocol, type);
    }

    private synchronized MemorySegment load(int protocol, int type) {
        int i = protocol * Kernels.TYPES.size() + type;
        MemorySegment f = functions.get(i);
        if (f == null) {
            device.makeCurrent();
            if (module == null) {
                module = CudaDriver.loadModule(arena.allocateFrom(java.lang.foreign.ValueLayout.JAVA_BYTE, Kernels.ptx()));
            }
            f = CudaDriver.function(module, Kernels.entry(protocol, type));
            functions.set(i, f);
        }
        return f;
    }

    /**
     * How many blocks of the executor kernels the GPU runs at once: its multiprocessors times the
     * fewest blocks of any kernel one multiprocessor holds (registers decide: the kernels are built
     * for up to 640 threads). Ranks sharing the GPU wait for each other inside their kernels, so all
     * their blocks must be resident together, or the waiting ones never let the others start.
     */
    int residentBlocks() {
        int known = residentBlocks;
        return known != 0 ? known : countResidentBlocks();
    }

    /**
     * Sets the resident blocks plans assume to what every rank agreed (the fewest of any rank's
     * GPU), so that ranks on different GPUs cap their channels alike.
     */
    synchronized void agreeResidentBlocks(int blocks) {
        residentBlocks = blocks;
    }

    private synchronized int countResidentBlocks() {
        if (residentBlocks == 0) {
            int perSm = Integer.MAX_VALUE;
            for (Protocol p : Protocol.values()) {
                for (int t = 0; t < Kernels.TYPES.size(); t++) {
                    MemorySegment f = load(CudaTuning.kernelProtocol(p), t);
                    perSm = Math.min(perSm, CudaDriver.maxActiveBlocksPerMultiprocessor(f, CudaTuning.threads(p), 0));
                }
            }
            residentBlocks = Math.max(1, device.multiprocessors() * perSm);
        }
        return residentBlocks;
    }

    /** Device address of the FIFO from {@code from} to {@code to} on a channel in a protocol (made on first use). */
    long fifo(Protocol p, int channel, int from, int to) {
        if (overSockets(from, to)) {
            return hostFifos.get(net.receiving(p, channel, from, to).address());
        }
        FifoKey k = new FifoKey(p, channel, from, to);
        long bytes = WorkLayout.FIFO_SLOTS + WorkLayout.STEPS * slotBytes(p);
        if (remote != null && !(local[from] && local[to])) {
            // Outside the lock: a sender may wait here for another process, while other local ranks make theirs.
            return remote.fifo(k, bytes, local[to] ? to : from, this::zeroed, () -> aborted);
        }
        synchronized (fifos) {
            return fifos.computeIfAbsent(k, x -> zeroed(bytes));
        }
    }

    /**
     * Device address of the FIFO local rank {@code from} sends to {@code to} through: the
     * connection's FIFO, or, over sockets, this process's FIFO that the proxy empties.
     */
    long sendFifo(Protocol p, int channel, int from, int to) {
        return overSockets(from, to) ? hostFifos.get(net.sending(p, channel, from, to).address()) : fifo(p, channel, from, to);
    }

    /** Whether {@code rank} is in another process of this host on another GPU (ranks behind sockets are not). */
    boolean onOtherGpu(int rank) {
        return otherGpu[rank];
    }

    /** Whether the connection between {@code from} and {@code to} goes through the socket transport (its FIFO in host memory). */
    boolean overSockets(int from, int to) {
        io.jccl.engine.host.NetFifos n = net;
        return n != null && n.peers().overSockets(from, to);
    }

    /** The socket transport, made by the first local rank that asks ({@code make}). */
    synchronized io.jccl.engine.host.NetFifos net(java.util.function.Supplier<io.jccl.engine.host.NetFifos> make) {
        if (net == null) {
            net = make.get();
        }
        return net;
    }

    /**
     * Zeroed pinned host memory the GPU reaches, for a FIFO of the socket transport (freed when
     * the domain closes). Called from the proxy's threads too: the context is made current first,
     * and nothing between that and the driver's calls can unmount a virtual thread.
     */
    MemorySegment hostFifo(long bytes) {
        device.makeCurrent();
        MemorySegment m = CudaDriver.hostAlloc(bytes, io.jccl.bindings.cuda.Cuda.CU_MEMHOSTALLOC_PORTABLE
                | io.jccl.bindings.cuda.Cuda.CU_MEMHOSTALLOC_DEVICEMAP);
        long onDevice = CudaDriver.hostDevicePointer(m);
        m.fill((byte) 0);
        hostAllocations.add(m);
        hostFifos.put(m.address(), onDevice);
        return m;
    }

    /** The socket transport lost a peer or read a bad frame: every kernel of the domain stops, every rank fails naming it. */
    void netFailed(String cause) {
        netFailure = cause;
        // On a platform thread: the proxy's may be virtual, and the abort's driver calls need the
        // context current on the thread they run on.
        Thread.ofPlatform().daemon().name("jccl-net-abort").start(this::abort);
    }

    /** Why the socket transport failed, or null. */
    String netFailure() {
        return netFailure;
    }

    /** A local rank closes: what it sent over sockets leaves first (bounded), then its connections end. */
    void finishNet(int rank) {
        io.jccl.engine.host.NetFifos n = net;
        if (n != null) {
            n.finish(rank);
        }
    }

    /**
     * Makes the FIFOs {@code rank} receives on in {@code plan} before any of the FIFOs it sends on,
     * which may mean waiting for another process to make them. Every rank of a collective does the
     * same, so none waits for a rank that waits for it. Send/recv calls need not be grouped alike on
     * both sides, so for them every FIFO from each peer on every lane is made first too.
     */
    void connect(io.jccl.plan.Plan plan, Object shape, int rank, Protocol p) {
        List<Object> key = List.of(shape, rank, p);
        if (remote == null && net == null || connected.containsKey(key)) {
            return;
        }
        java.util.Set<Integer> peers = new java.util.TreeSet<>();
        for (io.jccl.plan.Segment seg : plan.segments(rank)) {
            for (int l = 0; l < plan.lanes(); l++) {
                for (io.jccl.plan.Step st : seg.schedule().stepArray(rank, l)) {
                    for (io.jccl.plan.Link from : st.recv()) {
                        fifo(p, from.channel(), from.peer(), rank);
                    }
                    st.send().forEach(to -> peers.add(to.peer()));
                    st.recv().forEach(from -> peers.add(from.peer()));
                }
            }
        }
        if (plan.collective() == io.jccl.plan.Collective.SEND_RECV) {
            for (int peer : peers) {
                for (int c = 0; c < plan.lanes(); c++) {
                    fifo(p, c, peer, rank);
                }
            }
        }
        // Only once all are made: a failed export is tried again by the next call of this shape.
        connected.put(key, Boolean.TRUE);
    }

    /** The lane of every connection a plan's ranks send or receive on. */
    Map<io.jccl.plan.Connection, Integer> lanesOf(io.jccl.plan.Plan plan) {
        return lanes.computeIfAbsent(plan, CudaDomain::connectionLanes);
    }

    static Map<io.jccl.plan.Connection, Integer> connectionLanes(io.jccl.plan.Plan plan) {
        Map<io.jccl.plan.Connection, Integer> m = new HashMap<>();
        for (int r = 0; r < plan.nranks(); r++) {
            for (io.jccl.plan.Segment seg : plan.segments(r)) {
                for (int l = 0; l < plan.lanes(); l++) {
                    for (io.jccl.plan.Step st : seg.schedule().stepArray(r, l)) {
                        for (io.jccl.plan.Link to : st.send()) {
                            m.put(new io.jccl.plan.Connection(to.channel(), r, to.peer()), l);
                        }
                        for (io.jccl.plan.Link from : st.recv()) {
                            m.put(new io.jccl.plan.Connection(from.channel(), from.peer(), r), l);
                        }
                    }
                }
            }
        }
        return Map.copyOf(m);
    }

    long slotBytes(Protocol p) {
        return p.slotBytes(config.buffSize(p));
    }

    /** Device memory of the domain's lifetime (a rank's scratch, a descriptor). */
    long allocate(long bytes) {
        return device.allocate(bytes, arena).address();
    }

    void claimStream(CudaStream s, int rank) {
        Integer owner = streamOwners.putIfAbsent(s.handle().address(), rank);
        if (owner != null && owner != rank) {
            throw JcclException.invalidArgument(rank, "stream", "is used by rank " + owner + " of this communicator;"
                    + " ranks sharing a GPU run concurrently and need a stream each");
        }
    }

    /** Copies host bytes to device memory, done when this returns. */
    void upload(long device, MemorySegment host, long bytes) {
        this.device.makeCurrent();
        synchronized (setup) {
            CudaDriver.copyAsync(device, host.address(), bytes, setup);
            CudaDriver.synchronize(setup);
        }
    }

    /** The FIFOs shared with other processes, or null when every rank is in this process. */
    ProcessFifos remote() {
        return remote;
    }

    boolean aborted() {
        return aborted;
    }

    /**
     * {@code config} without LL128 for a communicator some of whose connections go over sockets or
     * through host memory between two GPUs (its lines are atomic only inside a GPU, not across
     * PCIe); refused when JCCL_PROTO allows nothing else.
     */
    static Config withoutLl128(Config config, int rank) {
        java.util.Set<Protocol> allowed = java.util.EnumSet.copyOf(config.protocols());
        allowed.remove(Protocol.LL128);
        if (allowed.isEmpty()) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "JCCL_PROTO allows only LL128, which cannot cross"
                    + " the socket transport or host memory between GPUs (its lines are atomic only inside a GPU):"
                    + " allow LL or Simple");
        }
        return allowed.size() == config.protocols().size() ? config
                : config.withProtocols(String.join(",", allowed.stream().map(Protocol::id).toList()));
    }

    /** Makes every kernel of the domain stop waiting (they report ABORTED). */
    void abort() {
        aborted = true;
        device.makeCurrent();
        synchronized (setup) {
            CudaDriver.memsetAsync(abortFlag, (byte) 1, 1, setup);
            CudaDriver.synchronize(setup);
        }
    }

    synchronized void join(CudaComm c) {
        comms[c.rank()] = c;
        open++;
    }

    /** The last rank to leave frees the FIFOs and unloads the module. */
    synchronized void leave() {
        if (--open > 0) {
            return;
        }
        device.makeCurrent();
        if (remote != null) {
            remote.close();
        }
        if (net != null) {
            net.close();
        }
        hostAllocations.forEach(CudaDriver::freeHost);
        if (module != null) {
            CudaDriver.unloadModule(module);
        }
        CudaDriver.destroyStream(setup);
        arena.close();
    }

    static JcclException internal(int rank, String what) {
        return new JcclException(ErrorCode.INTERNAL_ERROR, rank, what);
    }
}
