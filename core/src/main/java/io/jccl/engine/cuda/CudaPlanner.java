package io.jccl.engine.cuda;

import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.engine.CollectiveArgs;
import io.jccl.plan.Call;
import io.jccl.plan.Collective;
import io.jccl.plan.Plan;
import io.jccl.proto.Protocol;
import io.jccl.topo.Channels;
import io.jccl.tune.CallSize;
import io.jccl.tune.Choice;

/**
 * The plan of a collective on the CUDA engine, made exactly as the host engine makes it
 * (io.jccl.engine.host.HostPlanner): the domain's tuner chooses algorithm, protocol and channels,
 * the protocol's slot bounds the message, tree all-reduce in Simple halves it. The same plan on both
 * engines is what makes their results bitwise equal.
 */
final class CudaPlanner {
    record Planned(Plan plan, Choice choice) {
    }

    record CallKey(Collective collective, long count, int elementSize, int root) {
    }

    private CudaPlanner() {
    }

    static Planned plan(CudaDomain d, CollectiveArgs a, int rank) {
        int root = a.collective().rooted() ? a.root() : 0;
        CallKey key = new CallKey(a.collective(), a.count(), a.type().size(), root);
        return d.plans.computeIfAbsent(key, k -> make(d, k, rank));
    }

    private static Planned make(CudaDomain d, CallKey k, int rank) {
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
                Channels.flat(n, c.channels()), maxMessage);
        return new Planned(plan, c);
    }
}
