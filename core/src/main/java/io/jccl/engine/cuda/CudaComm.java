// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.CudaDevice;

import io.jccl.Config;
import io.jccl.DataType;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.RedOp;
import io.jccl.bindings.cuda.Cuda;
import io.jccl.cuda.CudaDriver;
import io.jccl.engine.CollectiveArgs;
import io.jccl.engine.EngineRank;
import io.jccl.engine.EngineStream;
import io.jccl.engine.Join;
import io.jccl.engine.JobChannels;
import io.jccl.engine.SharedSettings;
import io.jccl.engine.P2pArgs;
import io.jccl.engine.Planner;
import io.jccl.kernels.WorkLayout;
import io.jccl.log.Log;
import io.jccl.plan.Plan;
import io.jccl.proto.Protocol;
import io.jccl.transport.GpuPlacement;
import io.jccl.transport.GpuProcessFifos;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One rank on the CUDA engine. A call is planned as on the host engine, packed into a work
 * descriptor (uploaded once per call shape and buffers, then cached), and launched on the caller's
 * {@code CudaStream}: one block per lane of the plan. The rank's operations run in issue order
 * whatever streams carry them (a launch on another stream than the previous one waits for it), so
 * the FIFOs it shares with its peers stay in step. A send/recv group is one launch. Failures
 * (timeout, size mismatch, abort) are written by the kernel into pinned host memory and reported
 * by the stream's {@code synchronize()}; the rank then refuses work.
 */
public final class CudaComm extends EngineRank {
    private static final long BATCH_COUNT = WorkLayout.offset(WorkLayout.BATCH, "count");
    private final CudaDomain domain;
    /** This rank's GPU in the domain. */
    private final DomainGpu gpu;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment status;
    private final long statusDevice;
    /** Device word the first failing lane of this rank takes before it writes the status. */
    private final long claim;
    private final BufferRegistry registry = new BufferRegistry();
    private final DescriptorCache<DescKey> descriptors;
    /** Kernels this rank has launched: the next launch is number {@code launches + 1}. */
    private long launches;
    private final long[] scratch = new long[Protocol.values().length];
    private final long[] scratchBytes = new long[Protocol.values().length];
    /** The launch's kernel parameter (a jccl_batch by value) and the pointer array to it: the driver copies both at launch. */
    private final MemorySegment batchArg;
    private final MemorySegment launchParams;
    /** The event after this rank's last launch: its own, or the direct launch's it took part in. */
    private MemorySegment lastEvent;
    private MemorySegment ownEvent;
    private GpuStream lastStream;
    /** The stream this rank last launched on (claimed for it in the domain). */
    private volatile GpuStream claimed;
    /** Where cuStreamGetCaptureInfo writes, once per call. */
    private final MemorySegment captureInfo;
    /** The launch being made is captured into a graph: nothing may wait for the GPU. */
    private boolean capturing;
    /** The hold of the capture sequence this rank last launched in, and the event after that launch. */
    private GraphHolds.Hold hold;
    private MemorySegment captureEvent;
    private GpuStream captureStream;
    /** Holds whose graphs the driver has destroyed, released on the next call (the callback may make no CUDA call). */
    private final java.util.concurrent.ConcurrentLinkedQueue<GraphHolds.Hold> released =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private volatile Throwable failure;
    /** When a waiting stream first saw a process of the communicator dead (System.nanoTime), or 0. */
    private volatile long lostSeen;

    /** What identifies a packed descriptor: the plan's shape, the kernel and the buffers' addresses. */
    private record DescKey(Object shape, Protocol protocol, DataType type, RedOp op, long[] in, long[] out) {
        @Override
        public boolean equals(Object o) {
            return o instanceof DescKey k && shape.equals(k.shape) && protocol == k.protocol && type == k.type
                    && java.util.Objects.equals(op, k.op) && Arrays.equals(in, k.in) && Arrays.equals(out, k.out);
        }

        @Override
        public int hashCode() {
            return ((shape.hashCode() * 31 + protocol.hashCode()) * 31 + type.hashCode()) * 31
                    + Arrays.hashCode(in) * 17 + Arrays.hashCode(out);
        }
    }

    private CudaComm(CudaDomain domain, int rank, Config config) {
        super(rank, config, domain.planner);
        this.domain = domain;
        this.gpu = domain.gpu(rank);
        gpu.device.makeCurrent();
        MemorySegment host = CudaDriver.hostAlloc(WorkLayout.STATUS.byteSize(),
                Cuda.CU_MEMHOSTALLOC_DEVICEMAP | Cuda.CU_MEMHOSTALLOC_PORTABLE);
        this.status = host.reinterpret(WorkLayout.STATUS.byteSize(), arena, s -> {
            gpu.device.makeCurrent();
            CudaDriver.freeHost(s);
        });
        status.fill((byte) 0);
        this.statusDevice = CudaDriver.hostDevicePointer(host);
        this.claim = gpu.zeroed(16);
        this.descriptors = new DescriptorCache<>(gpu::allocate, this::launchesFinished);
        this.batchArg = arena.allocate(WorkLayout.BATCH);
        this.launchParams = arena.allocate(ValueLayout.ADDRESS, 1);
        launchParams.setAtIndex(ValueLayout.ADDRESS, 0, batchArg);
        this.captureInfo = arena.allocate(CudaDriver.CAPTURE_INFO);
    }

    /**
     * Ranks of this process, rank r on {@code devices.get(r)} with {@code configs.get(r)}; what
     * decides plans is rank 0's configuration, as on the host engine. Ranks may share a GPU; where
     * they are on several, LL128 is left out (refused if JCCL_PROTO allows nothing else).
     */
    public static CudaComm[] createAll(List<Config> configs, List<CudaDevice> devices) {
        Config shared = CudaDomain.mostOnOneGpu(devices) == devices.size() ? configs.getFirst()
                : CudaDomain.withoutLl128(configs.getFirst(), 0);
        CudaDomain d = new CudaDomain(shared, devices);
        for (int r = 0; r < configs.size(); r++) {
            d.join(new CudaComm(d, r, configs.get(r)));
            JobChannels.log(Log.of(configs.get(r), r), d.tuner.topology(), r);
        }
        if (d.spansGpus()) {
            for (int from = 0; from < devices.size(); from++) {
                Log log = Log.of(configs.get(from), from);
                for (int to = 0; to < devices.size(); to++) {
                    if (from != to && log.on(Config.Debug.INFO, Config.Subsys.INIT)) {
                        log.info(Config.Subsys.INIT, "GPU " + devices.get(from).pciBusId() + " -> rank " + to + ": "
                                + d.fifos.localTransport(from, to));
                    }
                }
            }
        }
        return d.comms.clone();
    }

    private static final Join<CudaDomain> JOINING = new Join<>();

    /**
     * This process's rank of a communicator whose ranks {@code bootstrap} found, perhaps in several
     * processes, on several GPUs and hosts ({@link GpuPlacement} says how each is reached): rank 0's
     * plan-deciding settings and tuning file reach every rank, ranks that are threads of this
     * process share a domain (each calls this from its own thread), and a barrier ends init once
     * every rank has joined; they may be on several GPUs, as with {@link #createAll}. Collective
     * over the bootstrap. Refused, naming the rank: a rank of this host whose /dev/shm differs, and
     * JCCL_PROTO=LL128 alone where a connection crosses PCIe.
     */
    public static CudaComm join(io.jccl.bootstrap.Bootstrap bootstrap, Config config, CudaDevice device) {
        int rank = bootstrap.rank();
        int n = bootstrap.size();
        SharedSettings s = Join.shared(bootstrap, config);
        GpuPlacement where = GpuPlacement.of(bootstrap, s.commId(), s.p2pDisable(), s.shmDisable(), device.pciBusId(),
                device.ordinal());
        GpuProcessFifos.Kind kind = s.p2pDisable() ? GpuProcessFifos.Kind.HOST : GpuProcessFifos.Kind.IPC;
        boolean removeStale = where.otherProcessesHere && rank == firstLocal(where.local);
        // The GPU of every rank by bus id (GpuPlacement gathered them), so that a node without a
        // topology file is detected, and each node's ranks are matched to its GPUs (detected or the file's).
        io.jccl.topo.Layout channels = JobChannels.gather(bootstrap, config,
                io.jccl.topo.ServerLayout.ofHosts(bootstrap.locality().hostOf()),
                new JobChannels.Gpus(io.jccl.cuda.CudaGpuProbe.of(), java.util.Arrays.asList(where.gpus)));
        return JOINING.join(bootstrap, s.commId(), removeStale, new Join.Steps<CudaDomain, CudaComm>() {
            @Override
            public CudaDomain domain() {
                Config shared = where.withoutLl128() ? CudaDomain.withoutLl128(s.applyTo(config), rank) : s.applyTo(config);
                GpuProcessFifos remote = where.otherProcessesHere ? new GpuProcessFifos(kind, where, config.timeout()) : null;
                CudaDevice[] devices = localDevices(where, device);
                return new CudaDomain(n, shared, devices, where.gpus, CudaDomain.tuner(shared, n, devices, where.sharing,
                        where.severalGpusOnAHost, s.tuningText(), channels), remote, where.sharing);
            }

            @Override
            public CudaComm rank(CudaDomain d) {
                CudaComm c = new CudaComm(d, rank, config);
                d.join(c);
                return c;
            }

            @Override
            public void setUp(CudaDomain d, CudaComm c) {
                if (where.sockets) {
                    d.fifos.connectNet(bootstrap, s.commId(), where.processes, rank, (cause, by, lost) -> d.netFailed(cause));
                }
                if (where.sharing < n) {
                    // Other GPUs may keep fewer blocks resident: plans take the fewest.
                    byte[][] resident = bootstrap.allGather(java.nio.ByteBuffer.allocate(4).putInt(d.residentBlocks()).array());
                    int fewest = Integer.MAX_VALUE;
                    for (byte[] b : resident) {
                        fewest = Math.min(fewest, java.nio.ByteBuffer.wrap(b).getInt());
                    }
                    d.agreeResidentBlocks(fewest);
                }
                Log log = Log.of(config, rank);
                if (log.on(Config.Debug.INFO, Config.Subsys.INIT)) {
                    logTransports(log, rank, where, d, kind, device);
                }
                JobChannels.log(log, d.tuner.topology(), rank);
            }

            @Override
            public boolean allJoined(CudaDomain d) {
                for (int r = 0; r < n; r++) {
                    if (where.local[r] && d.comms[r] == null) {
                        return false;
                    }
                }
                return true;
            }

            @Override
            public void failed(CudaDomain d, CudaComm c, RuntimeException e) {
                c.abort();
                c.close();
            }
        });
    }

    /** JCCL_DEBUG=INFO: how this rank reaches each other; a warning where other processes share its GPU. */
    private static void logTransports(Log log, int rank, GpuPlacement where, CudaDomain d, GpuProcessFifos.Kind kind,
                                      CudaDevice device) {
        for (int r = 0; r < where.size; r++) {
            if (r != rank) {
                log.info(Config.Subsys.INIT, where.processes.describe(r) + " via " + d.fifos.describe(rank, r, where, kind));
            }
        }
        if (where.otherProcessesOnThisGpu) {
            log.info(Config.Subsys.INIT, "ranks of other processes share GPU " + device.pciBusId() + ": their kernels run at once"
                    + " only under MPS (nvidia-cuda-mps-control -d); without it the GPU time-slices between the processes,"
                    + " milliseconds per call (docs/gpu.md)");
        }
    }

    /**
     * The GPU of each rank of this process ({@code mine} for this rank, the others opened by their
     * bus ids; ranks of one process may meet through a bootstrap on several GPUs), null for the others.
     */
    private static CudaDevice[] localDevices(GpuPlacement where, CudaDevice mine) {
        CudaDevice[] devices = new CudaDevice[where.size];
        for (int r = 0; r < where.size; r++) {
            if (where.local[r]) {
                devices[r] = where.gpus[r].equals(mine.pciBusId()) ? mine : CudaDevice.open(CudaDriver.deviceByPciBusId(where.gpus[r]));
            }
        }
        mine.makeCurrent();
        return devices;
    }

    private static int firstLocal(boolean[] local) {
        for (int r = 0; r < local.length; r++) {
            if (local[r]) {
                return r;
            }
        }
        return -1;
    }

    @Override
    public String describe() {
        return "the CUDA engine, GPU " + gpu.device.pciBusId();
    }

    public CudaDevice device() {
        return gpu.device;
    }

    /** Throws if this rank failed, or its domain was aborted by the host. */
    @Override
    protected void checkRunning() {
        Throwable f = failure;
        if (f != null) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "the communicator failed and must be closed: "
                    + f.getMessage(), f);
        }
    }

    // ---- registration (ncclCommRegister) ----

    /** Checks once that {@code buffer} is device memory of this GPU; later calls on it skip the check. */
    @Override
    public void register(MemorySegment buffer) {
        checkUsable();
        requireDevice("buffer", buffer.address(), buffer.byteSize(), false);
        registry.add(buffer.address(), buffer.byteSize());
    }

    /** Forgets one registration of {@code buffer}. */
    @Override
    public void deregister(MemorySegment buffer) {
        if (!registry.remove(buffer.address(), buffer.byteSize())) {
            throw JcclException.invalidArgument(rank, "buffer", "was not registered with this communicator");
        }
    }

    int registered() {
        return registry.size();
    }

    private void requireDevice(String name, long address, long bytes, boolean cached) {
        if (bytes == 0 || (cached && registry.covers(address, bytes))) {
            return;
        }
        String why = whyNotDeviceMemory(gpu.device, address);
        if (why != null) {
            throw JcclException.invalidArgument(rank, name, why);
        }
    }

    /** Whether {@code address} is device memory of {@code gpu} (cuPointerGetAttribute), or why not; null when it is. */
    public static String whyNotDeviceMemory(CudaDevice gpu, long address) {
        gpu.makeCurrent();
        int type;
        try {
            type = CudaDriver.memoryType(address);
        } catch (JcclException e) {
            return "is not memory the CUDA driver knows (" + e.getMessage() + "); allocate it with CudaDevice.allocate";
        }
        if (type != Cuda.CU_MEMORYTYPE_DEVICE) {
            return "is " + (type == Cuda.CU_MEMORYTYPE_HOST ? "pinned host" : "kind " + type)
                    + " memory, not device memory; allocate it with CudaDevice.allocate";
        }
        int dev = CudaDriver.pointerDevice(address);
        if (dev != gpu.ordinal()) {
            return "is memory of GPU " + dev + ", not of GPU " + gpu.ordinal() + " where this communicator runs";
        }
        return null;
    }

    // ---- work ----

    /** Plans the call or group (collectives in order, then the sends and receives as one launch) and launches it on {@code s}. */
    @Override
    public Thread bufferThread(EngineStream stream) {
        gpuStream(stream);
        return Thread.currentThread();
    }

    private GpuStream gpuStream(EngineStream stream) {
        if (stream instanceof GpuStream s) {
            return s;
        }
        throw JcclException.invalidArgument(rank, "stream", "is a " + stream.apiName() + "; the CUDA engine runs on a CudaStream");
    }

    @Override
    public EngineRank joinChild(io.jccl.bootstrap.Bootstrap child) {
        return join(child, config, gpu.device);
    }

    @Override
    public void submit(List<CollectiveArgs> collectives, List<P2pArgs> p2p, EngineStream stream) {
        submit(collectives, null, p2p, stream);
    }

    /** One collective outside a group: a repeat of the last one allocates nothing. */
    @Override
    public void submit(CollectiveArgs collective, EngineStream stream) {
        submit(null, collective, List.of(), stream);
    }

    /** {@code collectives} in order, or the one {@code single} (then {@code collectives} is null), then {@code p2p}. */
    private void submit(List<CollectiveArgs> collectives, CollectiveArgs single, List<P2pArgs> p2p, EngineStream stream) {
        GpuStream s = checkedStream(stream, collectives, single, p2p);
        synchronized (this) {
            gpu.device.makeCurrent();
            releaseHeld();
            long captureId = captureId(s);
            // In a capture, the allocations and uploads of a first call of its shape must not
            // invalidate it (the caller's capture mode may forbid them): relaxed for this call.
            int mode = captureId != 0 ? CudaDriver.exchangeCaptureMode(Cuda.CU_STREAM_CAPTURE_MODE_RELAXED) : -1;
            capturing = captureId != 0;
            try {
                launchAll(collectives, single, p2p, s, captureId);
            } finally {
                capturing = false;
                if (mode >= 0) {
                    CudaDriver.exchangeCaptureMode(mode);
                }
            }
        }
    }

    /**
     * The GPU stream of a call of this rank, checked with the call's buffers ({@code collectives},
     * or the one {@code single}, and {@code p2p}) and claimed for this rank; throws naming what is wrong.
     */
    GpuStream checkedStream(EngineStream stream, List<CollectiveArgs> collectives, CollectiveArgs single, List<P2pArgs> p2p) {
        GpuStream s = gpuStream(stream);
        checkUsable();
        if (!s.device().pciBusId().equals(gpu.device.pciBusId())) {
            throw JcclException.invalidArgument(rank, "stream", "belongs to " + s.device() + ", not " + gpu.device
                    + " where this rank runs");
        }
        if (single != null) {
            requireBuffers(single);
        } else {
            for (CollectiveArgs a : collectives) {
                requireBuffers(a);
            }
        }
        for (P2pArgs a : p2p) {
            if (a.buffer() != null) {
                requireDevice(a.send() ? "sendbuff" : "recvbuff", a.buffer().address(), a.bytes(), true);
            }
        }
        if (s != claimed) {
            domain.claimStream(s, rank);
            claimed = s;
        }
        return s;
    }

    /** The ranks of this GPU run a group's calls of all of them in one launch where they can ({@link DirectLaunch}). */
    @Override
    public Joint joint() {
        return domain.direct;
    }

    private void requireBuffers(CollectiveArgs a) {
        if (a.send() != null) {
            requireDevice("sendbuff", a.send().address(), a.send().byteSize(), true);
        }
        if (a.recv() != null) {
            requireDevice("recvbuff", a.recv().address(), a.recv().byteSize(), true);
        }
    }

    /**
     * The id of the capture sequence {@code s} is in (its launches go into a graph), or 0 when it is
     * not capturing; refused when its capture was invalidated.
     */
    long captureId(GpuStream s) {
        int status = CudaDriver.captureInfo(s.handle(), captureInfo);
        if (status == Cuda.CU_STREAM_CAPTURE_STATUS_NONE) {
            return 0;
        }
        if (status != Cuda.CU_STREAM_CAPTURE_STATUS_ACTIVE) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "the stream's CUDA graph capture was invalidated by an"
                    + " earlier call on it (a call CUDA forbids while capturing); end the capture and capture again");
        }
        return captureInfo.get(ValueLayout.JAVA_LONG, 8);
    }

    private void launchAll(List<CollectiveArgs> collectives, CollectiveArgs single, List<P2pArgs> p2p, GpuStream s,
                           long captureId) {
        Repeat r = repeat;
        if (single != null) {
            if (r != null && r.is(domain.planner.plan(single, rank).plan(), single) && launchAgain(r, s, captureId)) {
                return;
            }
            collectives = List.of(single);
        }
        repeat = null;
        List<Op> batch = new ArrayList<>();
        for (CollectiveArgs a : collectives) {
            Planner.Planned planned = domain.planner.plan(a, rank);
            int redop = a.collective().reduces() ? a.op().kind().ordinal() : WorkLayout.OP_NONE;
            Op op = new Op(planned.plan(), planned.plan(), planned.choice().protocol(), a.type(), a.op(), redop,
                    new long[] {address(a.send())}, new long[] {address(a.recv())});
            if (op.plan().tiles(rank) == 0) {
                continue;
            }
            if (!batch.isEmpty() && !joins(batch, op)) {
                launch(batch, s, captureId);
                batch.clear();
            }
            batch.add(op);
        }
        if (!batch.isEmpty()) {
            launch(batch, s, captureId);
        }
        if (!p2p.isEmpty()) {
            Op op = p2pOp(p2p);
            if (op.plan().tiles(rank) > 0) {
                launch(List.of(op), s, captureId);
            }
        }
    }

    /** One operation of a launch: its plan (and what identifies its descriptor), kernel and buffers. */
    private record Op(Plan plan, Object shape, Protocol protocol, DataType type, RedOp op, int redop, long[] in,
                      long[] out) {
    }

    /**
     * Whether {@code op} may share the launch of {@code batch} (a group's operations run in one
     * launch, as NCCL aggregates them): the same kernel, room in the batch, and every connection
     * used by the same lane in all of them, because a block goes on to its next operation while
     * other blocks are still in the previous one, and a FIFO must keep one producer and one consumer.
     */
    private boolean joins(List<Op> batch, Op op) {
        Op first = batch.getFirst();
        if (batch.size() >= WorkLayout.MAX_BATCH || first.protocol() != op.protocol() || first.type() != op.type()) {
            return false;
        }
        List<Map<io.jccl.plan.Connection, Integer>> all = new ArrayList<>();
        for (Op b : batch) {
            all.add(domain.lanesOf(b.plan()));
        }
        all.add(domain.lanesOf(op.plan()));
        return lanesAgree(all);
    }

    /** Whether every connection that several of these plans use is used by the same lane in each. */
    static boolean lanesAgree(List<Map<io.jccl.plan.Connection, Integer>> plans) {
        Map<io.jccl.plan.Connection, Integer> seen = new HashMap<>();
        for (Map<io.jccl.plan.Connection, Integer> m : plans) {
            for (Map.Entry<io.jccl.plan.Connection, Integer> e : m.entrySet()) {
                Integer other = seen.putIfAbsent(e.getKey(), e.getValue());
                if (other != null && !other.equals(e.getValue())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static long address(MemorySegment m) {
        return m == null ? 0 : m.address();
    }

    private Op p2pOp(List<P2pArgs> p2p) {
        long[] in = new long[p2p.size()];
        long[] out = new long[p2p.size()];
        List<Object> shape = new ArrayList<>(p2p.size());
        for (int i = 0; i < p2p.size(); i++) {
            P2pArgs a = p2p.get(i);
            (a.send() ? in : out)[i] = address(a.buffer());
            shape.add(List.of(a.send(), a.peer(), a.bytes()));
        }
        int lanes = domain.config.minChannels();
        if ((long) lanes * domain.sharing > domain.residentBlocks()) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "send/recv on " + lanes + " channels (JCCL_MIN_NCHANNELS)"
                    + " runs " + (long) lanes * domain.sharing + " blocks for the " + domain.sharing + " ranks sharing the GPU,"
                    + " which keeps " + domain.residentBlocks() + " resident at once; all must run together");
        }
        Plan plan = Planner.sendRecv(domain.nranks, rank, p2p, domain.slotBytes(Protocol.SIMPLE), lanes);
        return new Op(plan, List.copyOf(shape), Protocol.SIMPLE, DataType.UINT8, null, WorkLayout.OP_NONE, in, out);
    }

    /**
     * One kernel launch running {@code batch} in order: the blocks of the widest plan. Captured
     * ({@code captureId} not 0), it keeps the rank's order within the capture (a launch on another
     * stream of the same capture waits for the previous one) and holds its descriptors for the graph.
     */
    private void launch(List<Op> batch, GpuStream s, long captureId) {
        Op first = batch.getFirst();
        MemorySegment f = gpu.function(CudaTuning.kernelProtocol(first.protocol()), first.type().ordinal());
        orderAfterPrevious(s, captureId);
        int blocks = 0;
        DescKey key = null;
        for (int i = 0; i < batch.size(); i++) {
            Op op = batch.get(i);
            key = new DescKey(op.shape(), op.protocol(), op.type(), op.op(), op.in(), op.out());
            long desc = descriptor(key, op.plan(), op.redop(), captureId != 0 ? hold : null);
            batchArg.setAtIndex(ValueLayout.JAVA_LONG, i, desc);
            blocks = Math.max(blocks, CudaTuning.blocks(op.plan()));
        }
        batchArg.set(ValueLayout.JAVA_INT, BATCH_COUNT, batch.size());
        fire(f, blocks, first.protocol(), s, captureId);
        repeat = batch.size() == 1 && first.plan() == first.shape() ? new Repeat(first.plan(), first.type(), first.op(),
                first.in()[0], first.out()[0], key, f, blocks) : null;
    }

    /**
     * The last call launched alone, as the next may repeat it (most loops do): then its plan,
     * kernel, blocks and descriptor key are taken as they are, and the launch allocates nothing.
     */
    private record Repeat(Plan plan, DataType type, RedOp op, long in, long out, DescKey key, MemorySegment function,
                          int blocks) {
        boolean is(Plan p, CollectiveArgs a) {
            return p == plan && a.type() == type && java.util.Objects.equals(a.op(), op) && address(a.send()) == in
                    && address(a.recv()) == out;
        }
    }

    private Repeat repeat;

    /**
     * Launches the call {@link #repeat} describes again, if its descriptor is still kept; false
     * (nothing done) when it is not.
     */
    private boolean launchAgain(Repeat r, GpuStream s, long captureId) {
        DescriptorCache.Entry known = descriptors.get(r.key(), launches + 1);
        if (known == null) {
            return false;
        }
        orderAfterPrevious(s, captureId);
        if (captureId != 0) {
            hold.descriptors.add(descriptors.hold(r.key()));
        }
        batchArg.setAtIndex(ValueLayout.JAVA_LONG, 0, known.descriptor().address());
        batchArg.set(ValueLayout.JAVA_INT, BATCH_COUNT, 1);
        fire(r.function(), r.blocks(), r.key().protocol(), s, captureId);
        return true;
    }

    /**
     * Keeps the rank's launches in one order whatever stream carries them: a launch on another
     * stream than the previous one waits for it (within a capture, for the capture's previous
     * one); a capture's first launch makes the hold of its descriptors.
     */
    private void orderAfterPrevious(GpuStream s, long captureId) {
        waitForPrevious(s, s, captureId);
        if (captureId != 0) {
            holdFor(captureId);
        }
    }

    /** The hold of capture {@code captureId} (made by its first launch of this rank), which its graph keeps. */
    private void holdFor(long captureId) {
        if (hold == null || hold.captureId != captureId) {
            hold = GraphHolds.create(this, captureId, captureInfo.get(ValueLayout.ADDRESS, 16));
        }
    }

    /** A captured launch of this rank's went on {@code s}: its event orders the rank's next one in the capture. */
    private void capturedOn(GpuStream s) {
        if (captureEvent == null) {
            captureEvent = CudaDriver.createEvent(Cuda.CU_EVENT_DISABLE_TIMING);
        }
        CudaDriver.record(captureEvent, s.handle());
        captureStream = s;
    }

    /** Launches {@code f} with the batch argument as set, and records the event that orders what follows. */
    private void fire(MemorySegment f, int blocks, Protocol protocol, GpuStream s, long captureId) {
        try {
            CudaDriver.launch(f, blocks, CudaTuning.threads(protocol), 0, s.handle(), launchParams);
        } catch (JcclException e) {
            if (captureId != 0) {
                // Nothing runs yet: the capture fails, and the rank's eager calls stay in step.
                throw new JcclException(e.code(), rank, "capturing its kernel into a CUDA graph: " + e.detail(), e);
            }
            // The peers' kernels of this call are running, waiting for this rank's: stop them now
            // rather than at their timeout, and refuse further work on this rank.
            JcclException failed = new JcclException(e.code(), rank, "launching its kernel: " + e.detail(), e);
            failure = failed;
            domain.abort();
            throw failed;
        }
        if (captureId != 0) {
            capturedOn(s);
            return;
        }
        launches++;
        if (ownEvent == null) {
            ownEvent = CudaDriver.createEvent(Cuda.CU_EVENT_DISABLE_TIMING);
        }
        CudaDriver.record(ownEvent, s.handle());
        lastEvent = ownEvent;
        lastStream = s;
        s.launchedBy(this);
    }

    /**
     * Before a launch on {@code on} that serves this rank's call on {@code own} (the same stream, or
     * a direct launch's): {@code on} waits for this rank's previous launch where it went on another
     * stream than {@code own} (whose order the launch keeps anyway).
     */
    void waitForPrevious(GpuStream on, GpuStream own, long captureId) {
        if (captureId == 0 && lastStream != null && lastStream != own) {
            CudaDriver.waitEvent(on.handle(), lastEvent);
        } else if (captureId != 0 && captureStream != null && captureStream != own && hold != null
                && hold.captureId == captureId) {
            CudaDriver.waitEvent(on.handle(), captureEvent);
        }
    }

    /**
     * After a direct launch served this rank's call on {@code own} (which waits for {@code done},
     * recorded after it): the call counts as this rank's launch, in its order.
     */
    void launchedDirect(GpuStream own, long captureId, MemorySegment done) {
        if (captureId != 0) {
            holdFor(captureId);
            capturedOn(own);
            return;
        }
        launches++;
        lastEvent = done;
        lastStream = own;
        own.launchedBy(this);
    }

    /** A direct launch serving this rank failed: the rank refuses work from now on. */
    void failedDirect(JcclException e) {
        failure = e;
    }

    /** The driver destroyed a graph holding this rank's descriptors (called on a driver thread). */
    void graphReleased(GraphHolds.Hold h) {
        released.add(h);
    }

    /** Lets the descriptors of destroyed graphs be reused. */
    void releaseHeld() {
        for (GraphHolds.Hold h; (h = released.poll()) != null; ) {
            h.descriptors.forEach(descriptors::release);
            if (hold == h) {
                hold = null;
            }
        }
    }

    /**
     * How many of this rank's launches have finished: all of them once the event recorded after the
     * last one has (the launches are in one order: a launch on another stream waits for that event).
     */
    private long launchesFinished(boolean wait) {
        if (lastEvent == null) {
            return launches;
        }
        if (wait && !capturing) {
            CudaDriver.synchronizeEvent(lastEvent);
            return launches;
        }
        return CudaDriver.eventDone(lastEvent) ? launches : 0;
    }

    /** Device memory of this rank's descriptors and their scratch, kept and pooled (tests). */
    long descriptorBytes() {
        return descriptors.allocatedBytes();
    }

    /**
     * The device address of the call's descriptor for the launch being made: packed and uploaded
     * the first time, then reused while {@link DescriptorCache} keeps it.
     */
    private long descriptor(DescKey key, Plan plan, int redop, GraphHolds.Hold graph) {
        long launch = launches + 1;
        DescriptorCache.Entry known = descriptors.get(key, launch);
        if (known == null) {
            known = pack(key, plan, key.shape(), key.protocol(), key.type(), redop, key.in(), key.out(), launch);
        }
        if (graph != null) {
            graph.descriptors.add(descriptors.hold(key));
        }
        return known.descriptor().address();
    }

    /** Packs and uploads the descriptor of {@code key}, and keeps it. */
    private DescriptorCache.Entry pack(DescKey key, Plan plan, Object shape, Protocol p, DataType type, int redop, long[] in,
                                       long[] out, long launch) {
        RedOp op = key.op();
        long perLane = 0;
        if (p != Protocol.SIMPLE) {
            perLane = (WorkLayout.MAX_LINKS + 1) * ((p.maxMessageBytes(p.buffSize(domain.config)) + 15) & ~15L);
            long need = perLane * plan.lanes();
            int i = p.ordinal();
            if (scratchBytes[i] < need) {
                // The old scratch may still be in use by a launch in flight: it stays until close.
                scratch[i] = gpu.allocate(need);
                scratchBytes[i] = need;
            }
        }
        // Partial results of a plan that keeps them (butterfly, rhd, ...): a scratch of this
        // descriptor's own, since the operations of one launch run their lanes out of step and two
        // operations' lanes must not share one (it is kept and dropped with the descriptor).
        DescriptorCache.Block planScratch = plan.scratch() > 0 ? descriptors.take(plan.scratch() * type.size()) : null;
        WorkPacker.Launch l = new WorkPacker.Launch(CudaTuning.kernelProtocol(p), type.size(), redop,
                DeviceScalars.bits(type, op), domain.nranks, rank, in, out, domain.slotBytes(p),
                scratch[p.ordinal()], perLane, statusDevice, claim, gpu.abortFlag, config.timeout().toNanos(),
                planScratch == null ? 0 : planScratch.address());
        domain.fifos.connect(plan, shape, rank, p);
        WorkPacker.Fifos fifos = new WorkPacker.Fifos() {
            @Override
            public long address(WorkPacker.Conn c) {
                return c.sending() ? domain.fifos.sending(p, c.channel(), rank, c.peer())
                        : domain.fifos.receiving(p, c.channel(), c.peer(), rank);
            }

            @Override
            public boolean system(WorkPacker.Conn c) {
                return domain.fifos.crossesGpus(rank, c.peer());
            }
        };
        try (Arena a = Arena.ofConfined()) {
            long bytes = WorkPacker.pack(plan, rank, l, fifos, 0, a).bytes().byteSize();
            DescriptorCache.Block at = descriptors.take(bytes);
            WorkPacker.Packed packed = WorkPacker.pack(plan, rank, l, fifos, at.address(), a);
            gpu.upload(at.address(), packed.bytes(), bytes);
            DescriptorCache.Entry entry = new DescriptorCache.Entry(at, planScratch);
            descriptors.put(key, entry, launch);
            return entry;
        }
    }

    // ---- failures ----

    /** Reads what the kernels of this rank reported since the last check; throws the first failure. */
    synchronized void checkStatus() {
        if (!closed) {
            readStatus();
        }
        if (failure instanceof JcclException e) {
            // A fresh exception for this caller's stack, with the first failure's words.
            throw new JcclException(e.code(), rank, e.detail(), e);
        }
    }

    /** Takes the kernels' report (pinned host memory they write) into {@code failure}, the first one kept. */
    private void readStatus() {
        int code = statusCode();
        if (code != WorkLayout.STATUS_OK && failure == null) {
            String lost = domain.netFailure();
            failure = code == WorkLayout.STATUS_ABORTED && lost != null ? new JcclException(ErrorCode.REMOTE_ERROR, rank, lost)
                    : StatusReport.exception(rank, status, config.timeout());
        }
    }

    /**
     * Whether a stream waiting for this rank's kernels must poll {@link #watchPeers}: some ranks of
     * this communicator are in other processes (whose death it notices), or on other GPUs of this
     * process (whose kernels' failure must reach this GPU's).
     */
    boolean watchedWhileWaiting() {
        return domain.fifos.remote() != null || domain.spansGpus();
    }

    /** Whether this rank's kernels have reported a failure that {@link #checkStatus} has not taken yet. */
    boolean kernelsFailed() {
        try {
            return !closed && statusCode() != WorkLayout.STATUS_OK;
        } catch (IllegalStateException e) {
            return false; // closed meanwhile: its status memory is gone, and what it said is taken
        }
    }

    private int statusCode() {
        return status.get(ValueLayout.JAVA_INT, WorkLayout.offset(WorkLayout.STATUS, "code"));
    }

    /**
     * Fails this rank, and makes every kernel of its domain stop waiting, if a rank in another
     * process has died or aborted, or a rank of this process on another GPU has failed; called
     * while the caller waits for a stream.
     */
    void watchPeers() {
        domain.spreadFailure();
        GpuProcessFifos remote = domain.fifos.remote();
        if (remote == null || failure != null) {
            return;
        }
        int by = remote.abortedBy();
        int lost = remote.lost();
        if (by < 0 && lost >= 0) {
            // The kernels may still finish with what the dead process sent before it exited.
            long now = System.nanoTime();
            if (lostSeen == 0) {
                lostSeen = now;
            }
            if (now - lostSeen < io.jccl.transport.Wait.LOST_GRACE_NANOS) {
                return;
            }
        }
        if (by >= 0 || lost >= 0) {
            synchronized (this) {
                if (failure == null) {
                    failure = new JcclException(ErrorCode.REMOTE_ERROR, rank, by >= 0
                            ? remote.name(by) + " aborted the communicator" : remote.name(lost) + " died: its process is gone");
                }
            }
            domain.abort();
        }
    }

    @Override
    public synchronized void flush() {
        checkUsable();
        gpu.device.makeCurrent();
        launchesFinished(true);
        readStatus();
        checkUsable();
    }

    @Override
    public void fail(String cause, int lost) {
        synchronized (this) {
            if (closed) {
                return;
            }
            if (failure == null) {
                failure = new JcclException(ErrorCode.REMOTE_ERROR, rank, cause);
            }
        }
        domain.abort();
        GpuProcessFifos remote = domain.fifos.remote();
        if (remote != null) {
            remote.announceAbort();
        }
    }

    /** The first of: a kernel's own failure (its status word: a watchdog timeout, a size mismatch), a peer's death or abort. */
    @Override
    public JcclException asyncError() {
        synchronized (this) {
            if (!closed) { // the status memory goes with the arena
                watchPeers();
                readStatus();
            }
        }
        Throwable f = failure;
        return f == null || f instanceof JcclException ? (JcclException) f
                : new JcclException(ErrorCode.INTERNAL_ERROR, rank, String.valueOf(f), f);
    }

    /** Makes every kernel of this domain stop waiting, and every rank refuse work. */
    @Override
    public void abort() {
        domain.abort();
        failure = new JcclException(ErrorCode.INVALID_USAGE, rank, "rank " + rank + " called abort");
        GpuProcessFifos remote = domain.fifos.remote();
        if (remote != null) {
            remote.announceAbort();
        }
    }

    /** Frees this rank's memory; the last rank of the domain frees the FIFOs. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        gpu.device.makeCurrent();
        if (lastEvent != null) {
            CudaDriver.synchronizeEvent(lastEvent);
        }
        if (ownEvent != null) {
            CudaDriver.destroyEvent(ownEvent);
        }
        if (captureEvent != null) {
            CudaDriver.destroyEvent(captureEvent);
        }
        // The driver lets go of a destroyed graph's holds on a thread of its own, once its launches
        // are done: a moment for graphs destroyed just before this close.
        long until = System.nanoTime() + 200_000_000L;
        int graphs = GraphHolds.live(this);
        while (graphs > 0 && System.nanoTime() < until) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            graphs = GraphHolds.live(this);
        }
        if (graphs > 0) {
            Log.of(config, rank).warn(Config.Subsys.INIT, "closed while " + graphs + " CUDA graph(s) with its captured calls still exist: their"
                    + " device memory is freed now, so destroy them before launching again (a launch would read freed memory)");
        }
        domain.fifos.finish(rank);
        // The status memory goes with the arena: what it says stays for a later synchronize().
        readStatus();
        arena.close();
        domain.leave();
    }
}
