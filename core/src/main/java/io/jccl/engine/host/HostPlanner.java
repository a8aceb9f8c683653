package io.jccl.engine.host;

import io.jccl.Config;
import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.engine.CollectiveArgs;
import io.jccl.plan.Call;
import io.jccl.plan.Plan;
import io.jccl.proto.Protocol;
import io.jccl.topo.Channels;
import io.jccl.tune.CallSize;
import io.jccl.tune.Choice;

/**
 * The plan of a collective on the host engine: the domain's tuner chooses algorithm, protocol and
 * channels (from what every rank shares, so every rank reaches the same plan), the protocol's slot
 * bounds the message (tree all-reduce in Simple halves it to fill the pipeline), and the plan is
 * made once per call shape and domain. {@code JCCL_DEBUG=INFO} logs each shape's choice once.
 */
final class HostPlanner {
    /** A planned call: the plan and how it was chosen. */
    record Planned(Plan plan, Choice choice) {
    }

    /** What determines a collective's plan: the call's shape (the tuner's inputs besides the shared config). */
    record CallKey(io.jccl.plan.Collective collective, long count, int elementSize, int root) {
    }

    private HostPlanner() {
    }

    static Planned plan(HostDomain d, CollectiveArgs a, int rank) {
        int root = a.collective().rooted() ? a.root() : 0;
        CallKey key = new CallKey(a.collective(), a.count(), a.type().size(), root);
        return d.plan(key, k -> make(d, k, rank));
    }

    private static Planned make(HostDomain d, CallKey k, int rank) {
        int n = d.nranks;
        Choice c = d.tuner.choose(k.collective(), k.count(), k.elementSize(), rank);
        Protocol p = c.protocol();
        long message = p.maxMessageBytes(d.config.buffSize(p));
        long bytes = CallSize.bytes(k.collective(), k.count(), k.elementSize(), n);
        if (p == Protocol.SIMPLE && (c.algorithm() == Algorithm.TREE || c.algorithm() == Algorithm.SPLIT_TREE)) {
            message = d.tuner.treeChunkBytes(message, bytes, c.channels());
        }
        long maxMessage = Math.max(1, message / k.elementSize());
        Plan plan = Algorithms.plan(new Call(k.collective(), n, k.count(), k.root()), c.algorithm(),
                Channels.flat(d.layout, c.channels()), maxMessage);
        if (d.config.debug() == Config.Debug.INFO) {
            System.err.println("jccl INFO rank " + rank + ": " + k.collective().cliName() + " " + bytes + " B on " + n
                    + " ranks: " + c);
        }
        return new Planned(plan, c);
    }
}
