// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

/**
 * Thrown inside the engines where a FIFO finds its peer's process gone outside a wait (a
 * single-copy read of a message from a process that has just died); the lane turns it into the
 * same failure as a wait that saw the death, so every rank names the lost one alike.
 */
public final class PeerGone extends RuntimeException {
    /** The rank whose process is gone. */
    public final int rank;

    PeerGone(int rank, String detail) {
        super(detail, null, false, false);
        this.rank = rank;
    }
}
