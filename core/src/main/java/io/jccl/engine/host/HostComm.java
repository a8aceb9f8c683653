// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.Config;
import io.jccl.JcclException;
import io.jccl.engine.CallStamp;
import io.jccl.engine.CollectiveArgs;
import io.jccl.engine.EngineRank;
import io.jccl.engine.EngineStream;
import io.jccl.engine.Join;
import io.jccl.engine.JobChannels;
import io.jccl.engine.Memory;
import io.jccl.engine.P2pArgs;
import io.jccl.engine.Planner;
import io.jccl.engine.SharedSettings;
import io.jccl.log.Log;
import io.jccl.plan.Plan;
import io.jccl.proto.Protocol;
import io.jccl.transport.PeerProcesses;
import io.jccl.transport.Transport;
import io.jccl.transport.Wait;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One rank on the host engine: plans each call or group ({@link Planner}), makes it a {@link Work}
 * and queues it on the caller's stream, whose thread hands it to the rank's {@link RankExecutor}.
 * The rank's FIFOs (those it receives on) live in its arena.
 */
public final class HostComm extends EngineRank {
    private final HostDomain domain;
    /** Runs this rank's operations (its lanes), in issue order. */
    private final RankExecutor executor;
    private final AtomicLong issued = new AtomicLong();
    /** Collectives this rank has issued: the next one's sequence number, which its stamp holds. */
    private long collectives;
    /** The operation {@link #callRunningNanos} last saw under way, and since when (the keep-alive's thread only). */
    private long probedOp;
    private long probedSince;
    /** Whether messages carry their call's stamp (JCCL_CHECK_CALLS, rank 0's). */
    private final boolean stamped;
    /** The buffers registered through this rank and not yet deregistered, once per registration. */
    private final List<MemorySegment> registered = new ArrayList<>();

    HostComm(HostDomain domain, int rank, Config config) {
        super(rank, config, domain.planner);
        this.domain = domain;
        this.executor = new RankExecutor(domain, rank, config, RankCpus.of(config, domain.layout, rank));
        this.stamped = domain.config.checkCalls();
    }

    /**
     * Ranks of one process sharing their FIFOs, one per configuration. What decides plans (buffers,
     * algorithms, protocols, channels, tuning file) is rank 0's, as if distributed at init, so that
     * every rank plans alike; each rank keeps its own timeout and debug level.
     */
    public static HostComm[] createAll(java.util.List<Config> configs) {
        int n = configs.size();
        // Ranks given a host identity (JCCL_HOSTID) form servers as ranks on separate hosts would:
        // how one process emulates several servers; the others share this host.
        java.util.List<String> hosts = configs.stream().map(c -> c.hostId().map(h -> "id:" + h).orElse("")).toList();
        HostDomain d = new HostDomain(n, configs.getFirst(), io.jccl.topo.ServerLayout.ofHosts(hosts));
        for (int r = 0; r < n; r++) {
            d.join(new HostComm(d, r, configs.get(r)));
            JobChannels.log(Log.of(configs.get(r), r), d.tuner.topology(), r);
        }
        return d.comms.clone();
    }

    private static final Join<HostDomain> JOINING = new Join<>();

    /**
     * This process's rank of a communicator whose ranks {@code bootstrap} found, perhaps in several
     * processes ({@link Join}): ranks that are threads of this process share a domain (each calls
     * this from its own thread). Collective over the bootstrap.
     */
    public static HostComm join(io.jccl.bootstrap.Bootstrap bootstrap, Config config) {
        int rank = bootstrap.rank();
        int n = bootstrap.size();
        SharedSettings s = Join.shared(bootstrap, config);
        PeerProcesses peers = new PeerProcesses(s.commId(), bootstrap.peers(), bootstrap.peer(rank), s.p2pDisable(), s.shmDisable());
        boolean others = false;
        for (int r = 0; r < n; r++) {
            others |= peers.shm(r);
        }
        io.jccl.topo.ServerLayout hosts = io.jccl.topo.ServerLayout.ofHosts(bootstrap.locality().hostOf());
        io.jccl.topo.Layout channels = JobChannels.gather(bootstrap, config, hosts);
        return JOINING.join(bootstrap, s.commId(), others && rank == peers.localRanks()[0], new Join.Steps<HostDomain, HostComm>() {
            @Override
            public HostDomain domain() {
                Config shared = s.applyTo(config);
                io.jccl.tune.Tuner tuner = io.jccl.tune.Tuner.create(shared, hosts, s.cores(), s.tuningText()).withTopology(channels);
                return new HostDomain(n, shared, tuner, peers, Transport.anyNet(bootstrap.peers(), s.p2pDisable(), s.shmDisable()));
            }

            @Override
            public HostComm rank(HostDomain d) {
                HostComm c = new HostComm(d, rank, config);
                d.join(c);
                return c;
            }

            @Override
            public void setUp(HostDomain d, HostComm c) {
                if (Transport.anyNet(bootstrap.peers(), s.p2pDisable(), s.shmDisable())) {
                    // Every rank contributes its process's listener for connections over sockets.
                    d.fifos.connectNet(bootstrap, d, s.commId(), rank);
                }
                Log log = Log.of(config, rank);
                if (log.on(Config.Debug.INFO, Config.Subsys.INIT)) {
                    logTransports(log, rank, peers, d.fifos.describeNet());
                }
                JobChannels.log(log, d.tuner.topology(), rank);
            }

            @Override
            public boolean allJoined(HostDomain d) {
                return java.util.Arrays.stream(peers.localRanks()).allMatch(r -> d.comms[r] != null);
            }

            @Override
            public void failed(HostDomain d, HostComm c, RuntimeException e) {
                d.abort("rank " + rank + " failed to join: " + e.getMessage(), rank, -1);
                c.close();
            }
        });
    }

    /** JCCL_DEBUG=INFO: one line per peer, the transport of this rank's connections with it; how it reduces floats. */
    private static void logTransports(Log log, int rank, PeerProcesses peers, String net) {
        for (int r = 0; r < peers.size(); r++) {
            if (r == rank) {
                continue;
            }
            Transport t = peers.transport(r);
            log.info(Config.Subsys.INIT, peers.describe(r) + " via " + (t == Transport.NET && net != null ? net : t.toString()));
        }
        log.info(Config.Subsys.INIT, VectorKernels.describe());
    }

    /** Whether any two ranks of the communicator talk over sockets (else all through memory). */
    public boolean overSockets() {
        return domain.sockets;
    }

    @Override
    public String describe() {
        return "the host engine";
    }

    @Override
    public io.jccl.engine.CurrentCall currentCall() {
        Work w = executor.current();
        return w == null ? null : io.jccl.engine.CurrentCall.of(w.seq(), w.call());
    }

    /**
     * Measured by the thread that asks (the keep-alive's, a few times a second), so that running
     * an operation reads no clock: from when it first saw the operation under way.
     */
    @Override
    public long callRunningNanos() {
        long op = executor.running();
        long now = System.nanoTime();
        if (op != probedOp) {
            probedOp = op;
            probedSince = now;
        }
        return op == 0 ? 0 : now - probedSince;
    }

    /** The number of the operation this rank started last (0 before the first). */
    long lastStarted() {
        return executor.lastStarted();
    }

    /** The memory of the FIFOs this rank receives on. */
    Arena arena() {
        return executor.arena();
    }

    @Override
    protected void checkRunning() {
        executor.checkUsable();
    }

    @Override
    public Thread bufferThread(EngineStream stream) {
        return runner(stream).thread();
    }

    private StreamRunner runner(EngineStream stream) {
        if (stream instanceof StreamRunner r) {
            return r;
        }
        throw JcclException.invalidArgument(rank, "stream", "is a " + stream.apiName() + "; the host engine runs on a HostStream");
    }

    /**
     * Registers {@code buffer} with the network transport: by-reference messages from it go
     * without staging (RDMA straight from it on the IB net). Threads and /dev/shm need nothing.
     */
    @Override
    public synchronized void register(MemorySegment buffer) {
        checkUsable();
        if (!buffer.isNative()) {
            throw JcclException.invalidArgument(rank, "buffer", "is a heap segment; only native memory can be registered");
        }
        domain.fifos.registerUser(buffer);
        registered.add(buffer);
    }

    @Override
    public synchronized void deregister(MemorySegment buffer) {
        for (int i = 0; i < registered.size(); i++) {
            MemorySegment b = registered.get(i);
            if (b.address() == buffer.address() && b.byteSize() == buffer.byteSize()) {
                registered.remove(i);
                domain.fifos.deregisterUser(b);
                return;
            }
        }
        throw JcclException.invalidArgument(rank, "buffer", "was not registered with this communicator");
    }

    @Override
    public EngineRank joinChild(io.jccl.bootstrap.Bootstrap child) {
        return join(child, config);
    }

    @Override
    public void submit(List<CollectiveArgs> collectives, List<P2pArgs> p2p, EngineStream stream) {
        StreamRunner runner = runner(stream);
        checkUsable();
        List<Work> works = new ArrayList<>(collectives.size() + 1);
        long seq;
        // The collectives' numbers (their stamps) follow the issue order, as the peers' do.
        synchronized (this) {
            for (CollectiveArgs a : collectives) {
                works.add(collectiveWork(a));
            }
            if (!p2p.isEmpty()) {
                works.add(p2pWork(p2p));
            }
            if (works.isEmpty()) {
                return;
            }
            seq = issued.incrementAndGet();
        }
        runner.enqueue(executor.task(seq, works));
    }

    private Work collectiveWork(CollectiveArgs a) {
        Planner.Planned planned = domain.planner.plan(a, rank);
        Plan plan = planned.plan();
        Reduction red = a.collective().reduces() ? Reduction.of(a.type(), a.op(), domain.nranks) : null;
        java.util.function.Supplier<String> what = () -> a.collective().cliName() + " of " + a.count() + " "
                + a.type().name().toLowerCase() + (a.collective().rooted() ? " (root " + a.root() + ")" : "") + " ["
                + plan.algorithm() + "/" + planned.choice().protocol().id() + "]";
        long inBytes = a.type().bytes(a.collective().inputCount(a.count(), domain.nranks, rank, a.root()));
        long outBytes = a.type().bytes(a.collective().outputCount(a.count(), domain.nranks, rank, a.root()));
        boolean inputStable = !Memory.overlap(a.send(), inBytes, a.recv(), outBytes);
        long seq = collectives++;
        return new Work(plan, planned.choice().protocol(), new MemorySegment[] {a.send()}, new MemorySegment[] {a.recv()}, a.type().size(), red,
                inputStable, what, a, seq, stamped ? CallStamp.of(seq, a) : 0);
    }

    private Work p2pWork(List<P2pArgs> p2p) {
        MemorySegment[] in = new MemorySegment[p2p.size()];
        MemorySegment[] out = new MemorySegment[p2p.size()];
        for (int i = 0; i < p2p.size(); i++) {
            P2pArgs a = p2p.get(i);
            (a.send() ? in : out)[i] = a.buffer();
        }
        Plan plan = Planner.sendRecv(domain.nranks, rank, p2p, domain.slotBytes, domain.config.minChannels());
        boolean inputStable = true;
        for (P2pArgs s : p2p) {
            for (P2pArgs r : p2p) {
                if (s.send() && !r.send() && Memory.overlap(s.buffer(), s.bytes(), r.buffer(), r.bytes())) {
                    inputStable = false;
                }
            }
        }
        int count = p2p.size();
        return new Work(plan, Protocol.SIMPLE, in, out, 1, null, inputStable, () -> "send/recv group of " + count + " operation(s)",
                null, -1, 0);
    }

    @Override
    public void abort() {
        boolean first = !domain.aborted();
        domain.abort("rank " + rank + " called abort", rank, -1);
        if (first) {
            tellPeers("rank " + rank + " aborted the communicator (it called abort)");
        }
    }

    @Override
    public synchronized void fail(String cause, int lost) {
        if (!closed) {
            domain.abort(cause, rank, lost);
        }
    }

    /** Waits, at most JCCL_TIMEOUT, until every operation this rank issued has run. */
    @Override
    public void flush() {
        checkUsable();
        long target = issued.get();
        Wait w = new Wait(domain, config.timeout().toNanos(), Wait.Pacing.POLL);
        w.begin();
        while (executor.completed() < target) {
            if (!w.pause()) {
                break;
            }
        }
        checkUsable();
        if (executor.completed() < target) {
            throw new JcclException(io.jccl.ErrorCode.TIMEOUT, rank, (target - executor.completed()) + " operation(s) of this rank"
                    + " did not run within " + config.timeout().toSeconds() + " s: is a stream's thread blocked?");
        }
    }

    /** The first of: this rank's own failure, the communicator's abort, a process of this host that died. */
    @Override
    public JcclException asyncError() {
        Throwable f = executor.failure();
        if (f != null) {
            return f instanceof JcclException j ? j : new JcclException(io.jccl.ErrorCode.INTERNAL_ERROR, rank, String.valueOf(f), f);
        }
        int dead = domain.anyDead();
        if (dead >= 0 && !domain.aborted()) {
            executor.failures.peerLost(dead, "the communicator", "seen between calls");
        }
        String cause = domain.abortCause();
        return cause == null ? null : new JcclException(io.jccl.ErrorCode.REMOTE_ERROR, rank, cause);
    }

    /** Stops the lane workers and frees the FIFOs this rank receives on. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        executor.stopWorkers();
        registered.forEach(domain.fifos::deregisterUser);
        registered.clear();
        domain.fifos.finish(rank);
        domain.closing(rank);
        executor.arena().close();
        domain.leave();
    }
}
