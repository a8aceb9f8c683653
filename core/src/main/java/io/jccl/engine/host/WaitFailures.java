// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.transport.FifoLayout;
import io.jccl.transport.PeerProcesses;
import io.jccl.transport.Transport;
import io.jccl.transport.Wait;

import java.time.Duration;

/**
 * What a wait of one rank of the host engine that gave up means ({@link Wait#end()}): the error
 * naming what was waited for and why it ended; a lost peer or another process's abort aborts this
 * process's ranks too, so that every rank fails naming the same cause.
 */
final class WaitFailures {
    /** How long a wait ended by another process's abort waits for that process's reason (told over the keep-alive). */
    private static final long CAUSE_GRACE_NANOS = 50_000_000;
    private final HostDomain domain;
    private final int rank;
    private final Duration timeout;

    WaitFailures(HostDomain domain, int rank, Duration timeout) {
        this.domain = domain;
        this.rank = rank;
        this.timeout = timeout;
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
                String told = domain.awaitCause(CAUSE_GRACE_NANOS);
                if (told != null) {
                    return new JcclException(ErrorCode.REMOTE_ERROR, rank, what + " aborted (" + where + "): " + told);
                }
                long word = wait.remoteAbort();
                int by = FifoLayout.abortedBy(word);
                int lostThere = FifoLayout.abortLost(word);
                String msg = what + ": rank " + by + " aborted the communicator" + (lostThere == rank
                        ? ": this rank was declared lost by the others (it was stopped, paused or cut off for too long) and cannot"
                                + " rejoin; close the communicator"
                        : lostThere >= 0 ? " after it lost " + domain.peers.describe(lostThere) : "") + " (" + where + ")";
                domain.abort(msg, rank, lostThere);
                return new JcclException(ErrorCode.REMOTE_ERROR, rank, msg);
            }
            case MISMATCH -> {
                return new JcclException(ErrorCode.INVALID_USAGE, rank, what + ": " + wait.mismatch() + " (" + where + ")");
            }
            case ABORTED -> {
                return new JcclException(ErrorCode.REMOTE_ERROR, rank, what + " aborted (" + where + "): " + domain.abortCause());
            }
            default -> {
                // The peer waited on may itself wait on a rank of this process that left: name that one too.
                int closed = domain.closedRank();
                String left = closed < 0 || closed == wait.peer() ? ""
                        : "; rank " + closed + ", a thread of this process, closed its communicator while the others still called";
                return new JcclException(ErrorCode.TIMEOUT, rank, what + ": no progress for " + timeout.toSeconds()
                        + " s (" + where + "); " + silent(wait.peer(), wait.forData()) + left);
            }
        }
    }

    /** What this rank saw of {@code peer}, which it waited for until the timeout ({@code data}: for a message from it). */
    private String silent(int peer, boolean data) {
        PeerProcesses peers = domain.peers;
        if (peer < 0) {
            return "a peer did not make the matching call";
        }
        if (peers == null || peers.inProcess(peer)) {
            int behind = domain.behind(rank, peer);
            return behind < 0 || behind == peer ? "rank " + peer + ", a thread of this process, did not make the matching call"
                    : "rank " + peer + ", a thread of this process, made the call and waits too; rank " + behind
                            + ", a thread of this process, did not make the matching call";
        }
        if (peers.transport(peer) == Transport.NET) {
            boolean made = data ? domain.fifos.netConnected(peer, rank) : domain.fifos.netConnected(rank, peer);
            return made
                    ? peers.describe(peer) + " is connected over the network but " + (data ? "sent nothing" : "took nothing")
                            + ": it did not make the matching call, it is stopped, or the network between them stopped carrying data"
                    : "the network connection " + (data ? "from " : "to ") + peers.describe(peer) + " was never made: it did"
                            + " not make the matching call, or it cannot be reached";
        }
        return peers.describe(peer) + " is alive but sent nothing: it did not make the matching call, or it is stopped"
                + " (SIGSTOP, a debugger, a long pause)";
    }

    /** The failure of {@code what} because the process of rank {@code lost} died; aborts this process's ranks and tells the others. */
    JcclException peerLost(int lost, String what, String where) {
        domain.abort("rank " + rank + " lost rank " + lost, rank, lost);
        return new JcclException(ErrorCode.REMOTE_ERROR, rank, what + ": lost " + domain.peers.describe(lost)
                + ": its process died (" + where + ")");
    }
}
