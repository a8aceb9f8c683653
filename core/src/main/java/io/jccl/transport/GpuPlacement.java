// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.bootstrap.Bootstrap;
import io.jccl.bootstrap.PeerInfo;
import io.jccl.cuda.CudaDriver;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Where the ranks of a CUDA communicator are, as one of its ranks sees them, and how it reaches
 * each: decided at init from what every rank all-gathered (host, process, GPU, peer access) and
 * rank 0's transport settings, so that both ends of every connection choose alike.
 *
 * <ul>
 *   <li>a rank of this process: what {@link GpuFifos} says (device memory on one GPU, or
 *       between GPUs with peer access; else pinned host memory);</li>
 *   <li>another process of this host on this GPU: CUDA IPC, or pinned host memory with
 *       JCCL_P2P_DISABLE ({@link GpuProcessFifos});</li>
 *   <li>another process of this host on another GPU: CUDA IPC where peer access works both ways,
 *       else pinned host memory; system scope, no LL128;</li>
 *   <li>behind sockets (another host, or P2P and SHM both off): {@link NetFifos}; system scope,
 *       no LL128.</li>
 * </ul>
 */
public final class GpuPlacement {
    public final int rank;
    public final int size;
    public final PeerProcesses processes;
    /** Ranks of this process. */
    public final boolean[] local;
    /** Each rank's GPU, by PCI bus id. */
    public final String[] gpus;
    /** Some rank of another process of this host is on this GPU, or another (then /dev/shm is where they meet). */
    public final boolean otherProcessesHere;
    /** Some rank of another process of this host shares this GPU (its kernels and ours time-slice without MPS). */
    public final boolean otherProcessesOnThisGpu;
    /** Some pair of the communicator's ranks talks over sockets: every rank makes the socket transport. */
    public final boolean sockets;
    /** The most ranks on any one GPU of the communicator. */
    public final int sharing;
    /** Some host holds ranks on two GPUs. */
    public final boolean severalGpusOnAHost;
    /**
     * Where some host holds ranks on two GPUs: row r is rank r's view of which ranks' GPUs its own
     * GPU may access (1), as its process's driver sees it; null otherwise.
     */
    private final byte[][] reach;

    private GpuPlacement(Bootstrap bootstrap, long commId, boolean p2pDisable, boolean shmDisable, String busId, int ordinal) {
        rank = bootstrap.rank();
        size = bootstrap.size();
        byte[][] all = bootstrap.allGather(busId.getBytes(StandardCharsets.US_ASCII));
        gpus = new String[size];
        for (int r = 0; r < size; r++) {
            gpus[r] = new String(all[r], StandardCharsets.US_ASCII);
        }
        PeerInfo me = bootstrap.peer(rank);
        processes = new PeerProcesses(commId, bootstrap.peers(), me, p2pDisable, shmDisable);
        local = new boolean[size];
        boolean here = false;
        boolean onThisGpu = false;
        for (int r = 0; r < size; r++) {
            local[r] = processes.inProcess(r);
            if (local[r] || processes.overSockets(rank, r)) {
                continue; // behind sockets, its FIFOs are this process's pinned host memory, carried by the proxy
            }
            PeerInfo p = bootstrap.peer(r);
            if (p.shmDevice() != me.shmDevice() || p.shmDevice() == -1) {
                throw new JcclException(ErrorCode.INVALID_USAGE, rank, processes.describe(r) + " does not share this"
                        + " process's /dev/shm, where the CUDA engine's processes meet");
            }
            here = true;
            onThisGpu |= !otherGpu(rank, r);
        }
        otherProcessesHere = here;
        otherProcessesOnThisGpu = onThisGpu;
        sockets = NetFifos.needed(bootstrap, p2pDisable, shmDisable);
        Map<String, Integer> perGpu = new HashMap<>();
        Map<String, Integer> gpusPerHost = new HashMap<>();
        for (int r = 0; r < size; r++) {
            String host = bootstrap.peer(r).hostId();
            if (perGpu.merge(host + "/" + gpus[r], 1, Integer::sum) == 1) {
                gpusPerHost.merge(host, 1, Integer::sum);
            }
        }
        sharing = Collections.max(perGpu.values());
        severalGpusOnAHost = Collections.max(gpusPerHost.values()) > 1;
        if (severalGpusOnAHost) {
            // Each process sees only its own driver's view of peer access: both ends must say yes.
            byte[] canReach = new byte[size];
            for (int r = 0; r < size; r++) {
                canReach[r] = (byte) (otherGpu(rank, r) && !p2pDisable && peerAccess(ordinal, gpus[r]) ? 1 : 0);
            }
            reach = bootstrap.allGather(canReach);
        } else {
            reach = null;
        }
    }

    /**
     * Whether ranks {@code a} and {@code b}, one of them of this process, meet on one host (not
     * over sockets) with each on a GPU of its own.
     */
    public boolean otherGpu(int a, int b) {
        return !gpus[a].equals(gpus[b]) && !processes.overSockets(a, b);
    }

    /**
     * Whether the FIFOs between ranks {@code a} and {@code b} (one of them of this process) are in
     * pinned host memory because they are on two GPUs without peer access both ways.
     */
    public boolean viaHost(int a, int b) {
        return otherGpu(a, b) && (reach == null || reach[a][b] == 0 || reach[b][a] == 0);
    }

    /**
     * Collective over the bootstrap: every rank's GPU (this rank's: bus id {@code busId}, driver
     * ordinal {@code ordinal}) and, with several GPUs on a host, its peer access, all-gathered;
     * rank 0's {@code p2pDisable} and {@code shmDisable}.
     */
    public static GpuPlacement of(Bootstrap bootstrap, long commId, boolean p2pDisable, boolean shmDisable, String busId,
                                  int ordinal) {
        return new GpuPlacement(bootstrap, commId, p2pDisable, shmDisable, busId, ordinal);
    }

    /** Whether LL128 must stay out: some connection crosses PCIe (sockets, or host memory or IPC between GPUs). */
    public boolean withoutLl128() {
        return sockets || severalGpusOnAHost;
    }

    /** Whether this process's GPU {@code ordinal} and the GPU with bus id {@code busId} may access each other's memory. */
    private static boolean peerAccess(int ordinal, String busId) {
        try {
            int other = CudaDriver.deviceByPciBusId(busId);
            return CudaDriver.canAccessPeer(ordinal, other) && CudaDriver.canAccessPeer(other, ordinal);
        } catch (JcclException e) {
            return false; // not visible to this process (CUDA_VISIBLE_DEVICES): its memory is not ours to map
        }
    }

}
