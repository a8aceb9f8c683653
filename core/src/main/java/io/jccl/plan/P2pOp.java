// SPDX-License-Identifier: Apache-2.0
package io.jccl.plan;

/**
 * One send or receive of a point-to-point group, as planned: a direction, a peer and a size in
 * bytes (the data type only sizes a point-to-point transfer). Operation {@code i} of a rank's group
 * owns buffer {@code i}: the input buffer of a send, the output buffer of a receive.
 */
public record P2pOp(boolean send, int peer, long bytes) {
    public P2pOp {
        if (peer < 0 || bytes < 0) {
            throw new IllegalArgumentException((send ? "send to " : "recv from ") + peer + " of " + bytes + " bytes");
        }
    }

    public static P2pOp send(int peer, long bytes) {
        return new P2pOp(true, peer, bytes);
    }

    public static P2pOp recv(int peer, long bytes) {
        return new P2pOp(false, peer, bytes);
    }
}
