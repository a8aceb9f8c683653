// SPDX-License-Identifier: Apache-2.0
package io.jccl;

import io.jccl.Config.Debug;
import io.jccl.Config.Subsys;
import io.jccl.bootstrap.Bootstrap;
import io.jccl.bootstrap.CommId;
import io.jccl.bootstrap.Launch;
import io.jccl.bootstrap.LaunchEnvironment;
import io.jccl.bootstrap.OutOfBandAllGather;
import io.jccl.engine.CollectiveArgs;
import io.jccl.engine.EngineRank;
import io.jccl.engine.EngineStream;
import io.jccl.engine.P2pArgs;
import io.jccl.engine.cuda.CudaComm;
import io.jccl.CudaDevice;
import io.jccl.engine.host.HostComm;
import io.jccl.log.Log;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One rank of a group of ranks that run collectives together, as an NCCL communicator. Buffers are
 * {@link MemorySegment}s, counts are element counts, and the in-place forms are NCCL's. Every call
 * is checked before it is queued (a bad argument is a {@link JcclException} naming the argument
 * and the rank) and then runs asynchronously on the given stream. Every rank must issue the same
 * collectives in the same order. After a failure the communicator refuses work until closed.
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="communicator-threads"}
 *
 * <p>One rank per process, as with NCCL's {@code ncclCommInitRank}: rank 0 makes a {@link CommId}
 * and hands its text to the others (or the launcher does, and {@link #fromEnvironment()} reads it);
 * {@code sendToTheOthers} and {@code receiveFromRank0} stand for the job's own channel (a file, a
 * key-value store), and {@code config} names the interface the ranks meet on:
 *
 * {@snippet class="io.jccl.JcclExamplesTest" region="communicator-processes"}
 *
 * <p>Ranks that are threads of one process talk through in-process FIFOs, ranks in other processes of
 * the same host through FIFOs in {@code /dev/shm}. Rank 0's plan-deciding settings and tuning file
 * are used by every rank. {@link #initAllCuda} makes ranks of the CUDA engine instead: device
 * buffers, {@link io.jccl.CudaStream}s, the same plans run by PTX kernels (docs/gpu.md).
 */
public final class Communicator implements AutoCloseable {
    /** The transports the host engine offers to its peers (published at bootstrap). */
    private static final Set<String> TRANSPORTS = Set.of("p2p", "shm");

    /** This rank on its engine (host or CUDA); null while a non-blocking init is under way. */
    private volatile EngineRank engine;
    /** The connections to the other ranks of a communicator made by {@code init}; null for {@code initAll}. */
    private volatile Bootstrap bootstrap;
    /** The ranks of the same {@code initAll} call; null for {@code init}. */
    private final ThreadRanks threadRanks;
    /** This rank's log: one line per call at INFO for COLL or P2P, as NCCL's. */
    private volatile Log log;
    private final int rank;
    private final int size;
    /** Why a non-blocking init failed, or null. */
    private volatile RuntimeException initFailure;
    /** Set by {@link #close}; an init that completes after it closes what it made. */
    private boolean closed;

    /** Where a communicator stands, as NCCL's {@code ncclCommGetAsyncError} reports it. */
    public enum State {
        /** A non-blocking init is under way: calls are refused with {@link ErrorCode#IN_PROGRESS}. */
        IN_PROGRESS,
        /** Usable. */
        READY,
        /** Init failed, or the communicator failed or was aborted: {@link #asyncError()} says why; close it. */
        FAILED
    }

    private Communicator(EngineRank engine, Bootstrap bootstrap, ThreadRanks threadRanks) {
        this(engine.rank(), engine.size(), threadRanks);
        ready(engine, bootstrap);
    }

    private Communicator(int rank, int size, ThreadRanks threadRanks) {
        this.rank = rank;
        this.size = size;
        this.threadRanks = threadRanks;
    }

    /**
     * Makes {@code e} this communicator's engine and starts the heartbeats with the ranks of other
     * processes; closes both if the communicator was closed while they were made.
     */
    private void ready(EngineRank e, Bootstrap b) {
        synchronized (this) {
            if (!closed) {
                log = initialized(e.config(), e.rank(), e.size(), e::describe);
                bootstrap = b;
                engine = e;
                if (b != null) {
                    PeerWatch watch = new PeerWatch(e, b, log);
                    b.onStranger(watch::stranger);
                    java.time.Duration every = e.shared().keepAlive();
                    if (b.size() > 1 && !every.isZero()) {
                        b.keepAlive(every, watch, watch);
                        e.tellFailuresTo(b::tellPeers);
                    }
                }
                return;
            }
        }
        if (b != null) {
            b.close();
        }
        e.close();
    }

    /** The engine, or the error of a call made before a non-blocking init completed. */
    private EngineRank engine() {
        EngineRank e = engine;
        if (e != null) {
            return e;
        }
        RuntimeException f = initFailure;
        if (f != null) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "the communicator failed to initialize and must be closed: "
                    + f.getMessage(), f);
        }
        throw new JcclException(ErrorCode.IN_PROGRESS, rank, "the communicator is still initializing (non-blocking init):"
                + " wait until state() is READY");
    }

    private static Log initialized(Config config, int rank, int size, Supplier<String> engine) {
        Log log = Log.of(config, rank);
        log.info(Subsys.INIT, () -> "init complete: rank " + rank + " of " + size + " on " + engine.get());
        return log;
    }

    /**
     * {@code n} ranks of this process on the CUDA engine, all on one GPU (jccl allows it; it is how a
     * one-GPU machine runs 2, 4 or 8 ranks). Buffers are device memory ({@link CudaDevice#allocate});
     * each rank issues on its own {@link CudaStream}.
     *
     * <pre>{@code
     * CudaDevice gpu = CudaDevice.open(0);
     * Communicator[] comms = Communicator.initAllCuda(4, gpu, Config.fromEnvironment());
     * // per rank r, on its own thread or inside one Group:
     * comms[r].allReduce(buf[r], buf[r], n, DataType.FLOAT32, RedOp.SUM, streams[r]);
     * streams[r].synchronize();
     * }</pre>
     */
    public static Communicator[] initAllCuda(int n, CudaDevice device, Config config) {
        if (n < 1) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "n", "must be at least 1, was " + n);
        }
        if (device == null || config == null) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, device == null ? "device" : "config", "is null");
        }
        return initAllCuda(java.util.Collections.nCopies(n, config), java.util.Collections.nCopies(n, device));
    }

    /**
     * One rank of this process per entry of {@code devices}, rank r on {@code devices.get(r)}, as
     * {@code ncclCommInitAll(comms, ndev, devlist)}. A GPU may be named more than once (its ranks
     * share it, as with {@link #initAllCuda(int, CudaDevice, Config)}). Ranks on GPUs that may
     * access each other's memory (cuDeviceCanAccessPeer both ways) write each other's FIFOs
     * directly; others meet in pinned host memory (so does every pair under JCCL_P2P_DISABLE).
     * Where the GPUs differ, LL128 is left out: jccl cannot yet tell NVLink, where its lines stay
     * whole, from PCIe (docs/gpu.md). Buffers are device memory of each rank's GPU; each rank
     * issues on its own {@link CudaStream} of that GPU.
     *
     * <pre>{@code
     * List<CudaDevice> gpus = List.of(CudaDevice.open(0), CudaDevice.open(1));
     * Communicator[] comms = Communicator.initAllCuda(gpus, Config.fromEnvironment());
     * // per rank r, on its own thread or inside one Group:
     * MemorySegment buf = gpus.get(r).allocate(n * 4L, arena);
     * comms[r].allReduce(buf, buf, n, DataType.FLOAT32, RedOp.SUM, streams[r]); // streams[r] on gpus.get(r)
     * streams[r].synchronize();
     * }</pre>
     */
    public static Communicator[] initAllCuda(List<CudaDevice> devices, Config config) {
        if (devices == null || devices.isEmpty()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "devices", devices == null ? "is null" : "is empty");
        }
        for (int r = 0; r < devices.size(); r++) {
            if (devices.get(r) == null) {
                throw JcclException.invalidArgument(r, "devices", "has no GPU for rank " + r);
            }
        }
        if (config == null) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "config", "is null");
        }
        return initAllCuda(java.util.Collections.nCopies(devices.size(), config), List.copyOf(devices));
    }

    /** Ranks of this process, rank r on {@code devices.get(r)} with {@code configs.get(r)} (rank 0's decides plans). */
    private static Communicator[] initAllCuda(List<Config> configs, List<CudaDevice> devices) {
        CudaComm[] ranks = CudaComm.createAll(configs, devices);
        ThreadRanks threads = new ThreadRanks(configs, members -> initAllCuda(pick(configs, members), pick(devices, members)));
        Communicator[] comms = new Communicator[ranks.length];
        for (int r = 0; r < ranks.length; r++) {
            comms[r] = new Communicator(ranks[r], null, threads);
        }
        return comms;
    }

    private static <T> List<T> pick(List<T> all, List<Integer> members) {
        return members.stream().map(all::get).toList();
    }

    /**
     * Rank {@code rank} of {@code nranks} on the CUDA engine, meeting the others at the root of
     * {@code id} as {@link #init(CommId, int, int, Config)} does: one rank per process (or several,
     * each on its own thread), all on {@code device}, which every rank must name alike, on one host.
     * Ranks of other processes get the receiver's FIFOs in device memory through CUDA IPC, or in
     * pinned host memory under /dev/shm with JCCL_P2P_DISABLE (docs/gpu.md).
     *
     * <pre>{@code
     * CudaDevice gpu = CudaDevice.open(0);
     * CommId id = rank == 0 ? CommId.create() : CommId.parse(textFromRank0);
     * try (Communicator c = Communicator.initCuda(id, nranks, rank, gpu, Config.fromEnvironment());
     *      Arena arena = Arena.ofShared(); CudaStream s = new CudaStream(gpu)) {
     *     MemorySegment buf = gpu.allocate(1024 * 4, arena);
     *     c.allReduce(buf, buf, 1024, DataType.FLOAT32, RedOp.SUM, s);
     *     s.synchronize();
     * }
     * }</pre>
     */
    public static Communicator initCuda(CommId id, int nranks, int rank, CudaDevice device, Config config) {
        if (id == null) {
            throw JcclException.invalidArgument(rank, "id", "is null");
        }
        if (device == null) {
            throw JcclException.invalidArgument(rank, "device", "is null");
        }
        requireConfig(rank, config);
        checkRank(nranks, rank);
        return start(rank, nranks, config, () -> Bootstrap.init(id, nranks, rank, config, CUDA_TRANSPORTS),
                b -> CudaComm.join(b, config, device));
    }

    /** This process's rank on the CUDA engine as its launcher describes it (see {@link #fromEnvironment()}), on {@code device}. */
    public static Communicator fromEnvironmentCuda(CudaDevice device, Config config) {
        if (device == null) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "device", "is null");
        }
        requireConfig(JcclException.NO_RANK, config);
        LaunchEnvironment le = LaunchEnvironment.from(System.getenv());
        return start(le.rank(), le.size(), config, () -> Launch.bootstrap(le, config, CUDA_TRANSPORTS),
                b -> CudaComm.join(b, config, device));
    }

    /** The transports the CUDA engine offers to its peers. */
    private static final Set<String> CUDA_TRANSPORTS = Set.of("cuda-p2p", "cuda-ipc", "cuda-shm");

    /** The communicator of {@code b}'s rank on the engine {@code join} joins; the bootstrap closes if that fails. */
    private static Communicator over(Bootstrap b, java.util.function.Supplier<EngineRank> join) {
        try {
            return new Communicator(join.get(), b, null);
        } catch (RuntimeException e) {
            b.close();
            throw e;
        }
    }

    /**
     * Rank {@code rank} of {@code size}: bootstrapped by {@code boot} and joined to its engine by
     * {@code join}, here, or (JCCL_COMM_BLOCKING=0) on a thread of its own while the caller gets the
     * communicator at once, {@link State#IN_PROGRESS} until then.
     */
    private static Communicator start(int rank, int size, Config config, java.util.function.Supplier<Bootstrap> boot,
                                      java.util.function.Function<Bootstrap, EngineRank> join) {
        if (config.blocking()) {
            Bootstrap b = boot.get();
            return over(b, () -> join.apply(b));
        }
        Communicator c = new Communicator(rank, size, null);
        Thread t = new Thread(() -> {
            try {
                Bootstrap b = boot.get();
                EngineRank e;
                try {
                    e = join.apply(b);
                } catch (RuntimeException x) {
                    b.close();
                    throw x;
                }
                c.ready(e, b);
            } catch (RuntimeException x) {
                c.initFailure = x;
                Log.of(config, rank).warn(Subsys.INIT, "non-blocking init failed: " + x.getMessage());
            }
        }, "jccl-init-" + rank);
        t.setDaemon(true);
        t.start();
        return c;
    }

    /**
     * Registers a user buffer with this rank, as {@code ncclCommRegister}, until
     * {@link #deregister} or {@link #close}. On the host engine, large messages the network
     * transport sends out of it then go without staging (RDMA straight from it on the IB net); on
     * the CUDA engine its memory kind is checked once (device memory of this communicator's GPU)
     * and later calls on buffers inside it skip the check. A heap segment is refused (it has no
     * stable address to register). See {@link Registration}.
     */
    public Registration register(MemorySegment buffer) {
        if (buffer == null) {
            throw JcclException.invalidArgument(rank(), "buffer", "is null");
        }
        engine().register(buffer);
        return new Registration(this, buffer);
    }

    /** Undoes {@code registration} ({@code ncclCommDeregister}); no call in flight may still use its buffer. */
    public void deregister(Registration registration) {
        if (registration == null) {
            throw JcclException.invalidArgument(rank(), "registration", "is null");
        }
        if (registration.communicator() != this) {
            throw JcclException.invalidArgument(rank(), "registration", "is " + registration + " of another communicator");
        }
        if (isClosed()) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank(), "the communicator is closed: its registrations went with it");
        }
        if (!registration.release()) {
            throw JcclException.invalidArgument(rank(), "registration", "was deregistered already");
        }
        engine().deregister(registration.buffer());
    }

    synchronized boolean isClosed() {
        return closed;
    }

    /**
     * Rank {@code rank} of {@code nranks}, meeting the others at the root of {@code id} (as
     * {@code ncclCommInitRank}). Every rank calls it, in its own process or thread; it returns once
     * all have joined, or fails after {@code JCCL_BOOTSTRAP_TIMEOUT} naming the ranks that did not.
     */
    public static Communicator init(CommId id, int nranks, int rank, Config config) {
        if (id == null) {
            throw JcclException.invalidArgument(rank, "id", "is null");
        }
        requireConfig(rank, config);
        checkRank(nranks, rank);
        return start(rank, nranks, config, () -> Bootstrap.init(id, nranks, rank, config, TRANSPORTS), b -> HostComm.join(b, config));
    }

    /** The checks of Bootstrap.init, made before a non-blocking init returns. */
    private static void checkRank(int nranks, int rank) {
        if (nranks < 1) {
            throw JcclException.invalidArgument(rank, "nranks", "must be at least 1, was " + nranks);
        }
        if (rank < 0 || rank >= nranks) {
            throw JcclException.invalidArgument(rank, "rank", "is " + rank + ", not a rank of 0.." + (nranks - 1));
        }
    }

    /**
     * The ranks of an all-gather the job already has (Spark barrier mode, MPI, a key-value store):
     * rank and size are {@code oob}'s. See {@link OutOfBandAllGather}.
     */
    public static Communicator init(OutOfBandAllGather oob, Config config) {
        if (oob == null) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "oob", "is null");
        }
        requireConfig(oob.rank(), config);
        return start(oob.rank(), oob.size(), config, () -> Bootstrap.init(oob, config, TRANSPORTS), b -> HostComm.join(b, config));
    }

    /**
     * This process's rank as its launcher describes it (torchrun, Open MPI, Slurm, {@code jccl perf
     * -p}; see docs/bootstrap.md), configured by {@link Config#fromEnvironment()}.
     */
    public static Communicator fromEnvironment() {
        return fromEnvironment(Config.fromEnvironment());
    }

    /** This process's rank as its launcher describes it, with {@code config}. */
    public static Communicator fromEnvironment(Config config) {
        requireConfig(JcclException.NO_RANK, config);
        LaunchEnvironment le = LaunchEnvironment.from(System.getenv());
        return start(le.rank(), le.size(), config, () -> Launch.bootstrap(le, config, TRANSPORTS), b -> HostComm.join(b, config));
    }

    private static void requireConfig(int rank, Config config) {
        if (config == null) {
            throw JcclException.invalidArgument(rank, "config", "is null");
        }
    }

    /**
     * A new communicator of the ranks that pass the same {@code color}, ranked by {@code key} and
     * then by their rank here (as {@code ncclCommSplit}); null for {@link #SPLIT_NO_COLOR}. Every
     * rank of this communicator must call it (the ranks of {@code initAll} and {@code initAllCuda}
     * each from its own thread); the new one outlives this one and keeps each rank's configuration
     * (and, on the CUDA engine, its GPU).
     *
     * <pre>{@code
     * // 8 ranks as 2 rows of 4: rank r joins row r / 4, ranked by r % 4 there
     * Communicator row = comms[r].split(r / 4, r % 4);
     * }</pre>
     */
    public Communicator split(int color, int key) {
        EngineRank e = engine();
        e.checkUsable();
        if (threadRanks != null) {
            return threadRanks.split(rank(), color, key);
        }
        Bootstrap child = bootstrap.split(color, key);
        return child == null ? null : over(child, () -> e.joinChild(child));
    }

    /**
     * A new communicator of the ranks not in {@code excludeRanks}, renumbered in their order here,
     * as {@code ncclCommShrink}: every remaining rank calls it with the same ranks, which need not be
     * alive. This communicator is aborted (its pending calls fail) and stays to be closed; the new one
     * is usable at once, with each rank's configuration (and GPU).
     *
     * <pre>{@code
     * // rank 3 was lost: the survivors go on without it
     * Communicator survivors = comm.shrink(new int[] {3});
     * comm.close();
     * survivors.allReduce(buf, buf, n, DataType.FLOAT32, RedOp.SUM, stream);
     * }</pre>
     */
    public Communicator shrink(int[] excludeRanks) {
        EngineRank e = engine();
        if (excludeRanks == null) {
            throw JcclException.invalidArgument(rank, "excludeRanks", "is null");
        }
        int[] out = excludeRanks.clone();
        for (int r : out) {
            if (r < 0 || r >= size) {
                throw JcclException.invalidArgument(rank, "excludeRanks", "holds " + r + ", not a rank of 0.." + (size - 1));
            }
            if (r == rank) {
                throw JcclException.invalidArgument(rank, "excludeRanks", "holds this rank itself; an excluded rank does not call shrink");
            }
        }
        e.fail("rank " + rank + " shrank the communicator, excluding ranks " + java.util.Arrays.toString(out), -1);
        if (threadRanks != null) {
            return threadRanks.shrink(rank, out);
        }
        Bootstrap child = bootstrap.shrink(out);
        return over(child, () -> e.joinChild(child));
    }

    /**
     * {@link #shrink(int[])} excluding the ranks this one knows were lost (found by the
     * keep-alive: killed, stopped, unreachable); every survivor knows the same ones once the
     * finder has told them, which takes a round trip after the failure is reported.
     */
    public Communicator shrink() {
        Bootstrap b = bootstrap;
        int[] lost = b == null ? new int[0] : b.lostRanks();
        // A failure that reached this rank through another (an abort) may precede its own news of the loss.
        long until = System.nanoTime() + 2 * engine().shared().keepAlive().toNanos();
        while (lost.length == 0 && b != null && System.nanoTime() < until) {
            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000);
            lost = b.lostRanks();
        }
        if (lost.length == 0) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "shrink(): no rank of this communicator is known to be lost;"
                    + " name the ranks to exclude with shrink(int[])");
        }
        return shrink(lost);
    }

    /** Where this communicator stands: initializing, ready, or failed ({@link #asyncError()} says why). */
    public State state() {
        if (engine == null) {
            return initFailure != null ? State.FAILED : State.IN_PROGRESS;
        }
        return asyncError() != null ? State.FAILED : State.READY;
    }

    /**
     * Why this communicator failed, or null while it is initializing or usable, as
     * {@code ncclCommGetAsyncError}: a failed non-blocking init, a failure raised on any thread
     * (a wait that gave up, a lost peer found by the keep-alive, another rank's abort), without
     * synchronizing any stream.
     *
     * <pre>{@code
     * Communicator c = Communicator.init(id, n, rank, Config.fromEnvironment().withBlocking(false));
     * while (c.state() == Communicator.State.IN_PROGRESS) {
     *     Thread.sleep(10); // or do other work
     * }
     * if (c.asyncError() != null) {
     *     throw c.asyncError();
     * }
     * }</pre>
     */
    public JcclException asyncError() {
        EngineRank e = engine;
        if (e == null) {
            RuntimeException f = initFailure;
            return f == null ? null : f instanceof JcclException j ? j
                    : new JcclException(ErrorCode.INTERNAL_ERROR, rank, "init failed: " + f, f);
        }
        return e.asyncError();
    }

    /**
     * Returns once every operation this rank issued has run, as {@code ncclCommFinalize}; throws
     * the failure of one that did not. Call it before {@link #close()} to flush outstanding work
     * (the name {@code finalize} is {@link Object}'s).
     */
    public void finish() {
        engine().flush();
    }

    /** The color of {@link #split} for ranks that join no new communicator (NCCL_SPLIT_NOCOLOR). */
    public static final int SPLIT_NO_COLOR = Bootstrap.NO_COLOR;

    /** {@code n} ranks of this process on the host engine; rank i is element i. */
    public static Communicator[] initAll(int n, Config config) {
        if (n < 1) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "n", "must be at least 1, was " + n);
        }
        if (config == null) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "config", "is null");
        }
        return initAll(java.util.Collections.nCopies(n, config));
    }

    /**
     * Ranks of this process on the host engine, each with its own configuration, as separate
     * processes would have. As in NCCL, what decides how calls run (buffer sizes, JCCL_ALGO,
     * JCCL_PROTO, channel bounds, the tuning file) is rank 0's, given to every rank at init so that
     * all ranks choose alike; each rank keeps its own timeout and debug level.
     */
    public static Communicator[] initAll(List<Config> configs) {
        if (configs == null || configs.isEmpty()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, "configs", "must name at least one rank's configuration");
        }
        for (int r = 0; r < configs.size(); r++) {
            if (configs.get(r) == null) {
                throw JcclException.invalidArgument(r, "configs", "holds null for rank " + r);
            }
        }
        int n = configs.size();
        HostComm[] engines = HostComm.createAll(configs);
        ThreadRanks ranks = new ThreadRanks(configs, members -> initAll(pick(configs, members)));
        Communicator[] comms = new Communicator[n];
        for (int r = 0; r < n; r++) {
            comms[r] = new Communicator(engines[r], null, ranks);
        }
        return comms;
    }

    /** {@code n} ranks configured from the environment ({@link Config#fromEnvironment()}). */
    public static Communicator[] initAll(int n) {
        return initAll(n, Config.fromEnvironment());
    }

    public int rank() {
        return rank;
    }

    /** Number of ranks. */
    public int size() {
        return size;
    }

    public Config config() {
        return engine().config();
    }

    /** How this communicator runs a collective of this shape (for tools and logs); every rank answers alike. */
    public CallChoice choiceFor(Collective collective, long count, DataType type) {
        return callChoice(engine().choiceFor(new CollectiveArgs(collective, null, null, count, type, RedOp.SUM, 0)));
    }

    private static CallChoice callChoice(io.jccl.tune.Choice c) {
        return new CallChoice(c.algorithm().id(), c.protocol().id(), c.channels(), c.source().name().toLowerCase(java.util.Locale.ROOT));
    }

    /**
     * What a collective of {@code count} elements of {@code type} would cost on this communicator,
     * without running it (NCCL's {@code ncclGroupSimulateEnd}): the plan it would run, played by
     * the simulator on a model of this job (docs/simulator.md). The host engine's ranks are
     * modelled with links of {@code JCCL_INTER_BW} between servers (required where there are
     * several) and {@code JCCL_INTRA_BW} inside one (unset: unlimited), at the bundled calibration
     * of a 2-core machine's sockets or shared memory, as its ranks talk; the CUDA engine's one rank per GPU on nodes as
     * {@code JCCL_TOPO_FILE} describes them (required). Every rank answers alike. Refused for
     * send/recv, a negative count, or where the model lacks what it needs (naming the setting).
     */
    public CallEstimate estimate(Collective collective, long count, DataType type) {
        if (collective == null || collective == Collective.SEND_RECV) {
            throw JcclException.invalidArgument(rank(), "collective", collective == null ? "is null"
                    : "send/recv has no estimate: a group of sends and receives is no one collective");
        }
        if (type == null) {
            throw JcclException.invalidArgument(rank(), "type", "is null");
        }
        if (count < 0) {
            throw JcclException.invalidArgument(rank(), "count", "is negative: " + count);
        }
        EngineRank e = engine();
        e.checkUsable();
        boolean host = e instanceof HostComm;
        io.jccl.sim.CallSimulator sim = e instanceof HostComm h ? io.jccl.sim.JobModel.host(e.tuner(), rank(), h.overSockets())
                : io.jccl.sim.JobModel.gpu(e.tuner(), rank());
        String fabric = sim.simulator().fabric().describe();
        try {
            io.jccl.sim.CallSimulator.Estimate p = sim.estimate(collective, count, type, null, null, io.jccl.sim.CallSimulator.DEFAULT_BUDGET,
                    host ? null : io.jccl.sim.JobModel.gpuOnNodes(e.tuner(), rank()));
            return new CallEstimate(callChoice(p.choice()), p.micros(), fabric, p.how());
        } catch (IllegalArgumentException tooLarge) {
            // past what the simulator plays, and no smaller job stands for it: the tuner's own model, where it priced the call
            io.jccl.tune.Choice c = sim.choice(collective, count, type);
            if (Double.isNaN(c.predictedMicros())) {
                throw JcclException.invalidArgument(rank(), "count", count + " elements: " + tooLarge.getMessage()
                        + ", and a tuning table chose the call, so no model priced it");
            }
            return new CallEstimate(callChoice(c), c.predictedMicros(), fabric, "the tuner's model: " + tooLarge.getMessage());
        }
    }

    /**
     * How a {@link Group} in which every rank of the communicator makes this call, on buffers of
     * its own, runs it: where all ranks share one GPU of this process, in one launch for all of them
     * ({@code direct}: each element read from every rank's buffer and written to every rank's, no
     * FIFO), unless JCCL_ALGO or JCCL_PROTO forces a choice; else as {@link #choiceFor}.
     */
    public CallChoice groupChoiceFor(Collective collective, long count, DataType type) {
        EngineRank.Joint j = engine().joint();
        return j != null && j.takes(collective, count) ? new CallChoice("direct", "direct", 1, "group")
                : choiceFor(collective, count, type);
    }

    /** The engine's side of {@code stream}, which the engine checks is its own. */
    private EngineStream engineStream(Stream stream) {
        return switch (stream) {
            case HostStream h -> h.runner();
            case CudaStream c -> c.engineStream();
            case null -> throw JcclException.invalidArgument(rank(), "stream", "is null");
            default -> throw JcclException.invalidArgument(rank(), "stream", "is a " + stream.getClass().getName()
                    + "; jccl's streams are HostStream and CudaStream");
        };
    }

    private void collective(Collective c, MemorySegment send, MemorySegment recv, long count, DataType type, RedOp op,
                            int root, Stream stream) {
        EngineRank engine = engine();
        if (log.on(Debug.INFO, Subsys.COLL)) { // tested here: a call's path must not even make the message's lambda
            log.info(Subsys.COLL, c.cliName() + ": count " + count + " " + type + " " + op + " root " + root + " sendbuff "
                    + address(send) + " recvbuff " + address(recv) + " [nranks=" + size() + "]" + (Group.active() ? " in a group" : ""));
        }
        EngineStream s = engineStream(stream);
        engine.checkUsable();
        CollectiveArgs a = Checks.collective(rank(), size(), c, send, recv, count, type, op, root, engine.bufferThread(s));
        if (Group.active()) {
            Group.batch(this, stream).collectives.add(a);
        } else {
            engine.submit(a, s);
        }
    }

    private static String address(MemorySegment m) {
        return m == null ? "null" : m.isNative() ? "0x" + Long.toHexString(m.address()) : "heap";
    }

    /** This rank's part of a group, as its engine takes it. */
    EngineRank.Issue issueOf(List<CollectiveArgs> collectives, List<P2pArgs> p2p, Stream stream) {
        return new EngineRank.Issue(engine(), collectives, p2p, engineStream(stream));
    }

    /** Every rank gets the element-wise reduction of all ranks' {@code count} elements. */
    public void allReduce(MemorySegment sendbuff, MemorySegment recvbuff, long count, DataType type, RedOp op, Stream stream) {
        collective(Collective.ALL_REDUCE, sendbuff, recvbuff, count, type, op, 0, stream);
    }

    /** Every rank gets the root's {@code count} elements (only the root's sendbuff is read). */
    public void broadcast(MemorySegment sendbuff, MemorySegment recvbuff, long count, DataType type, int root, Stream stream) {
        collective(Collective.BROADCAST, sendbuff, recvbuff, count, type, null, root, stream);
    }

    /** The root gets the reduction of all ranks' elements (only the root's recvbuff is written). */
    public void reduce(MemorySegment sendbuff, MemorySegment recvbuff, long count, DataType type, RedOp op, int root,
                       Stream stream) {
        collective(Collective.REDUCE, sendbuff, recvbuff, count, type, op, root, stream);
    }

    /** Every rank gets all ranks' {@code sendcount} elements, rank r's at offset r * sendcount. */
    public void allGather(MemorySegment sendbuff, MemorySegment recvbuff, long sendcount, DataType type, Stream stream) {
        collective(Collective.ALL_GATHER, sendbuff, recvbuff, sendcount, type, null, 0, stream);
    }

    /** Rank r gets block r (of {@code recvcount} elements) of the reduction of all ranks' sendbuffs. */
    public void reduceScatter(MemorySegment sendbuff, MemorySegment recvbuff, long recvcount, DataType type, RedOp op,
                              Stream stream) {
        collective(Collective.REDUCE_SCATTER, sendbuff, recvbuff, recvcount, type, op, 0, stream);
    }

    /** Block j of rank i's sendbuff lands as block i of rank j's recvbuff; blocks of {@code count}. */
    public void allToAll(MemorySegment sendbuff, MemorySegment recvbuff, long count, DataType type, Stream stream) {
        collective(Collective.ALL_TO_ALL, sendbuff, recvbuff, count, type, null, 0, stream);
    }

    /** The root gets every rank's {@code count} elements, rank r's at offset r * count. */
    public void gather(MemorySegment sendbuff, MemorySegment recvbuff, long count, DataType type, int root, Stream stream) {
        collective(Collective.GATHER, sendbuff, recvbuff, count, type, null, root, stream);
    }

    /** Rank r gets block r of the root's sendbuff (blocks of {@code count}). */
    public void scatter(MemorySegment sendbuff, MemorySegment recvbuff, long count, DataType type, int root, Stream stream) {
        collective(Collective.SCATTER, sendbuff, recvbuff, count, type, null, root, stream);
    }

    private void p2p(boolean send, MemorySegment buf, long count, DataType type, int peer, Stream stream) {
        EngineRank engine = engine();
        if (log.on(Debug.INFO, Subsys.P2P)) {
            log.info(Subsys.P2P, (send ? "send" : "recv") + ": count " + count + " " + type + (send ? " to" : " from") + " peer "
                    + peer + " buff " + address(buf) + (Group.active() ? " in a group" : ""));
        }
        EngineStream s = engineStream(stream);
        engine.checkUsable();
        P2pArgs a = Checks.p2p(rank(), size(), send, buf, count, type, peer, engine.bufferThread(s));
        if (Group.active()) {
            Group.batch(this, stream).p2p.add(a);
        } else {
            engine.submit(List.of(), List.of(a), s);
        }
    }

    /**
     * Sends {@code count} elements to {@code peer}, which must post the matching {@link #recv}.
     * Outside a group a send waits for its receive; put sends and receives that depend on each
     * other in one {@link Group}.
     */
    public void send(MemorySegment sendbuff, long count, DataType type, int peer, Stream stream) {
        p2p(true, sendbuff, count, type, peer, stream);
    }

    /** Receives {@code count} elements from {@code peer}. */
    public void recv(MemorySegment recvbuff, long count, DataType type, int peer, Stream stream) {
        p2p(false, recvbuff, count, type, peer, stream);
    }

    /**
     * Block j of rank i's {@code sendbuff} lands in rank j's {@code recvbuff}, with sizes of each
     * pair's choosing, as {@code MPI_Alltoallv} or torch's {@code all_to_all_single} with split
     * sizes: {@code sendCounts[j]} elements from element {@code sendDispls[j]} of {@code sendbuff}
     * go to rank j, and {@code recvCounts[i]} elements from rank i land at element
     * {@code recvDispls[i]} of {@code recvbuff}; rank j's {@code recvCounts[i]} must equal rank i's
     * {@code sendCounts[j]}: a pair that disagrees fails its send/receive naming both sizes, or,
     * where the sender's count is zero (nothing travels), at {@code JCCL_TIMEOUT} naming the peer
     * that sent nothing. Counts may be zero. It is one {@link Group} of sends and receives, one pair per peer (itself
     * included), so it may sit in the caller's own group.
     *
     * <pre>{@code
     * // 2 ranks: rank 0 keeps 1 element and sends 3 to rank 1; rank 1 sends 2 to rank 0 and keeps 0
     * long[][] sendCounts = {{1, 3}, {2, 0}};
     * long[] sc = sendCounts[rank];
     * long[] rc = {sendCounts[0][rank], sendCounts[1][rank]};
     * comm.allToAllv(send, sc, new long[] {0, sc[0]}, recv, rc, new long[] {0, rc[0]}, DataType.FLOAT32, stream);
     * stream.synchronize();
     * }</pre>
     */
    public void allToAllv(MemorySegment sendbuff, long[] sendCounts, long[] sendDispls, MemorySegment recvbuff,
                          long[] recvCounts, long[] recvDispls, DataType type, Stream stream) {
        if (type == null) {
            throw JcclException.invalidArgument(rank, "datatype", "is null");
        }
        MemorySegment[] out = slices("send", sendbuff, sendCounts, sendDispls, type);
        MemorySegment[] in = slices("recv", recvbuff, recvCounts, recvDispls, type);
        Group.start();
        try {
            // Peer by peer around the ring (self first), as NCCL's all-to-all posts them.
            for (int i = 0; i < size; i++) {
                int to = (rank + i) % size;
                int from = (rank - i + size) % size;
                send(out[to], sendCounts[to], type, to, stream);
                recv(in[from], recvCounts[from], type, from, stream);
            }
        } finally {
            Group.end();
        }
    }

    /** The block of {@code buf} each peer's counts and displacements name, checked against the buffer. */
    private MemorySegment[] slices(String side, MemorySegment buf, long[] counts, long[] displs, DataType type) {
        String cName = side + "Counts";
        String dName = side + "Displs";
        if (counts == null || displs == null) {
            throw JcclException.invalidArgument(rank, counts == null ? cName : dName, "is null");
        }
        for (String name : new String[] {cName, dName}) {
            int length = name.equals(cName) ? counts.length : displs.length;
            if (length != size) {
                throw JcclException.invalidArgument(rank, name, "has " + length + " entries but the communicator has "
                        + size + " ranks");
            }
        }
        long capacity = buf == null ? 0 : buf.byteSize() / type.size();
        MemorySegment[] blocks = new MemorySegment[size];
        for (int p = 0; p < size; p++) {
            if (counts[p] < 0) {
                throw JcclException.invalidArgument(rank, cName + "[" + p + "]", "is negative (" + counts[p] + ") for peer " + p);
            }
            if (displs[p] < 0) {
                throw JcclException.invalidArgument(rank, dName + "[" + p + "]", "is negative (" + displs[p] + ") for peer " + p);
            }
            if (counts[p] == 0) {
                continue; // an empty block needs no buffer; the pair still meets, so a peer expecting data is told
            }
            if (buf == null) {
                throw JcclException.invalidArgument(rank, side + "buff", "is null but peer " + p + " has " + counts[p] + " elements");
            }
            if (displs[p] > capacity || counts[p] > capacity - displs[p]) {
                throw JcclException.invalidArgument(rank, dName + "[" + p + "]", "+ " + cName + "[" + p + "] = elements "
                        + displs[p] + ".." + (displs[p] + counts[p]) + " for peer " + p + " lie beyond " + side + "buff's "
                        + capacity + " " + type + " elements");
            }
            blocks[p] = buf.asSlice(displs[p] * type.size(), counts[p] * type.size());
        }
        return blocks;
    }

    /**
     * Returns once every rank of this communicator has called it (a rank that is late holds the
     * others back), as {@code MPI_Barrier} or torch's {@code barrier()}. It is a one-element
     * all-reduce on a private stream, which no rank can finish before every rank's element has
     * arrived: every rank must call it in the same order as its other collectives. Not inside a
     * {@link Group} (it waits); see {@link #barrier(Stream)}.
     *
     * <pre>{@code
     * if (rank == 0) {
     *     writeCheckpoint();
     * }
     * comm.barrier(); // no rank reads the checkpoint before rank 0 has written it
     * }</pre>
     */
    public void barrier() {
        if (Group.active()) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "barrier() waits, so it cannot be inside a group;"
                    + " use barrier(stream) there");
        }
        Helpers h = helpers();
        barrier(h.stream);
        h.stream.synchronize();
    }

    /**
     * Enqueues a barrier on {@code stream}: work issued on it afterwards runs once every rank has
     * reached its barrier; the caller does not wait (synchronize the stream to wait). A one-element
     * all-reduce on a scratch word of this communicator's.
     *
     * <pre>{@code
     * comm.barrier(stream);
     * stream.synchronize();
     * }</pre>
     */
    public void barrier(Stream stream) {
        MemorySegment word = helpers().word;
        collective(Collective.ALL_REDUCE, word, word, 1, DataType.INT32, RedOp.SUM, 0, stream);
    }

    /**
     * The root's bytes on every rank, as torch's {@code broadcast_object_list} without the
     * objects: the length is broadcast first (one long), then the bytes, on a private stream; the
     * call returns when they are here. Other ranks' {@code data} is not read (it may be null).
     * Every rank calls it, in the same order as its other collectives.
     *
     * <pre>{@code
     * byte[] config = comm.broadcastBytes(rank == 0 ? Files.readAllBytes(path) : null, 0);
     * }</pre>
     */
    public byte[] broadcastBytes(byte[] data, int root) {
        if (root < 0 || root >= size) {
            throw JcclException.invalidArgument(rank, "root", "is " + root + ", not a rank of 0.." + (size - 1));
        }
        if (rank == root && data == null) {
            throw JcclException.invalidArgument(rank, "data", "is null on the root");
        }
        Helpers h = helpers();
        long[] length = {rank == root ? data.length : 0};
        h.run(MemorySegment.ofArray(length), length.length * 8L, (in, out) ->
                broadcast(in, out, 1, DataType.INT64, root, h.stream));
        byte[] got = rank == root ? data.clone() : new byte[(int) length[0]]; // the root's length fitted its byte[]
        if (got.length > 0) {
            h.run(MemorySegment.ofArray(got), got.length, (in, out) -> broadcast(in, out, got.length, DataType.UINT8, root, h.stream));
        }
        return got;
    }

    /**
     * Every rank's bytes on every rank, rank r's at index r, as torch's {@code all_gather_object}
     * without the objects; ranks may pass different lengths (empty ones too). The lengths are
     * all-gathered first (one long each), then the bytes, padded to the longest, on a private
     * stream; the call returns when they are here. Every rank calls it, in the same order as its
     * other collectives.
     *
     * <pre>{@code
     * List<byte[]> hostNames = comm.allGatherBytes(InetAddress.getLocalHost().getHostName().getBytes(UTF_8));
     * }</pre>
     */
    public List<byte[]> allGatherBytes(byte[] data) {
        if (data == null) {
            throw JcclException.invalidArgument(rank, "data", "is null");
        }
        Helpers h = helpers();
        long[] lengths = new long[size];
        lengths[rank] = data.length;
        h.run(MemorySegment.ofArray(lengths), lengths.length * 8L, (in, out) ->
                allGather(in.asSlice(rank * 8L, 8), out, 1, DataType.INT64, h.stream));
        long longest = java.util.Arrays.stream(lengths).max().orElse(0);
        if (longest * size > Integer.MAX_VALUE - 8) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "the ranks send " + size + " blocks of up to " + longest
                    + " bytes, more than a byte[] holds");
        }
        int block = (int) longest;
        byte[] all = new byte[block * size];
        System.arraycopy(data, 0, all, block * rank, data.length);
        if (block > 0) {
            h.run(MemorySegment.ofArray(all), all.length, (in, out) ->
                    allGather(in.asSlice((long) block * rank, block), out, block, DataType.UINT8, h.stream));
        }
        List<byte[]> result = new java.util.ArrayList<>(size);
        for (int r = 0; r < size; r++) {
            result.add(java.util.Arrays.copyOfRange(all, block * r, block * r + (int) lengths[r]));
        }
        return result;
    }

    /**
     * The root's object on every rank, by Java serialization over {@link #broadcastBytes}. Other
     * ranks deserialize what the root sent: only with trusted peers, and with a {@code filter}
     * naming the classes expected (null: the JVM-wide filter, {@code jdk.serialFilter}). Other
     * ranks' {@code object} is not read.
     *
     * <pre>{@code
     * ObjectInputFilter onlyMaps = ObjectInputFilter.Config.createFilter("java.util.HashMap;java.lang.*;!*");
     * HashMap<String, Integer> vocab = comm.broadcastObject(rank == 0 ? loadVocabulary() : null, 0, onlyMaps);
     * }</pre>
     */
    public <T extends java.io.Serializable> T broadcastObject(T object, int root, java.io.ObjectInputFilter filter) {
        byte[] bytes = broadcastBytes(rank == root ? serialize(object) : null, root);
        return rank == root ? object : deserialize(bytes, root, filter);
    }

    /**
     * Every rank's object on every rank, rank r's at index r (this rank's own is the object
     * passed), by Java serialization over {@link #allGatherBytes}. It deserializes what the peers
     * sent: only with trusted peers, and with a {@code filter} naming the classes expected (null:
     * the JVM-wide filter, {@code jdk.serialFilter}).
     *
     * <pre>{@code
     * ObjectInputFilter stats = ObjectInputFilter.Config.createFilter("java.lang.*;!*");
     * List<Long> rowsPerRank = comm.allGatherObject(rowsHere, stats);
     * }</pre>
     */
    public <T extends java.io.Serializable> List<T> allGatherObject(T object, java.io.ObjectInputFilter filter) {
        List<byte[]> all = allGatherBytes(serialize(object));
        List<T> result = new java.util.ArrayList<>(size);
        for (int r = 0; r < size; r++) {
            result.add(r == rank ? object : deserialize(all.get(r), r, filter));
        }
        return java.util.Collections.unmodifiableList(result);
    }

    private byte[] serialize(Object object) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(object);
        } catch (java.io.IOException e) {
            throw JcclException.invalidArgument(rank, "object", "cannot be serialized: " + e);
        }
        return bytes.toByteArray();
    }

    @SuppressWarnings("unchecked")
    private <T> T deserialize(byte[] bytes, int from, java.io.ObjectInputFilter filter) {
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes))) {
            if (filter != null) {
                in.setObjectInputFilter(filter);
            }
            return (T) in.readObject();
        } catch (java.io.IOException | ClassNotFoundException | ClassCastException e) {
            throw new JcclException(ErrorCode.REMOTE_ERROR, rank, "the object from rank " + from
                    + " cannot be deserialized here: " + e, e);
        }
    }

    /**
     * What the calls that own their buffers use: a private stream of this communicator's engine
     * and a scratch word, made on first use and closed with the communicator.
     */
    private final class Helpers {
        final Arena arena = Arena.ofShared();
        final Stream stream;
        final MemorySegment word;
        /** The GPU of a CUDA rank (its buffers are device memory); null on the host engine. */
        final CudaDevice gpu;

        Helpers(EngineRank e) {
            if (e instanceof CudaComm c) {
                gpu = c.device();
                stream = new CudaStream(gpu);
                word = gpu.allocate(8, arena);
            } else {
                gpu = null;
                stream = new HostStream();
                word = arena.allocate(8, 8);
            }
        }

        /**
         * Runs {@code call} on engine buffers holding {@code host} (its input, {@code outBytes} of
         * output over the same memory) and waits; {@code host} then holds the output. The host
         * engine works on {@code host} itself; a GPU's goes through device copies.
         */
        void run(MemorySegment host, long outBytes, java.util.function.BiConsumer<MemorySegment, MemorySegment> call) {
            if (gpu == null) {
                call.accept(host, host);
                stream.synchronize();
                return;
            }
            try (Arena a = Arena.ofConfined()) {
                MemorySegment d = gpu.allocate(Math.max(host.byteSize(), outBytes), a);
                gpu.copyToDevice(d, host);
                call.accept(d, d);
                stream.synchronize();
                gpu.copyToHost(host, d);
            }
        }

        void close() {
            try {
                if (stream instanceof AutoCloseable c) {
                    c.close();
                }
            } catch (Exception e) {
                // a failed communicator's last call: already reported to the caller who made it
            }
            arena.close();
        }
    }

    private Helpers helpers;

    private synchronized Helpers helpers() {
        EngineRank e = engine();
        if (helpers == null) {
            if (closed) {
                throw new JcclException(ErrorCode.INVALID_USAGE, rank, "the communicator is closed");
            }
            helpers = new Helpers(e);
        }
        return helpers;
    }

    /**
     * Issues {@code issue} on {@code stream} and returns its handle: a host stream marks where
     * the call's tasks begin and end, a CUDA stream records an event after its launches.
     */
    private Work async(String what, Stream stream, Runnable issue) {
        if (Group.active()) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, what + "Async cannot be inside a group, whose calls are"
                    + " issued at its end; group the plain calls and synchronize the stream");
        }
        return switch (stream) {
            case HostStream h -> Work.of(rank, what, h.runner().completion(issue));
            case CudaStream c -> Work.of(rank, what, c.engineStream().completion(engine(), issue));
            case null -> throw JcclException.invalidArgument(rank, "stream", "is null");
            default -> throw JcclException.invalidArgument(rank, "stream", "is a " + stream.getClass().getName()
                    + "; jccl's streams are HostStream and CudaStream");
        };
    }

    /**
     * {@link #allReduce} with a handle to wait on, as torch's {@code all_reduce(..., async_op=True)}.
     *
     * <pre>{@code
     * Work w = comm.allReduceAsync(grads, grads, n, DataType.FLOAT32, RedOp.SUM, stream);
     * w.join(); // throws the all-reduce's failure
     * }</pre>
     */
    public Work allReduceAsync(MemorySegment sendbuff, MemorySegment recvbuff, long count, DataType type, RedOp op,
                               Stream stream) {
        return async("allReduce", stream, () -> allReduce(sendbuff, recvbuff, count, type, op, stream));
    }

    /**
     * {@link #broadcast(MemorySegment, MemorySegment, long, DataType, int, Stream)} with a handle to wait on.
     *
     * <pre>{@code
     * Work w = comm.broadcastAsync(weights, weights, n, DataType.FLOAT32, 0, stream);
     * w.join();
     * }</pre>
     */
    public Work broadcastAsync(MemorySegment sendbuff, MemorySegment recvbuff, long count, DataType type, int root,
                               Stream stream) {
        return async("broadcast", stream, () -> broadcast(sendbuff, recvbuff, count, type, root, stream));
    }

    /**
     * {@link #allGather(MemorySegment, MemorySegment, long, DataType, Stream)} with a handle to wait on.
     *
     * <pre>{@code
     * Work w = comm.allGatherAsync(mine, all, n, DataType.FLOAT32, stream);
     * w.join();
     * }</pre>
     */
    public Work allGatherAsync(MemorySegment sendbuff, MemorySegment recvbuff, long sendcount, DataType type, Stream stream) {
        return async("allGather", stream, () -> allGather(sendbuff, recvbuff, sendcount, type, stream));
    }

    /**
     * {@link #reduceScatter} with a handle to wait on.
     *
     * <pre>{@code
     * Work w = comm.reduceScatterAsync(grads, shard, n, DataType.FLOAT32, RedOp.SUM, stream);
     * w.join();
     * }</pre>
     */
    public Work reduceScatterAsync(MemorySegment sendbuff, MemorySegment recvbuff, long recvcount, DataType type, RedOp op,
                                   Stream stream) {
        return async("reduceScatter", stream, () -> reduceScatter(sendbuff, recvbuff, recvcount, type, op, stream));
    }

    /**
     * {@link #allToAllv} with a handle to wait on, as torch's {@code all_to_all_single(..., async_op=True)}.
     *
     * <pre>{@code
     * Work w = comm.allToAllvAsync(send, sc, sd, recv, rc, rd, DataType.FLOAT32, stream);
     * w.join();
     * }</pre>
     */
    public Work allToAllvAsync(MemorySegment sendbuff, long[] sendCounts, long[] sendDispls, MemorySegment recvbuff,
                               long[] recvCounts, long[] recvDispls, DataType type, Stream stream) {
        return async("allToAllv", stream, () -> allToAllv(sendbuff, sendCounts, sendDispls, recvbuff, recvCounts, recvDispls,
                type, stream));
    }

    /**
     * {@link #barrier(Stream)} with a handle: it completes once every rank has reached the barrier.
     *
     * <pre>{@code
     * Work w = comm.barrierAsync(stream);
     * while (!w.isCompleted()) {
     *     doOtherWork();
     * }
     * }</pre>
     */
    public Work barrierAsync(Stream stream) {
        return async("barrier", stream, () -> barrier(stream));
    }

    /** Makes the pending and future operations of every rank of this communicator fail, then closes it. */
    public void abort() {
        EngineRank e = engine;
        if (e != null) {
            e.abort();
        }
        close();
    }

    /**
     * Frees this rank's resources; its peers must not use it any more. The heartbeats stop first,
     * telling the peers this rank leaves on purpose. Closing during a non-blocking init frees what
     * the init makes once it ends.
     */
    @Override
    public void close() {
        EngineRank e;
        Bootstrap b;
        Helpers h;
        synchronized (this) {
            closed = true;
            e = engine;
            b = bootstrap;
            h = helpers;
            helpers = null;
        }
        if (b != null) {
            b.close();
        }
        if (e != null) {
            e.close();
        }
        if (h != null) {
            h.close();
        }
    }

    @Override
    public String toString() {
        return "Communicator[rank " + rank() + " of " + size() + "]";
    }
}
