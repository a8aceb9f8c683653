package io.jccl.engine.cuda;

import io.jccl.Config;
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
import io.jccl.tune.Tuner;

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
        CallKey key = key(a);
        return d.plans.computeIfAbsent(key, k -> make(d.tuner, d.config, d.nranks, d.sharing, k, rank, d.residentBlocks()));
    }

    static CallKey key(CollectiveArgs a) {
        return new CallKey(a.collective(), a.count(), a.type().size(), a.collective().rooted() ? a.root() : 0);
    }

    /**
     * The plan of a call shape among {@code n} ranks, at most {@code sharing} of them on one GPU,
     * which keeps {@code residentBlocks} blocks resident, from the tuner and the configuration every rank shares. Given channel bounds
     * (JCCL_MIN/MAX_NCHANNELS) keep the tuner's channels, exactly as the host engine plans; without
     * them the channels come from {@link CudaTuning#planChannels}. Either way every rank's blocks must
     * fit on the GPU at once.
     */
    static Planned make(Tuner tuner, Config config, int n, int sharing, CallKey k, int rank, int residentBlocks) {
        Choice c = tuner.choose(k.collective(), k.count(), k.elementSize(), rank);
        Protocol p = c.protocol();
        long bytes = CallSize.bytes(k.collective(), k.count(), k.elementSize(), n);
        int perRank = Math.max(1, residentBlocks / sharing);
        if (!config.channelBoundsGiven()) {
            c = new Choice(c.algorithm(), p, CudaTuning.planChannels(c.algorithm(), p, bytes, perRank), c.source(),
                    c.predictedMicros());
        }
        Plan plan = plan(tuner, config, n, k, c, bytes);
        int blocks = CudaTuning.blocks(plan);
        while (blocks > perRank && !config.channelBoundsGiven() && c.channels() > 1) {
            // an algorithm with more blocks than channels: fewer channels
            c = new Choice(c.algorithm(), p, Math.max(1, c.channels() * perRank / blocks), c.source(), c.predictedMicros());
            plan = plan(tuner, config, n, k, c, bytes);
            blocks = CudaTuning.blocks(plan);
        }
        if (blocks > perRank) {
            throw new io.jccl.JcclException(io.jccl.ErrorCode.INVALID_USAGE, rank, c.algorithm().id() + " on "
                    + c.channels() + " channels runs " + blocks + " blocks per rank, " + (long) blocks * sharing
                    + " for the " + sharing + " ranks sharing the GPU, which keeps " + residentBlocks + " of these kernels' blocks"
                    + " resident at once; the ranks' blocks wait for each other, so all must run together: set"
                    + " JCCL_MAX_NCHANNELS to at most " + Math.max(1, perRank * c.channels() / blocks));
        }
        return new Planned(plan, c);
    }

    private static Plan plan(Tuner tuner, Config config, int n, CallKey k, Choice c, long bytes) {
        Protocol p = c.protocol();
        long message = p.maxMessageBytes(config.buffSize(p));
        if (p == Protocol.SIMPLE && (c.algorithm() == Algorithm.TREE || c.algorithm() == Algorithm.SPLIT_TREE)) {
            message = tuner.treeChunkBytes(message, bytes, c.channels());
        }
        long maxMessage = Math.max(1, message / k.elementSize());
        return Algorithms.plan(new Call(k.collective(), n, k.count(), k.root()), c.algorithm(),
                Channels.flat(n, c.channels()), maxMessage);
    }
}
