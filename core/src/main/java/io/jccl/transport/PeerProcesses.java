// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.bootstrap.PeerInfo;

import java.util.List;

/**
 * Where the ranks of a communicator that spans processes run, as the bootstrap found: which are
 * threads of this process, which are other processes of this host, the {@link Transport} of each
 * rank's connections with this process, and whether the processes of this host are still alive. A process
 * of this host that died is seen within {@link #CHECK_NANOS} of a wait asking. The CUDA engine's
 * ranks in several processes use it too (io.jccl.engine.cuda.ProcessFifos).
 */
public final class PeerProcesses {
    private static final long CHECK_NANOS = 50_000_000;

    /** Names this communicator's shared-memory files (from rank 0, so equal on every rank). */
    public final long commId;
    private final boolean[] inProcess;
    private final boolean[] shm;
    private final Transport[] transport;
    /** Ranks of this host in other processes, whatever their transport. */
    private final boolean[] otherProcessHere;
    private final int otherProcessRanksHere;
    /** Processes whose pid this one sees (not those of another pid namespace sharing /dev/shm): watched for death. */
    private final boolean[] watched;
    private final long[] pid;
    private final String[] hostname;
    private volatile long lastCheck;
    private volatile int lost = -1;
    /** Ranks whose process was seen dead (set once, never cleared), published by the write of {@link #deaths} after them. */
    private final boolean[] dead;
    private volatile int deaths;

    public PeerProcesses(long commId, List<PeerInfo> peers, PeerInfo me) {
        this(commId, peers, me, false, false);
    }

    /** With JCCL_P2P_DISABLE / JCCL_SHM_DISABLE as rank 0 set them. */
    public PeerProcesses(long commId, List<PeerInfo> peers, PeerInfo me, boolean p2pDisable, boolean shmDisable) {
        int n = peers.size();
        this.commId = commId;
        this.inProcess = new boolean[n];
        this.shm = new boolean[n];
        this.transport = new Transport[n];
        this.otherProcessHere = new boolean[n];
        this.watched = new boolean[n];
        this.pid = new long[n];
        this.hostname = new String[n];
        this.dead = new boolean[n];
        for (int r = 0; r < n; r++) {
            PeerInfo p = peers.get(r);
            inProcess[r] = p.sameProcess(me);
            transport[r] = Transport.between(me, p, p2pDisable, shmDisable);
            shm[r] = transport[r] == Transport.SHM;
            otherProcessHere[r] = !inProcess[r] && p.sameHost(me);
            pid[r] = p.pid();
            watched[r] = otherProcessHere[r] && ShmFiles.alive(p.pid());
            hostname[r] = p.hostname();
        }
        int k = 0;
        for (boolean b : otherProcessHere) {
            k += b ? 1 : 0;
        }
        this.otherProcessRanksHere = k;
    }

    /** Ranks of this host in other processes: their threads compete for this host's cores too. */
    public int otherProcessRanksHere() {
        return otherProcessRanksHere;
    }

    /** How this process's ranks talk with {@code rank} (for a rank of this process: with each other). */
    public Transport transport(int rank) {
        return transport[rank];
    }

    /** The transport of the connection between {@code from} and {@code to}, one of which is a rank of this process. */
    Transport transport(int from, int to) {
        return transport[inProcess[to] ? from : to];
    }

    /** Whether the connection between {@code from} and {@code to} (one of them a rank of this process) goes over sockets. */
    public boolean overSockets(int from, int to) {
        return transport(from, to) == Transport.NET;
    }

    /** Ranks of the communicator. */
    public int size() {
        return pid.length;
    }

    public boolean inProcess(int rank) {
        return inProcess[rank];
    }

    /** Whether this process talks with {@code rank} through {@code /dev/shm} files. */
    public boolean shm(int rank) {
        return shm[rank];
    }

    public long pid(int rank) {
        return pid[rank];
    }

    /** How messages name a rank's process. */
    public String describe(int rank) {
        return "rank " + rank + " (pid " + pid[rank] + " on " + hostname[rank] + ")";
    }

    /** The ranks of this process, ascending. */
    public int[] localRanks() {
        int c = 0;
        for (boolean b : inProcess) {
            c += b ? 1 : 0;
        }
        int[] out = new int[c];
        for (int r = 0, i = 0; r < inProcess.length; r++) {
            if (inProcess[r]) {
                out[i++] = r;
            }
        }
        return out;
    }

    /** A rank whose process on this host has died, or -1 (the first one seen). */
    public int lost() {
        check();
        return lost;
    }

    /** Whether the process of {@code rank} is on this host and has died. */
    public boolean dead(int rank) {
        check();
        return deaths > 0 && dead[rank];
    }

    /**
     * Looks at the watched processes at most every {@link #CHECK_NANOS} (a read of /proc each),
     * whichever thread asks.
     */
    private void check() {
        long now = System.nanoTime();
        if (now - lastCheck < CHECK_NANOS) {
            return;
        }
        lastCheck = now;
        for (int r = 0; r < pid.length; r++) {
            if (watched[r] && !dead[r] && !ShmFiles.alive(pid[r])) {
                dead[r] = true;
                deaths++;
                if (lost < 0) {
                    lost = r;
                }
            }
        }
    }
}
