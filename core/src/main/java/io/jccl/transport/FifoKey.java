// SPDX-License-Identifier: Apache-2.0
package io.jccl.transport;

import io.jccl.proto.Protocol;

/**
 * One direction of one connection in one protocol: what names a FIFO everywhere, in the engines'
 * tables, in the socket transport's connection header and in the files of processes of a host.
 */
public record FifoKey(Protocol protocol, int channel, int from, int to) {
    /** Channels a plan may use (tree lanes are doubled for the split tree). */
    public static final int MAX_CHANNELS = 256;

    public FifoKey {
        if (channel < 0 || channel >= MAX_CHANNELS) {
            throw new IllegalArgumentException("channel " + channel + " is not in [0, " + MAX_CHANNELS + ")");
        }
    }

    /** The key as one number among {@code nranks} ranks, dense in (protocol, channel, from, to). */
    public long packed(int nranks) {
        return pack(protocol, channel, from, to, nranks);
    }

    /** {@link #packed} without making a key (hot paths). */
    public static long pack(Protocol protocol, int channel, int from, int to, int nranks) {
        return ((long) (protocol.ordinal() * MAX_CHANNELS + channel) * nranks + from) * nranks + to;
    }

    /** The key {@link #packed} gave among {@code nranks} ranks. */
    public static FifoKey unpack(long packed, int nranks) {
        int to = (int) (packed % nranks);
        long rest = packed / nranks;
        int from = (int) (rest % nranks);
        rest /= nranks;
        return new FifoKey(Protocol.values()[(int) (rest / MAX_CHANNELS)], (int) (rest % MAX_CHANNELS), from, to);
    }

    @Override
    public String toString() {
        return protocol.id() + " ch" + channel + " " + from + "->" + to;
    }
}
