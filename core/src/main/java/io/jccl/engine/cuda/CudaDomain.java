package io.jccl.engine.cuda;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.cuda.CudaDriver;
import io.jccl.kernels.WorkLayout;
import io.jccl.proto.Protocol;
import io.jccl.tune.Tuner;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ranks of a communicator in this process: their GPUs ({@link DomainGpu}: module, abort word,
 * memory of the domain's lifetime), the FIFOs between them, the tuner and the plans. Rank 0's
 * configuration decides plans, as on the host engine. A FIFO is in the receiver's memory, where
 * the sender writes: the device memory of the receiver's GPU when the sender's GPU is the same
 * one (p2p on one GPU) or reaches it (peer access both ways, enabled on first use), else pinned
 * host memory both GPUs map (JCCL_P2P_DISABLE chooses that too). When the communicator has ranks
 * in other processes, the FIFOs of their connections come from {@link ProcessFifos} (CUDA IPC, or
 * pinned host memory).
 */
final class CudaDomain {
    final int nranks;
    final Config config;
    final Tuner tuner;
    /**
     * The most ranks of the communicator on one GPU (all of them, unless some are behind sockets):
     * their blocks must be resident together, so each rank's channels are capped by the GPU's
     * resident blocks over this. Every rank computes the same, so plans agree.
     */
    final int sharing;
    /** Each rank's GPU by PCI bus id (ranks behind sockets too, unused): connections between two are at system scope. */
    private final String[] gpuIds;
    final Map<CudaPlanner.CallKey, CudaPlanner.Planned> plans = new ConcurrentHashMap<>();
    /** Which lane uses each connection in a plan (plans are cached per shape, so this is bounded too). */
    private final Map<io.jccl.plan.Plan, Map<io.jccl.plan.Connection, Integer>> lanes = new ConcurrentHashMap<>();
    /** Each rank of this process's GPU; null for ranks of other processes. */
    private final DomainGpu[] gpuOf;
    /** The GPUs of this process's ranks, the first rank's first. */
    private final List<DomainGpu> gpus;
    /** Pairs of those GPUs whose kernels may write each other's memory, by PCI bus ids. */
    private final java.util.Set<List<String>> peerAccess;
    /** Blocks every GPU of the communicator keeps resident at once, as all ranks agreed; 0 until then. */
    private volatile int agreedBlocks;
    /** FIFOs between ranks of this process, made on first use. */
    private final Map<FifoKey, Long> fifos = new HashMap<>();
    /** Which rank launched on a stream: two ranks on one stream would wait for each other forever. */
    private final Map<Long, Integer> streamOwners = new ConcurrentHashMap<>();
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

    /**
     * Ranks of this process only, rank r on {@code devices[r]} (several may share one). Where the
     * GPUs differ, pairs that may access each other's memory both ways (and JCCL_P2P_DISABLE is
     * off) get their FIFOs in device memory, the others in pinned host memory, and no table
     * measured with the ranks on one GPU decides their calls: the GPU's cost model does.
     */
    CudaDomain(Config config, List<CudaDevice> devices) {
        this(config, devices.toArray(CudaDevice[]::new), mostOnOneGpu(devices));
    }

    private CudaDomain(Config config, CudaDevice[] devices, int sharing) {
        this(devices.length, config, devices, java.util.Arrays.stream(devices).map(CudaDevice::pciBusId).toArray(String[]::new),
                tuner(config, devices.length, devices, sharing, false, null), null, sharing);
    }

    /**
     * The ranks of this process of a communicator that may span processes: rank r on
     * {@code devices[r]} (null for ranks of other processes), each rank's GPU named by
     * {@code gpuIds}; {@code remote} makes the FIFOs of connections with the other processes' ranks
     * (null if none is on this host); at most {@code sharing} ranks are on one GPU.
     */
    CudaDomain(int nranks, Config config, CudaDevice[] devices, String[] gpuIds, Tuner tuner, ProcessFifos remote,
               int sharing) {
        this.nranks = nranks;
        this.sharing = sharing;
        this.gpuIds = gpuIds;
        this.config = config;
        this.tuner = tuner;
        this.remote = remote;
        this.comms = new CudaComm[nranks];
        this.local = new boolean[nranks];
        this.gpuOf = new DomainGpu[nranks];
        Map<String, DomainGpu> byBusId = new java.util.LinkedHashMap<>();
        for (int r = 0; r < nranks; r++) {
            CudaDevice d = devices[r];
            if (d != null) {
                local[r] = true;
                gpuOf[r] = byBusId.computeIfAbsent(d.pciBusId(), id -> new DomainGpu(d));
            }
        }
        this.gpus = List.copyOf(byBusId.values());
        this.peerAccess = new java.util.HashSet<>();
        for (DomainGpu a : gpus) {
            for (DomainGpu b : gpus) {
                if (a != b && !config.p2pDisable() && CudaDriver.canAccessPeer(a.device.ordinal(), b.device.ordinal())
                        && CudaDriver.canAccessPeer(b.device.ordinal(), a.device.ordinal())) {
                    peerAccess.add(List.of(a.device.pciBusId(), b.device.pciBusId()));
                }
            }
        }
    }

    /** The most ranks on any one GPU (their blocks must be resident together). */
    static int mostOnOneGpu(List<CudaDevice> devices) {
        Map<String, Integer> perGpu = new HashMap<>();
        devices.forEach(d -> perGpu.merge(d.pciBusId(), 1, Integer::sum));
        return java.util.Collections.max(perGpu.values());
    }

    /** Rank {@code rank}'s GPU (a rank of this process). */
    DomainGpu gpu(int rank) {
        return gpuOf[rank];
    }

    /** Whether this process's ranks are on several GPUs. */
    boolean spansGpus() {
        return gpus.size() > 1;
    }

    /**
     * The tuner of {@code nranks} ranks, this process's on {@code devices} (null for the others'),
     * at most {@code sharing} of them on one GPU: {@link CudaTuning#tuner} for the fewest
     * multiprocessors of those GPUs, and no bundled table where the ranks are on several GPUs of
     * a host ({@code severalGpus}, or this process's alone): the tables are measured on one.
     */
    static Tuner tuner(Config config, int nranks, CudaDevice[] devices, int sharing, boolean severalGpus, String tuningText) {
        List<CudaDevice> mine = java.util.Arrays.stream(devices).filter(java.util.Objects::nonNull).toList();
        boolean oneGpu = !severalGpus && mine.stream().map(CudaDevice::pciBusId).distinct().count() == 1;
        int fewestSms = mine.stream().mapToInt(CudaDevice::multiprocessors).min().orElseThrow();
        return CudaTuning.tuner(config, nranks, sharing, oneGpu ? mine.getFirst().name() : null, fewestSms, tuningText);
    }

    /**
     * How many blocks of the executor kernels every GPU of the communicator keeps resident at once
     * (ranks sharing a GPU wait for each other inside their kernels, so all their blocks must be
     * resident together): what all ranks agreed, else the fewest of this process's GPUs.
     */
    int residentBlocks() {
        int agreed = agreedBlocks;
        return agreed != 0 ? agreed : gpus.stream().mapToInt(DomainGpu::residentBlocks).min().orElseThrow();
    }

    /**
     * Sets the resident blocks plans assume to what every rank agreed (the fewest of any rank's
     * GPU), so that ranks on different GPUs cap their channels alike.
     */
    void agreeResidentBlocks(int blocks) {
        agreedBlocks = blocks;
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
            int mine = local[to] ? to : from;
            return remote.fifo(k, bytes, mine, gpuOf[mine], () -> aborted);
        }
        synchronized (fifos) {
            return fifos.computeIfAbsent(k, x -> localFifo(from, to, bytes));
        }
    }

    /** A new FIFO between two ranks of this process, in the receiver's memory (see the class comment). */
    private long localFifo(int from, int to, long bytes) {
        DomainGpu sender = gpuOf[from];
        DomainGpu receiver = gpuOf[to];
        if (sender == receiver) {
            return receiver.zeroed(bytes);
        }
        if (peers(sender, receiver)) {
            sender.reach(receiver);
            return receiver.zeroed(bytes);
        }
        return hostFifos.get(hostFifo(bytes).address());
    }

    private boolean peers(DomainGpu a, DomainGpu b) {
        return peerAccess.contains(List.of(a.device.pciBusId(), b.device.pciBusId()));
    }

    /**
     * Whether a connection's ends are on two GPUs, or one end is the CPU (the socket proxy): it
     * needs system-scope ordering and no LL128.
     */
    boolean crossesGpus(int from, int to) {
        if (overSockets(from, to)) {
            return true; // the CPU's proxy is the other end, even between threads of this process
        }
        return !gpuIds[from].equals(gpuIds[to]);
    }

    /** How rank {@code from} of this process reaches rank {@code to} of this process (JCCL_DEBUG=INFO). */
    String localTransport(int from, int to) {
        DomainGpu a = gpuOf[from];
        DomainGpu b = gpuOf[to];
        if (a == b) {
            return "P2P/device memory";
        }
        return (peers(a, b) ? "P2P/peer access to GPU "
                : "SHM/pinned host memory to GPU ") + b.device.pciBusId() + " (LL128 off)";
    }

    /**
     * Device address of the FIFO local rank {@code from} sends to {@code to} through: the
     * connection's FIFO, or, over sockets, this process's FIFO that the proxy empties.
     */
    long sendFifo(Protocol p, int channel, int from, int to) {
        return overSockets(from, to) ? hostFifos.get(net.sending(p, channel, from, to).address()) : fifo(p, channel, from, to);
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
        gpus.getFirst().device.makeCurrent();
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

    void claimStream(CudaStream s, int rank) {
        Integer owner = streamOwners.putIfAbsent(s.handle().address(), rank);
        if (owner != null && owner != rank) {
            throw JcclException.invalidArgument(rank, "stream", "is used by rank " + owner + " of this communicator;"
                    + " ranks sharing a GPU run concurrently and need a stream each");
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
     * from one GPU to another (its lines are atomic only inside a GPU: jccl cannot yet tell NVLink,
     * where NCCL keeps LL128, from PCIe); refused when JCCL_PROTO allows nothing else.
     */
    static Config withoutLl128(Config config, int rank) {
        java.util.Set<Protocol> allowed = java.util.EnumSet.copyOf(config.protocols());
        allowed.remove(Protocol.LL128);
        if (allowed.isEmpty()) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "JCCL_PROTO allows only LL128, which cannot cross"
                    + " the socket transport or go from one GPU to another (its lines are atomic only inside a GPU):"
                    + " allow LL or Simple");
        }
        return allowed.size() == config.protocols().size() ? config
                : config.withProtocols(String.join(",", allowed.stream().map(Protocol::id).toList()));
    }

    /** Makes every kernel of the domain, on each of its GPUs, stop waiting (they report ABORTED). */
    void abort() {
        aborted = true;
        gpus.forEach(DomainGpu::abort);
    }

    /**
     * Where the ranks are on several GPUs, a kernel that fails raises only its own GPU's abort
     * word: raises them all once some rank of this process has reported a failure. Called while
     * the caller waits for a stream.
     */
    void spreadFailure() {
        if (!aborted && spansGpus()) {
            for (CudaComm c : comms) {
                if (c != null && c.kernelsFailed()) {
                    abort();
                    return;
                }
            }
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
        gpus.getFirst().device.makeCurrent();
        if (remote != null) {
            remote.close();
        }
        if (net != null) {
            net.close();
        }
        hostAllocations.forEach(CudaDriver::freeHost);
        gpus.forEach(DomainGpu::close);
    }

    static JcclException internal(int rank, String what) {
        return new JcclException(ErrorCode.INTERNAL_ERROR, rank, what);
    }
}
