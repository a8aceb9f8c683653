// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.bootstrap.PeerInfo;

import java.util.List;

/**
 * How the FIFO of one connection reaches across: NCCL's order, the first that applies wins, and a
 * disabled one hands over to the next (JCCL_P2P_DISABLE, JCCL_SHM_DISABLE, rank 0's settings, so
 * that both ends of every connection choose alike).
 */
public enum Transport {
    /** Threads of one process: the receiver's native memory, by-reference Simple messages, park/unpark wake-ups. */
    P2P("P2P/in-process"),
    /** Processes of one host with the same {@code /dev/shm}: a file there mapped by both. */
    SHM("SHM//dev/shm"),
    /** Anything else: an in-process FIFO at each end and a network between them ({@link NetProxy}: sockets or ibverbs). */
    NET("NET");

    private final String label;

    Transport(String label) {
        this.label = label;
    }

    /** The transport between the ranks {@code a} and {@code b} describe. */
    static Transport between(PeerInfo a, PeerInfo b, boolean p2pDisable, boolean shmDisable) {
        if (a.sameProcess(b) && !p2pDisable) {
            return P2P;
        }
        if (a.sameHost(b) && a.shmDevice() == b.shmDevice() && a.shmDevice() != -1 && !shmDisable) {
            return SHM;
        }
        return NET;
    }

    /** Whether some pair of these ranks talks over sockets (then every rank publishes a listener). */
    public static boolean anyNet(List<PeerInfo> peers, boolean p2pDisable, boolean shmDisable) {
        for (int a = 0; a < peers.size(); a++) {
            for (int b = a + 1; b < peers.size(); b++) {
                if (between(peers.get(a), peers.get(b), p2pDisable, shmDisable) == NET) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return label;
    }
}
