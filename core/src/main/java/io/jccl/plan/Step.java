// SPDX-License-Identifier: Apache-2.0
package io.jccl.plan;

import java.util.Arrays;
import java.util.List;

/**
 * One primitive of a schedule. {@code recv} and {@code send} list the connections it reads and
 * writes (a tree node receives from two children); {@code src} and {@code dst} are the buffer
 * regions, all of the same element count, the count of every message it moves. {@code postOp}
 * marks the step that produces a final reduced value (it applies the reduction's post-operation,
 * the division of an average).
 */
public record Step(StepKind kind, List<Link> recv, List<Link> send, Region src, Region dst, boolean postOp) {
    public Step {
        recv = List.copyOf(recv);
        send = List.copyOf(send);
        check(kind.recvs() == !recv.isEmpty(), kind, "receive links", recv);
        check(kind.sends() == !send.isEmpty(), kind, "send links", send);
        check(kind.readsSrc() == (src != null), kind, "source region", src);
        check(kind.writesDst() == (dst != null), kind, "destination region", dst);
        check(kind.reduces() || recv.size() <= 1, kind, "one receive link", recv);
        if (src != null && dst != null && src.count() != dst.count()) {
            throw new IllegalArgumentException(kind + ": source and destination counts differ: " + src + " " + dst);
        }
        if (postOp && !kind.writesDst()) {
            throw new IllegalArgumentException(kind + ": a post-operation needs a destination");
        }
    }

    private static void check(boolean ok, StepKind kind, String what, Object value) {
        if (!ok) {
            throw new IllegalArgumentException(kind + " does not fit " + what + " " + value);
        }
    }

    /** Elements every message of this step carries. */
    public long count() {
        return src != null ? src.count() : dst.count();
    }

    public static Step send(Region src, Link... to) {
        return new Step(StepKind.SEND, List.of(), Arrays.asList(to), src, null, false);
    }

    public static Step recv(Link from, Region dst) {
        return new Step(StepKind.RECV, List.of(from), List.of(), null, dst, false);
    }

    public static Step recvReduceSend(List<Link> from, Region src, List<Link> to) {
        return new Step(StepKind.RECV_REDUCE_SEND, from, to, src, null, false);
    }

    public static Step recvReduceCopy(List<Link> from, Region src, Region dst, boolean postOp) {
        return new Step(StepKind.RECV_REDUCE_COPY, from, List.of(), src, dst, postOp);
    }

    public static Step recvReduceCopySend(List<Link> from, Region src, Region dst, List<Link> to, boolean postOp) {
        return new Step(StepKind.RECV_REDUCE_COPY_SEND, from, to, src, dst, postOp);
    }

    public static Step recvCopySend(Link from, Region dst, List<Link> to) {
        return new Step(StepKind.RECV_COPY_SEND, List.of(from), to, null, dst, false);
    }

    public static Step copySend(Region src, Region dst, List<Link> to) {
        return new Step(StepKind.COPY_SEND, List.of(), to, src, dst, false);
    }

    public static Step localCopy(Region src, Region dst, boolean postOp) {
        return new Step(StepKind.LOCAL_COPY, List.of(), List.of(), src, dst, postOp);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(kind.name().toLowerCase());
        if (!recv.isEmpty()) {
            b.append(" from ").append(recv);
        }
        if (src != null) {
            b.append(' ').append(src);
        }
        if (dst != null) {
            b.append(" -> ").append(dst);
        }
        if (!send.isEmpty()) {
            b.append(" to ").append(send);
        }
        if (postOp) {
            b.append(" (post-op)");
        }
        return b.toString();
    }
}
