// SPDX-License-Identifier: Apache-2.0
package io.jccl.plan;

/**
 * One end of a connection as a step sees it: the peer rank and the channel of the connection. A
 * connection is the FIFO from one rank to another on one channel; data on it arrives in order.
 */
public record Link(int peer, int channel) {
    @Override
    public String toString() {
        return "rank " + peer + "/ch" + channel;
    }
}
