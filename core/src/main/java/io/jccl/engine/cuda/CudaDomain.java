// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.cuda;

import io.jccl.CudaDevice;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.engine.JobChannels;
import io.jccl.engine.Planner;
import io.jccl.log.Log;
import io.jccl.plan.RankSet;
import io.jccl.proto.Protocol;
import io.jccl.transport.GpuFifos;
import io.jccl.transport.GpuProcessFifos;
import io.jccl.tune.Tuner;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ranks of a communicator in this process: their GPUs ({@link DomainGpu}: module, abort word,
 * memory of the domain's lifetime), the FIFOs of their connections ({@link GpuFifos}, made by the
 * transport of each), the tuner and the plans. Rank 0's configuration decides plans, as on the
 * host engine.
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
    /** The plans of this communicator's calls, fitted to the GPUs' resident blocks. */
    final Planner planner;
    /** Which lane uses each connection in a plan (plans are cached per shape, so this is bounded too). */
    private final Map<io.jccl.plan.Plan, Map<io.jccl.plan.Connection, Integer>> lanes = new ConcurrentHashMap<>();
    /** Each rank of this process's GPU; null for ranks of other processes. */
    private final DomainGpu[] gpuOf;
    /** The GPUs of this process's ranks, the first rank's first. */
    private final List<DomainGpu> gpus;
    /** Blocks every GPU of the communicator keeps resident at once, as all ranks agreed; 0 until then. */
    private volatile int agreedBlocks;
    /** Which rank launched on a stream: two ranks on one stream would wait for each other forever. */
    private final Map<Long, Integer> streamOwners = new ConcurrentHashMap<>();
    final CudaComm[] comms;
    private int open;
    /** The FIFOs of the local ranks' connections, by the transport of each. */
    final GpuFifos fifos;
    /** Which ranks are in this process. */
    private final boolean[] local;
    private volatile boolean aborted;
    /** One launch for a group's call of all ranks, where they are all on one GPU of this process; else null. */
    final DirectLaunch direct;
    /** Why the socket transport failed (a peer lost, a bad frame), or null. */
    private volatile String netFailure;

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
                tuner(config, devices.length, devices, sharing, false, null,
                        JobChannels.of(config, io.jccl.topo.ServerLayout.single(devices.length), gpusOf(devices))), null, sharing);
    }

    /** The ranks' GPUs by bus id, for detecting the node, or matching them to a topology file's GPUs. */
    static JobChannels.Gpus gpusOf(CudaDevice[] devices) {
        return new JobChannels.Gpus(io.jccl.cuda.CudaGpuProbe.of(),
                java.util.Arrays.stream(devices).map(d -> d == null ? null : d.pciBusId()).toList());
    }

    /**
     * The ranks of this process of a communicator that may span processes: rank r on
     * {@code devices[r]} (null for ranks of other processes), each rank's GPU named by
     * {@code gpuIds}; {@code remote} makes the FIFOs of connections with the other processes' ranks
     * (null if none is on this host); at most {@code sharing} ranks are on one GPU.
     */
    CudaDomain(int nranks, Config config, CudaDevice[] devices, String[] gpuIds, Tuner tuner, GpuProcessFifos remote,
               int sharing) {
        this.nranks = nranks;
        this.sharing = sharing;
        this.config = config;
        this.tuner = tuner;
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
        this.fifos = new GpuFifos(config, gpuOf, gpuIds, remote, () -> aborted);
        boolean allLocal = java.util.stream.IntStream.range(0, nranks).allMatch(r -> local[r]);
        this.direct = DirectLaunch.fits(nranks, allLocal, gpus.size()) ? new DirectLaunch(this, gpus.getFirst()) : null;
        this.planner = new Planner(tuner, config, localRanks(local), CudaTuning.fit(sharing, this::residentBlocks),
                Log.of(config, Log.NO_RANK).infoLines(Config.Subsys.TUNING));
    }

    /** The ranks of this process, which its plans hold the steps of. */
    private static RankSet localRanks(boolean[] local) {
        return RankSet.of(local.length, java.util.stream.IntStream.range(0, local.length).filter(r -> local[r]).toArray());
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
     * a host ({@code severalGpus}, or this process's alone): the tables are measured on one. Plans
     * lie on {@code topology}'s channels ({@link JobChannels}; null: the flat ones).
     */
    static Tuner tuner(Config config, int nranks, CudaDevice[] devices, int sharing, boolean severalGpus, String tuningText,
                       io.jccl.topo.Layout topology) {
        List<CudaDevice> mine = java.util.Arrays.stream(devices).filter(java.util.Objects::nonNull).toList();
        boolean oneGpu = !severalGpus && mine.stream().map(CudaDevice::pciBusId).distinct().count() == 1;
        int fewestSms = mine.stream().mapToInt(CudaDevice::multiprocessors).min().orElseThrow();
        double slowestMemory = mine.stream().mapToDouble(CudaDevice::memoryBandwidthGBps).min().orElseThrow();
        return CudaTuning.tuner(config, nranks, sharing, oneGpu ? mine.getFirst().name() : null, fewestSms, slowestMemory,
                tuningText, topology);
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

    /** The lane of every connection a plan's (planned) ranks send or receive on. */
    Map<io.jccl.plan.Connection, Integer> lanesOf(io.jccl.plan.Plan plan) {
        return lanes.computeIfAbsent(plan, CudaDomain::connectionLanes);
    }

    static Map<io.jccl.plan.Connection, Integer> connectionLanes(io.jccl.plan.Plan plan) {
        Map<io.jccl.plan.Connection, Integer> m = new HashMap<>();
        for (int i = 0; i < plan.ranks().size(); i++) {
            int r = plan.ranks().rank(i);
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
        return p.slotBytes(p.buffSize(config));
    }

    void claimStream(GpuStream s, int rank) {
        Integer owner = streamOwners.putIfAbsent(s.handle().address(), rank);
        if (owner != null && owner != rank) {
            throw JcclException.invalidArgument(rank, "stream", "is used by rank " + owner + " of this communicator;"
                    + " ranks sharing a GPU run concurrently and need a stream each");
        }
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
        io.jccl.config.Values values = io.jccl.config.Values.of(config);
        io.jccl.config.Selection<Protocol> allowed = values.get(io.jccl.config.Settings.PROTO);
        java.util.Map<io.jccl.Collective, java.util.Set<Protocol>> by = new java.util.EnumMap<>(io.jccl.Collective.class);
        allowed.byCollective().forEach((c, s) -> by.put(c, withoutLl128(s, c.cliName(), rank)));
        io.jccl.config.Selection<Protocol> without = new io.jccl.config.Selection<>(withoutLl128(allowed.fallback(), null, rank), by);
        return without.equals(allowed) ? config
                : values.with(io.jccl.config.Settings.PROTO, without, values.given(io.jccl.config.Settings.PROTO)).config();
    }

    private static java.util.Set<Protocol> withoutLl128(java.util.Set<Protocol> allowed, String collective, int rank) {
        java.util.Set<Protocol> s = java.util.EnumSet.copyOf(allowed);
        s.remove(Protocol.LL128);
        if (s.isEmpty()) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "JCCL_PROTO allows only LL128"
                    + (collective == null ? "" : " for " + collective) + ", which cannot cross"
                    + " the socket transport or go from one GPU to another (its lines are atomic only inside a GPU):"
                    + " allow LL or Simple");
        }
        return s;
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
        if (direct != null) {
            direct.close();
        }
        fifos.close();
        gpus.forEach(DomainGpu::close);
    }

    static JcclException internal(int rank, String what) {
        return new JcclException(ErrorCode.INTERNAL_ERROR, rank, what);
    }
}
