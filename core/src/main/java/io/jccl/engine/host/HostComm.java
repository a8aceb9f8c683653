package io.jccl.engine.host;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.engine.CollectiveArgs;
import io.jccl.engine.EngineRank;
import io.jccl.engine.EngineStream;
import io.jccl.engine.Join;
import io.jccl.engine.Memory;
import io.jccl.engine.P2pArgs;
import io.jccl.engine.Planner;
import io.jccl.Collective;
import io.jccl.plan.Plan;
import io.jccl.proto.Protocol;
import io.jccl.transport.PeerProcesses;
import io.jccl.transport.Transport;
import io.jccl.transport.Wait;
import io.jccl.tune.Choice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One rank on the host engine. Operations run in the order they were issued on this rank, whatever
 * stream carries them (every rank issues the same operations in the same order, so the FIFOs they
 * share stay in step). Lane 0 of an operation runs on the thread running the stream, the other
 * lanes on this rank's lane workers. The rank's FIFOs (those it receives on) live in its arena.
 */
public final class HostComm implements EngineRank {
    private final HostDomain domain;
    /** This rank's own settings: its timeout and debug level (plans follow the domain's shared config). */
    private final Config config;
    private final int rank;
    private final Arena arena = Arena.ofShared();
    private final LaneExecutor lane0;
    private final List<LaneWorker> workers = new ArrayList<>();
    private final AtomicLong issued = new AtomicLong();
    private volatile long completed;
    private volatile Throwable failure;
    private volatile boolean closed;

    HostComm(HostDomain domain, int rank, Config config) {
        this.domain = domain;
        this.config = config;
        this.rank = rank;
        this.lane0 = new LaneExecutor(this, 0);
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
        return JOINING.join(bootstrap, s.commId(), others && rank == peers.localRanks()[0], new Join.Steps<HostDomain, HostComm>() {
            @Override
            public HostDomain domain() {
                Config shared = s.applyTo(config);
                return new HostDomain(n, shared, io.jccl.tune.Tuner.create(shared,
                        io.jccl.topo.ServerLayout.ofHosts(bootstrap.locality().hostOf()), s.cores(), s.tuningText()), peers);
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
                if (config.debug() == Config.Debug.INFO) {
                    logTransports(rank, peers, d.config);
                }
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
    private static void logTransports(int rank, PeerProcesses peers, Config shared) {
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < peers.size(); r++) {
            if (r == rank) {
                continue;
            }
            Transport t = peers.transport(r);
            b.append("jccl INFO rank ").append(rank).append(": ").append(peers.describe(r)).append(" via ").append(t);
            if (t == Transport.NET) {
                b.append(" (").append(shared.socketThreads()).append(" proxy thread(s) per direction, ")
                        .append(shared.socketThreads() * shared.socksPerThread()).append(" socket(s) per connection)");
            }
            b.append('\n');
        }
        b.append("jccl INFO rank ").append(rank).append(": ").append(VectorKernels.describe()).append('\n');
        System.err.print(b);
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return domain.nranks;
    }

    @Override
    public Config config() {
        return config;
    }

    HostDomain domain() {
        return domain;
    }

    Arena arena() {
        return arena;
    }

    @Override
    public void checkUsable() {
        if (closed) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "the communicator is closed");
        }
        Throwable f = failure;
        if (f != null) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "the communicator failed and must be closed: " + f.getMessage(), f);
        }
        if (domain.aborted()) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "the communicator was aborted and must be closed: "
                    + domain.abortCause());
        }
    }

    @Override
    public Choice choiceFor(CollectiveArgs a) {
        return a.collective() == Collective.SEND_RECV ? domain.planner.sendRecvChoice() : domain.planner.plan(a, rank).choice();
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

    /** Checks only the arguments: host memory needs no registration. */
    @Override
    public void register(MemorySegment buffer) {
        checkUsable();
    }

    @Override
    public void deregister(MemorySegment buffer) {
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
        for (CollectiveArgs a : collectives) {
            works.add(collectiveWork(a));
        }
        if (!p2p.isEmpty()) {
            works.add(p2pWork(p2p));
        }
        if (works.isEmpty()) {
            return;
        }
        long seq = issued.incrementAndGet();
        runner.enqueue(() -> execute(seq, works));
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
        return new Work(plan, planned.choice().protocol(), new MemorySegment[] {a.send()}, new MemorySegment[] {a.recv()}, a.type().size(), red,
                inputStable, what);
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
        return new Work(plan, Protocol.SIMPLE, in, out, 1, null, inputStable, () -> "send/recv group of " + count + " operation(s)");
    }

    private void execute(long seq, List<Work> works) {
        Wait order = Wait.forLane(domain, domain.otherProcessRanks, config.timeout().toNanos());
        order.begin();
        while (completed != seq - 1 && failure == null) {
            if (!order.pause()) {
                // Ops of this rank on other streams that were issued first have not run; an abort
                // fails the operation below (checkUsable).
                if (order.end() == Wait.End.DEADLINE) {
                    fail(new JcclException(ErrorCode.TIMEOUT, rank, "operation " + seq + " waited "
                            + config.timeout().toSeconds() + " s for the operations issued before it on other streams"));
                } else if (order.end() != Wait.End.ABORTED) {
                    fail(waitFailed(order, "operation " + seq, "waiting for the operations issued before it on other streams"));
                }
                break;
            }
        }
        try {
            checkUsable();
            for (Work w : works) {
                run(w);
            }
        } catch (Throwable e) {
            fail(e);
            throw e;
        } finally {
            completed = seq;
        }
    }

    private void fail(Throwable e) {
        if (failure == null) {
            failure = e;
        }
        domain.abort("rank " + rank + " failed: " + e.getMessage(), rank, -1);
    }

    /** This rank's scratch memory for plans that keep partial results ({@code Buf.SCRATCH}); grown as needed. */
    private volatile MemorySegment scratch = MemorySegment.NULL;

    MemorySegment scratch() {
        return scratch;
    }

    private void run(Work w) {
        // Operations of a rank run one at a time, so its scratch is grown here, before any lane reads it.
        long need = w.plan().scratch() * w.elementSize();
        if (need > scratch.byteSize()) {
            scratch = arena.allocate(Math.max(need, 2 * scratch.byteSize()), 64);
        }
        int lanes = w.plan().lanes();
        if (lanes == 1) {
            lane0.run(w);
            return;
        }
        synchronized (workers) {
            while (workers.size() < lanes - 1) {
                workers.add(new LaneWorker(this, workers.size() + 1));
            }
        }
        LaneWorker.Job job = new LaneWorker.Job(w, lanes - 1);
        for (int l = 1; l < lanes; l++) {
            workers.get(l - 1).post(job);
        }
        Throwable mine = null;
        try {
            lane0.run(w);
        } catch (Throwable e) {
            mine = e;
            domain.abort("rank " + rank + " failed: " + e.getMessage(), rank, -1);
        }
        // The lanes' own waits have deadlines and see every abort, so this one needs neither: the
        // lanes end, failed or not.
        Wait helpers = new Wait(Wait.NOTHING, Wait.NO_DEADLINE, Wait.Pacing.HELPERS);
        helpers.begin();
        while (job.remaining.get() > 0) {
            helpers.pause();
        }
        Throwable f = mine != null ? mine : job.failure.get();
        if (f instanceof RuntimeException re) {
            throw re;
        }
        if (f != null) {
            throw new JcclException(ErrorCode.INTERNAL_ERROR, rank, "lane failed: " + f, f);
        }
    }

    /**
     * The failure of an operation's wait that gave up ({@code what}: the operation, {@code where}:
     * what it waited for); a lost peer or another process's abort aborts this process's ranks too.
     */
    JcclException waitFailed(Wait wait, String what, String where) {
        switch (wait.end()) {
            case LOST_PEER -> {
                return peerLost(wait.lostPeer(), what, where);
            }
            case REMOTE_ABORT -> {
                long word = wait.remoteAbort();
                int by = (int) word - 1;
                int lostThere = (int) (word >>> 32) - 1;
                String msg = what + ": rank " + by + " aborted the communicator"
                        + (lostThere >= 0 ? " after it lost " + domain.peers.describe(lostThere) : "") + " (" + where + ")";
                domain.abort(msg, rank, lostThere);
                return new JcclException(ErrorCode.REMOTE_ERROR, rank, msg);
            }
            case ABORTED -> {
                return new JcclException(ErrorCode.REMOTE_ERROR, rank, what + " aborted (" + where + "): " + domain.abortCause());
            }
            default -> {
                return new JcclException(ErrorCode.TIMEOUT, rank, what + ": no progress for " + config.timeout().toSeconds()
                        + " s (" + where + "); a peer did not make the matching call");
            }
        }
    }

    /** The failure of {@code what} because the process of rank {@code lost} died; aborts this process's ranks and tells the others. */
    JcclException peerLost(int lost, String what, String where) {
        domain.abort("rank " + rank + " lost rank " + lost, rank, lost);
        return new JcclException(ErrorCode.REMOTE_ERROR, rank, what + ": lost " + domain.peers.describe(lost)
                + ": its process died (" + where + ")");
    }

    @Override
    public void abort() {
        domain.abort("rank " + rank + " called abort", rank, -1);
    }

    /** Stops the lane workers and frees the FIFOs this rank receives on. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        synchronized (workers) {
            for (LaneWorker w : workers) {
                w.stop();
            }
        }
        domain.fifos.finish(rank);
        arena.close();
        domain.leave();
    }
}
