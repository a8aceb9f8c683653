// SPDX-License-Identifier: Apache-2.0
package io.jccl.plan;

/**
 * The primitives of the NCCL family. "Reduce" combines the received messages with the source
 * region; the source is read with the reduction's pre-operation when it is the input buffer;
 * "copy" writes the destination region; "send" pushes the resulting data to every send link.
 */
public enum StepKind {
    /** msg := src; send msg. */
    SEND(Does.READ | Does.SEND),
    /** dst := msg. */
    RECV(Does.RECV | Does.WRITE),
    /** send reduce(msgs, src). */
    RECV_REDUCE_SEND(Does.RECV | Does.READ | Does.REDUCE | Does.SEND),
    /** dst := reduce(msgs, src). */
    RECV_REDUCE_COPY(Does.RECV | Does.READ | Does.REDUCE | Does.WRITE),
    /** dst := reduce(msgs, src); send dst. */
    RECV_REDUCE_COPY_SEND(Does.RECV | Does.READ | Does.REDUCE | Does.WRITE | Does.SEND),
    /** dst := msg; send msg. */
    RECV_COPY_SEND(Does.RECV | Does.WRITE | Does.SEND),
    /** dst := src; send src. */
    COPY_SEND(Does.READ | Does.WRITE | Does.SEND),
    /** dst := src. */
    LOCAL_COPY(Does.READ | Does.WRITE);

    /** What a primitive does, as bits. */
    private static final class Does {
        static final int RECV = 1;
        static final int SEND = 1 << 1;
        static final int READ = 1 << 2;
        static final int WRITE = 1 << 3;
        static final int REDUCE = 1 << 4;
    }

    private final int does;

    StepKind(int does) {
        this.does = does;
    }

    /** Whether it receives messages. */
    public boolean recvs() {
        return (does & Does.RECV) != 0;
    }

    /** Whether it sends a message on every send link. */
    public boolean sends() {
        return (does & Does.SEND) != 0;
    }

    /** Whether it reads the source region. */
    public boolean readsSrc() {
        return (does & Does.READ) != 0;
    }

    /** Whether it writes the destination region. */
    public boolean writesDst() {
        return (does & Does.WRITE) != 0;
    }

    /** Whether it combines what it received with the source. */
    public boolean reduces() {
        return (does & Does.REDUCE) != 0;
    }
}
