// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

import io.jccl.plan.Link;
import io.jccl.plan.Region;
import io.jccl.plan.Step;
import io.jccl.plan.StepKind;

import java.util.ArrayList;
import java.util.List;

/**
 * The primitive that does what a step of a generator needs: receive from {@code from} (reducing
 * with {@code src} when there is one), write {@code dst} if given, send to {@code to}. Generators
 * whose peers come and go with the layout (a server of one rank, a single server) state the data
 * flow and let this pick the kind.
 */
final class Steps {
    private Steps() {
    }

    static Step of(List<Link> from, Region src, Region dst, List<Link> to, boolean postOp) {
        StepKind kind;
        if (from.isEmpty()) {
            if (src == null) {
                throw new IllegalArgumentException("a step with neither a message nor a source");
            }
            kind = to.isEmpty() ? StepKind.LOCAL_COPY : dst == null ? StepKind.SEND : StepKind.COPY_SEND;
        } else if (src != null) {
            kind = to.isEmpty() ? StepKind.RECV_REDUCE_COPY : dst == null ? StepKind.RECV_REDUCE_SEND
                    : StepKind.RECV_REDUCE_COPY_SEND;
        } else {
            kind = to.isEmpty() ? StepKind.RECV : StepKind.RECV_COPY_SEND;
        }
        return new Step(kind, from, to, src, dst, postOp);
    }

    /** {@code a} then {@code b}, as one list. */
    static List<Link> join(List<Link> a, List<Link> b) {
        List<Link> l = new ArrayList<>(a.size() + b.size());
        l.addAll(a);
        l.addAll(b);
        return l;
    }

    /** The link to {@code peer} on {@code channel} when {@code present}, else none. */
    static List<Link> linkIf(boolean present, int peer, int channel) {
        return present ? List.of(new Link(peer, channel)) : List.of();
    }
}
