// SPDX-License-Identifier: Apache-2.0
package io.jccl.plan;

/** The FIFO from rank {@code from} to rank {@code to} on one channel. */
public record Connection(int channel, int from, int to) {
    @Override
    public String toString() {
        return "ch" + channel + " " + from + "->" + to;
    }
}
