// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine.host;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.engine.CallStamp;
import io.jccl.plan.Buf;
import io.jccl.plan.Link;
import io.jccl.plan.Region;
import io.jccl.plan.Segment;
import io.jccl.plan.Step;
import io.jccl.proto.Protocol;
import io.jccl.transport.Fifo;
import io.jccl.transport.PeerGone;
import io.jccl.transport.Wait;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Interprets one lane of a rank's plan over the FIFOs of the operation's protocol: for every tile,
 * every step waits for its incoming messages and for room in its outgoing FIFOs, computes straight
 * from the incoming message into the outgoing one (or the user buffer), then sends and releases. One per
 * (communicator, lane); used by one thread at a time.
 */
final class LaneExecutor {
    private static final Fifo[] NONE = new Fifo[0];

    private final RankExecutor rank;
    private final int lane;
    private final Wait wait;
    /**
     * Messages at least this large go by reference when their data sits in a stable user region;
     * below it the copy is cheaper than the wait for the receiver's release (docs/results.md,
     * "Numbers behind the code").
     */
    static final long REFERENCE_MIN_BYTES = 64 << 10;

    /** The rank's scratch during a run. */
    private MemorySegment scratch;
    private Fifo[] recv = new Fifo[4];
    private Fifo[] send = new Fifo[4];
    /** The FIFOs this operation sent by-reference messages on, with the last such message's number. */
    private Fifo[] refFifos = new Fifo[4];
    private long[] refSeqs = new long[4];
    private int refCount;

    LaneExecutor(RankExecutor rank, int lane) {
        this.rank = rank;
        this.lane = lane;
        this.wait = Wait.forLane(rank.domain, rank.rank, rank.domain.otherProcessRanks, rank.config.timeout().toNanos());
    }

    /** Runs this lane of {@code w}; {@code scratch} is the rank's, grown for it. */
    void run(Work w, MemorySegment scratch) {
        this.scratch = scratch;
        Wait.startRunning();
        try {
            runSteps(w);
        } catch (PeerGone e) {
            throw rank.failures.peerLost(e.rank, w.description(), "lane " + lane + ", " + e.getMessage());
        } finally {
            Wait.stopRunning();
        }
    }

    private void runSteps(Work w) {
        int me = rank.rank;
        long tile = 0;
        refCount = 0;
        for (Segment seg : w.plan().segments(me)) {
            Step[] steps = seg.schedule().stepArray(me, lane);
            if (steps.length == 0) {
                tile += seg.repeat();
                continue;
            }
            for (long i = 0; i < seg.repeat(); i++, tile++) {
                long shift = seg.shift(i);
                for (int s = 0; s < steps.length; s++) {
                    execute(w, steps[s], shift, tile, s);
                }
            }
        }
        drainReferences(w);
    }

    /**
     * The operation is over for this lane only once every receiver has released the messages it
     * read in place from this rank's buffers: after that the caller may change them.
     */
    private void drainReferences(Work w) {
        for (int i = 0; i < refCount; i++) {
            Fifo f = refFifos[i];
            wait.beginTaken(f, refSeqs[i]);
            while (!f.consumed(refSeqs[i])) {
                if (!wait.pause()) {
                    throw stuck(w, null, -1, -1, "rank " + f.to() + " to take the last message sent to it on channel "
                            + f.channel());
                }
            }
            refFifos[i] = null;
        }
        refCount = 0;
    }

    private void noteReference(Fifo f, long seq) {
        for (int i = 0; i < refCount; i++) {
            if (refFifos[i] == f) {
                refSeqs[i] = seq;
                return;
            }
        }
        if (refCount == refFifos.length) {
            refFifos = java.util.Arrays.copyOf(refFifos, refCount * 2);
            refSeqs = java.util.Arrays.copyOf(refSeqs, refCount * 2);
        }
        refFifos[refCount] = f;
        refSeqs[refCount++] = seq;
    }

    private Fifo[] resolve(Protocol protocol, List<Link> links, boolean sending, Fifo[] into) {
        if (links.isEmpty()) {
            return NONE;
        }
        Fifo[] a = into.length >= links.size() ? into : new Fifo[links.size()];
        for (int i = 0; i < links.size(); i++) {
            Link l = links.get(i);
            a[i] = sending ? rank.domain.fifos.sending(protocol, l.channel(), rank.rank, l.peer())
                    : rank.domain.fifos.receiving(protocol, l.channel(), l.peer(), rank.rank);
        }
        return a;
    }

    private void execute(Work w, Step step, long shift, long tile, int index) {
        int nr = step.recv().size();
        int ns = step.send().size();
        Fifo[] in = resolve(w.protocol(), step.recv(), false, recv);
        Fifo[] out = resolve(w.protocol(), step.send(), true, send);
        if (in.length > recv.length) {
            recv = in;
        }
        if (out.length > send.length) {
            send = out;
        }
        long es = w.elementSize();
        long bytes = step.count() * es;
        for (int k = 0; k < nr; k++) {
            Fifo f = in[k];
            await(f, true, w, step, tile, index);
            int stamp = f.recvStamp();
            if (stamp != w.stamp() && stamp != 0 && w.stamp() != 0) {
                throw otherCall(w, f, stamp);
            }
            long got = f.recvSize();
            if (got != bytes) {
                throw new JcclException(ErrorCode.REMOTE_ERROR, rank.rank, w.description() + ": rank " + f.from()
                        + " sent " + got + " bytes on channel " + f.channel() + " where step " + index + " of tile " + tile
                        + " (" + step + ") expects " + bytes + "; ranks called different operations or sizes");
            }
        }
        for (int k = 0; k < ns; k++) {
            await(out[k], false, w, step, tile, index);
        }
        // Only Simple slots can name the sender's memory instead of holding the data, and only to
        // a receiver of this process or one that can copy out of this process (SimpleFifo).
        // Nor when the threads outnumber the cores: a by-reference sender waits for its receivers'
        // release before it finishes, which then costs a hand-over of a core per receiver.
        boolean referable = w.protocol() == Protocol.SIMPLE && bytes >= REFERENCE_MIN_BYTES && allReferable(out, ns)
                && Wait.threadsFitCores();
        Reduction red = w.reduction();
        // preMulSum changes an input before it is sent. Another reduction's input goes by reference
        // within the process and over the net (no copy into the slot; zero-copy from a registered
        // buffer on IB), but is copied for a receiver in another process: reducing out of the
        // sender's memory through single copy was slower there (docs/processes.md).
        boolean preSrc = red != null && step.src() != null && step.src().buf() == Buf.INPUT
                && (red.preMultiplies() || anyShared(out, ns));
        // Where the step's result lives once computed: a user buffer region, or the first send slot;
        // whether it may be sent by reference (a user region this call does not write again).
        MemorySegment resSeg;
        long resOff;
        boolean stable;
        switch (step.kind()) {
            case SEND -> {
                stable = !preSrc && (step.src().buf() == Buf.OUTPUT || step.src().buf() == Buf.INPUT && w.inputStable());
                // LL and LL128 copy the data into their lines as they send, from wherever it is.
                if ((stable && referable) || (!preSrc && w.protocol() != Protocol.SIMPLE)) {
                    resSeg = segment(w, step.src());
                    resOff = offset(step.src(), shift, es);
                    stable &= referable;
                } else {
                    stable = false;
                    resSeg = out[0].sendSegment();
                    resOff = out[0].sendOffset();
                    transform(red, segment(w, step.src()), offset(step.src(), shift, es), preSrc, resSeg, resOff,
                            step.count(), false, es);
                }
            }
            case RECV, RECV_COPY_SEND -> {
                resSeg = segment(w, step.dst());
                resOff = offset(step.dst(), shift, es);
                in[0].copyTo(resSeg, resOff, bytes);
                stable = step.dst().buf() != Buf.SCRATCH;
            }
            case RECV_REDUCE_SEND, RECV_REDUCE_COPY, RECV_REDUCE_COPY_SEND -> {
                boolean toDst = step.dst() != null;
                stable = toDst && step.dst().buf() != Buf.SCRATCH;
                resSeg = toDst ? segment(w, step.dst()) : out[0].sendSegment();
                resOff = toDst ? offset(step.dst(), shift, es) : out[0].sendOffset();
                MemorySegment src = segment(w, step.src());
                long srcOff = offset(step.src(), shift, es);
                red.combine(in[0].recvSegment(), in[0].recvOffset(), false, src, srcOff, preSrc, resSeg, resOff,
                        step.count(), step.postOp() && nr == 1);
                for (int k = 1; k < nr; k++) {
                    red.combine(resSeg, resOff, false, in[k].recvSegment(), in[k].recvOffset(), false, resSeg, resOff,
                            step.count(), step.postOp() && k == nr - 1);
                }
            }
            case COPY_SEND, LOCAL_COPY -> {
                resSeg = segment(w, step.dst());
                resOff = offset(step.dst(), shift, es);
                transform(red, segment(w, step.src()), offset(step.src(), shift, es), preSrc, resSeg, resOff, step.count(),
                        step.postOp(), es);
                // Scratch is rewritten within the call: never sent by reference.
                stable = step.dst().buf() != Buf.SCRATCH;
            }
            default -> throw new IllegalStateException(step.kind().toString());
        }
        boolean byReference = stable && referable;
        for (int k = 0; k < ns; k++) {
            Fifo f = out[k];
            long seq = f.send(resSeg, resOff, bytes, byReference, w.stamp());
            if (byReference) {
                noteReference(f, seq);
            }
        }
        for (int k = 0; k < nr; k++) {
            in[k].release();
        }
    }

    private static boolean anyShared(Fifo[] fifos, int n) {
        for (int k = 0; k < n; k++) {
            if (fifos[k].shared()) {
                return true;
            }
        }
        return false;
    }

    private static boolean allReferable(Fifo[] fifos, int n) {
        for (int k = 0; k < n; k++) {
            if (!fifos[k].referable()) {
                return false;
            }
        }
        return true;
    }

    /** dst := post(pre(src)), or a plain copy when there is nothing to apply; no copy onto itself. */
    private static void transform(Reduction red, MemorySegment src, long srcOff, boolean pre, MemorySegment dst, long dstOff,
                                  long count, boolean post, long es) {
        if (red != null && (pre || post)) {
            red.combine(src, srcOff, pre, null, 0, false, dst, dstOff, count, post);
        } else if (!sameMemory(src, srcOff, dst, dstOff)) {
            MemorySegment.copy(src, srcOff, dst, dstOff, count * es);
        }
    }

    private static boolean sameMemory(MemorySegment a, long aOff, MemorySegment b, long bOff) {
        return a.heapBase().orElse(null) == b.heapBase().orElse(null) && a.address() + aOff == b.address() + bOff;
    }

    private MemorySegment segment(Work w, Region r) {
        return switch (r.buf()) {
            case INPUT -> w.inputs()[r.op()];
            case OUTPUT -> w.outputs()[r.op()];
            case SCRATCH -> scratch;
        };
    }

    /** Scratch is not shifted per tile: every tile reuses it. */
    private static long offset(Region r, long shift, long es) {
        return (r.buf() == Buf.SCRATCH ? r.offset() : r.offset() + shift) * es;
    }

    /**
     * The failure of a rank whose peer's message carries the stamp of another call: every rank
     * must make the same collectives in the same order. Names both calls where the other one is a
     * near one ({@link CallStamp#guess}).
     */
    private JcclException otherCall(Work w, Fifo f, int stamp) {
        io.jccl.engine.CollectiveArgs a = w.call();
        String mine = CallStamp.describe(w.seq(), a.collective(), a.count(), a.type(), a.op(), a.root());
        String theirs = CallStamp.guess(stamp, w.seq(), a, rank.domain.nranks);
        return new JcclException(ErrorCode.INVALID_USAGE, rank.rank, "rank " + rank.rank + " is at " + mine + " but rank " + f.from()
                + " sent a message of " + (theirs != null ? theirs : "another call (its stamp " + Integer.toHexString(stamp)
                + " is none of the calls one step from this one: another count, or calls further apart)") + " on channel "
                + f.channel() + ": " + CallStamp.SAME_CALLS);
    }

    /** Waits until {@code f} has a message ({@code data}) or room for one; a wait that ends says what it waited for. */
    private void await(Fifo f, boolean data, Work w, Step step, long tile, int index) {
        if (data) {
            wait.beginData(f);
        } else {
            wait.beginRoom(f);
        }
        while (data ? !f.hasData() : !f.hasRoom()) {
            if (!wait.pause()) {
                throw stuck(w, step, tile, index, (data ? "a message from rank " + f.from() : "room to send to rank " + f.to())
                        + " on channel " + f.channel());
            }
        }
    }

    private JcclException stuck(Work w, Step step, long tile, int index, String waitingFor) {
        return rank.failures.waitFailed(wait, w.description(), "lane " + lane + ", waiting for " + waitingFor
                + (step == null ? ", after the last step" : ", tile " + tile + ", step " + index + ": " + step));
    }
}
