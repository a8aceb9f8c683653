// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.Config;
import io.jccl.engine.Planner;
import io.jccl.log.Log;
import io.jccl.plan.RankSet;
import io.jccl.proto.Protocol;
import io.jccl.topo.CpuSet;
import io.jccl.tune.Tuner;

import io.jccl.transport.Fifo;
import io.jccl.transport.HostFifos;
import io.jccl.transport.NetOwner;
import io.jccl.transport.PeerProcesses;
import io.jccl.transport.Wait;


/**
 * What the ranks of one communicator in this process share: their FIFOs ({@link HostFifos}, made
 * by the transport of each connection), the plans they compute alike (so each is made once), and
 * the abort flag that makes every local rank's waits give up as soon as one rank fails (written
 * into the shared FIFOs too, so that the other processes give up as well).
 */
final class HostDomain implements NetOwner, Wait.Watch {
    final int nranks;
    final Config config;
    /** The Simple protocol's slot: the largest message of a send/recv exchange. */
    final long slotBytes;
    final HostComm[] comms;
    /** The FIFOs of the local ranks' connections. */
    final HostFifos fifos;
    /** The plans of this communicator's calls. */
    final Planner planner;
    /** Chooses every call's algorithm, protocol and channels; built once from the shared configuration. */
    final Tuner tuner;
    /** Which server each rank is on (the tuner's, so plans and choices see one layout). */
    final io.jccl.topo.ServerLayout layout;
    /** Where the ranks run when they span processes; null when all are threads of this process. */
    final PeerProcesses peers;
    private volatile String abortCause;
    private volatile int lostRank = -1;
    /** The first local rank that closed, or -1 (a rank that leaves while the others still call is their failure). */
    private volatile int closedRank = -1;
    /** Local ranks that joined and have not closed yet (the last one removes leftover files). */
    private int open;
    /** Ranks of this host in other processes: their threads compete for the cores too. */
    final int otherProcessRanks;
    /** The NUMA domains' CPUs of the local ranks, where the proxy threads run; null: anywhere. */
    private volatile CpuSet proxyCpus;
    /** Whether any two ranks talk over sockets (else all through memory): which calibration the simulator prices them at. */
    final boolean sockets;

    HostDomain(int nranks, Config config, io.jccl.topo.ServerLayout layout) {
        this(nranks, config, Tuner.create(config, layout).withTopology(io.jccl.engine.JobChannels.of(config, layout)), null,
                config.p2pDisable() && config.shmDisable());
    }

    /** {@code sockets}: whether any two ranks talk over sockets (else all through memory). */
    HostDomain(int nranks, Config config, Tuner tuner, PeerProcesses peers, boolean sockets) {
        this.sockets = sockets;
        tuner = io.jccl.sim.JobModel.priced(tuner, (t, rank) -> io.jccl.sim.JobModel.host(t, rank, sockets));
        this.nranks = nranks;
        this.config = config;
        this.slotBytes = Protocol.SIMPLE.slotBytes(config.buffSize());
        this.comms = new HostComm[nranks];
        this.tuner = tuner;
        this.layout = tuner.layout();
        this.peers = peers;
        this.otherProcessRanks = peers == null ? 0 : peers.otherProcessRanksHere();
        Log log = Log.of(config, Log.NO_RANK);
        this.fifos = new HostFifos(nranks, config, peers, r -> comms[r].arena(), log.infoLines(Config.Subsys.INIT));
        // Plans hold the steps of this process's ranks only: all of them when they are threads.
        RankSet mine = peers == null ? RankSet.all(nranks) : RankSet.of(nranks, peers.localRanks());
        this.planner = new Planner(tuner, config, mine, Planner.THREADS, log.infoLines(Config.Subsys.TUNING));
    }

    /** Adds a local rank's NUMA domain to where the proxy threads run (they serve every local rank). */
    synchronized void placed(RankCpus cpus) {
        CpuSet d = cpus.domainCpus();
        if (d != null) {
            java.util.BitSet b = d.cpus();
            if (proxyCpus != null) {
                b.or(proxyCpus.cpus());
            }
            proxyCpus = new CpuSet(b);
        }
    }

    /**
     * A proxy thread on the NUMA domains of the local ranks, as NCCL's proxy threads go on their
     * GPU's domain: not on one core, since a proxy thread and the lane it serves are both busy.
     */
    @Override
    public void proxyThreadStarted() {
        CpuSet c = proxyCpus;
        if (c != null) {
            RankCpus.pin(c, Log.of(config, Log.NO_RANK), Log.NO_RANK, "a proxy thread");
        }
    }

    /** Counts a local rank in; {@link #leave} counts it out. */
    synchronized void join(HostComm c) {
        comms[c.rank()] = c;
        open++;
    }

    /** Notes that local rank {@code rank} closes, before its memory goes (see {@link #closedUnder()}). */
    synchronized void closing(int rank) {
        if (closedRank < 0) {
            closedRank = rank;
        }
    }

    /** Counts a closing local rank out; the last one removes the files no peer will map and stops the socket transport. */
    void leave() {
        boolean last;
        synchronized (this) {
            last = --open == 0;
        }
        if (last) {
            fifos.close();
        }
    }

    /**
     * Why a call of a local rank found memory of this domain closed under it: the abort that closed
     * it, or the first local rank that closed its communicator (left) while others still used it;
     * null when neither happened.
     */
    String closedUnder() {
        String cause = abortCause;
        if (cause != null) {
            return cause;
        }
        int r = closedRank;
        return r < 0 ? null : "rank " + r + ", a thread of this process, closed its communicator while this call needed it";
    }

    /**
     * A rank of this process that has not started the operation {@code rank} is in (its number is
     * lower): {@code peer} if it has not, else the first other one, else -1. It tells which thread
     * a wait that timed out really waits for when the peer it waits on made the call and waits too.
     */
    int behind(int rank, int peer) {
        HostComm me = comms[rank];
        if (me == null) {
            return -1;
        }
        long mine = me.lastStarted();
        if (comms[peer] != null && comms[peer].lastStarted() < mine) {
            return peer;
        }
        for (int r = 0; r < comms.length; r++) {
            HostComm c = comms[r];
            if (c != null && c.lastStarted() < mine) {
                return r;
            }
        }
        return -1;
    }

    /** The first local rank that closed its communicator, or -1. */
    int closedRank() {
        return closedRank;
    }

    /** The rank a process of which died, as the first failure saw it, or -1. */
    int lostRank() {
        return lostRank;
    }

    @Override
    public boolean aborted() {
        return abortCause != null;
    }

    @Override
    public boolean dead(int rank) {
        return peers != null && peers.dead(rank);
    }

    @Override
    public int anyDead() {
        return peers == null ? -1 : peers.lost();
    }

    String abortCause() {
        return abortCause;
    }

    /**
     * The abort's cause, waiting at most {@code nanos} for one: another process's abort reaches the
     * shared FIFOs at once, its reason a moment later over the keep-alive. Null if none came.
     */
    String awaitCause(long nanos) {
        long until = System.nanoTime() + nanos;
        while (abortCause == null && System.nanoTime() < until) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        return abortCause;
    }

    /**
     * Makes every wait of every local rank give up (the first cause is kept), and those of the
     * other processes through the shared FIFOs ({@code by}: the rank that failed or aborted,
     * {@code lost}: the rank whose death caused it, or -1).
     */
    @Override
    public void abort(String cause, int by, int lost) {
        synchronized (this) {
            if (abortCause != null) {
                return;
            }
            if (lost >= 0) {
                lostRank = lost;
            }
            abortCause = cause;
        }
        fifos.abort(by, lost);
    }

    /** Ranks of this process whose current calls differ ({@code waiter} waits on {@code peer}); the keep-alive compares the others. */
    @Override
    public String mismatch(int waiter, int peer) {
        if (!config.checkCalls() || peers != null && !peers.inProcess(peer) || comms[waiter] == null || comms[peer] == null) {
            return null;
        }
        io.jccl.engine.CurrentCall a = comms[waiter].currentCall();
        io.jccl.engine.CurrentCall b = comms[peer].currentCall();
        return a != null && a.differsAt(b) ? a.against(waiter, peer, b) : null;
    }

    @Override
    public Fifo receiveFifo(Protocol protocol, int channel, int from, int to) {
        return fifos.receiving(protocol, channel, from, to);
    }

}
