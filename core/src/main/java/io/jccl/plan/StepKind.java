package io.jccl.plan;

/**
 * The primitives of the NCCL family. "Reduce" combines the received messages with the source
 * region; the source is read with the reduction's pre-operation when it is the input buffer;
 * "copy" writes the destination region; "send" pushes the resulting data to every send link.
 */
public enum StepKind {
    /** msg := src; send msg. */
    SEND(false, true, true, false, false),
    /** dst := msg. */
    RECV(true, false, false, true, false),
    /** send reduce(msgs, src). */
    RECV_REDUCE_SEND(true, true, true, false, true),
    /** dst := reduce(msgs, src). */
    RECV_REDUCE_COPY(true, false, true, true, true),
    /** dst := reduce(msgs, src); send dst. */
    RECV_REDUCE_COPY_SEND(true, true, true, true, true),
    /** dst := msg; send msg. */
    RECV_COPY_SEND(true, true, false, true, false),
    /** dst := src; send src. */
    COPY_SEND(false, true, true, true, false),
    /** dst := src. */
    LOCAL_COPY(false, false, true, true, false);

    private final boolean recvs;
    private final boolean sends;
    private final boolean readsSrc;
    private final boolean writesDst;
    private final boolean reduces;

    StepKind(boolean recvs, boolean sends, boolean readsSrc, boolean writesDst, boolean reduces) {
        this.recvs = recvs;
        this.sends = sends;
        this.readsSrc = readsSrc;
        this.writesDst = writesDst;
        this.reduces = reduces;
    }

    public boolean recvs() {
        return recvs;
    }

    public boolean sends() {
        return sends;
    }

    public boolean readsSrc() {
        return readsSrc;
    }

    public boolean writesDst() {
        return writesDst;
    }

    public boolean reduces() {
        return reduces;
    }
}
