package io.jccl.engine.host;

import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.engine.CollectiveArgs;
import io.jccl.plan.Call;
import io.jccl.plan.Collective;
import io.jccl.plan.Plan;
import io.jccl.topo.Channels;

import java.util.List;

/**
 * The host engine's choice of algorithm and channel count: a simple rule until the tuning model
 * replaces it. It reads only what every rank knows alike (the call and the shared configuration),
 * so every rank reaches the same plan.
 */
final class HostPlanner {
    /** All-reduces up to this size go up and down the tree (latency: 2 log n hops instead of 2(n-1)). */
    static final long TREE_MAX_BYTES = 64 << 10;

    private HostPlanner() {
    }

    static Algorithm algorithm(CollectiveArgs a, int nranks, java.util.Set<String> allowed, int rank) {
        List<Algorithm> candidates = Algorithms.supported(a.collective()).stream().filter(x -> allowed.contains(x.id())).toList();
        if (candidates.isEmpty()) {
            throw new JcclException(ErrorCode.INVALID_USAGE, rank, "JCCL_ALGO allows " + allowed + ", none of the algorithms of "
                    + a.collective().cliName() + " " + Algorithms.supported(a.collective()).stream().map(Algorithm::id).toList());
        }
        if (a.collective() == Collective.ALL_REDUCE && nranks >= 4 && a.type().bytes(a.count()) <= TREE_MAX_BYTES
                && candidates.contains(Algorithm.TREE)) {
            return Algorithm.TREE;
        }
        return candidates.getFirst();
    }

    /**
     * One channel per slot of data, at most one channel per core for each rank in this process
     * (more lanes than cores only add switching), within the configured bounds.
     */
    static int channels(long bytes, int nranks, long slotBytes, int min, int max) {
        int cores = Runtime.getRuntime().availableProcessors();
        long bySize = Math.max(1, bytes / Math.max(1, slotBytes * nranks));
        int byCores = Math.max(1, cores / nranks);
        return (int) Math.max(min, Math.min(max, Math.min(bySize, byCores)));
    }

    static Plan plan(HostDomain d, CollectiveArgs a, int rank) {
        int n = d.nranks;
        Algorithm algo = algorithm(a, n, d.config.algorithms(), rank);
        int ch = channels(a.type().bytes(a.count()), n, d.slotBytes, d.config.minChannels(), d.config.maxChannels());
        long maxMessage = Math.max(1, d.slotBytes / a.type().size());
        int root = a.collective().rooted() ? a.root() : 0;
        PlanKey key = new PlanKey(a.collective(), a.count(), root, algo, ch, maxMessage);
        return d.plan(key, k -> Algorithms.plan(new Call(k.collective(), n, k.count(), k.root()), k.algorithm(),
                Channels.flat(n, k.channels()), k.maxMessage()));
    }
}
