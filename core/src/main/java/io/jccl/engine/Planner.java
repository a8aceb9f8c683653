// SPDX-License-Identifier: Apache-2.0
package io.jccl.engine;

import io.jccl.Config;
import io.jccl.ErrorCode;
import io.jccl.JcclException;
import io.jccl.algo.Algorithm;
import io.jccl.algo.Algorithms;
import io.jccl.algo.P2pPlanner;
import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.P2pOp;
import io.jccl.plan.Plan;
import io.jccl.plan.RankSet;
import io.jccl.plan.Segment;
import io.jccl.proto.Protocol;
import io.jccl.tune.CallSize;
import io.jccl.tune.Choice;
import io.jccl.tune.Tuner;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The plans of one communicator's calls, for either engine: the tuner chooses algorithm, protocol
 * and channels from what every rank shares (so every rank reaches the same plan, and both engines
 * the same one: their results are then bitwise equal), the protocol's slot bounds the message
 * (tree all-reduce in Simple halves it to fill the pipeline), the engine's {@link Fit} sizes the
 * channels to its hardware, and the plan is made once per call shape. A plan holds the steps of
 * the ranks this process runs only ({@link RankSet}), so its cost is theirs, not the job's. Send/recv
 * groups are planned per rank from its own operations alone ({@link #sendRecv}).
 */
public final class Planner {
    /** A planned call: the plan and how it was chosen. */
    public record Planned(Plan plan, Choice choice) {
    }

    /** What determines a collective's plan: the call's shape (the tuner's inputs besides the shared config). */
    public record CallKey(Collective collective, long count, int elementSize, int root) {
        public static CallKey of(CollectiveArgs a) {
            return new CallKey(a.collective(), a.count(), a.type().size(), a.collective().rooted() ? a.root() : 0);
        }
    }

    /**
     * How an engine fits a plan on what runs it: the channels it plans when no bounds are given,
     * the executors (blocks) one rank's launch of a plan takes, and how many one rank may have.
     */
    public interface Fit {
        /** The channels to plan for {@code choice} of a call of {@code bytes} when the configuration gives no bounds. */
        int channels(Choice choice, long bytes);

        /** The executors one rank runs for {@code plan}. */
        int blocks(Plan plan);

        /** The most executors one rank may run at once. */
        int maxBlocks();

        /** The failure of a plan of {@code choice} that needs {@code blocks} executors per rank even on one channel. */
        JcclException tooMany(Choice choice, int blocks, int rank);
    }

    /** The host engine's: the tuner's channels, a thread per lane, no bound. */
    public static final Fit THREADS = new Fit() {
        @Override
        public int channels(Choice choice, long bytes) {
            return choice.channels();
        }

        @Override
        public int blocks(Plan plan) {
            return plan.lanes();
        }

        @Override
        public int maxBlocks() {
            return Integer.MAX_VALUE;
        }

        @Override
        public JcclException tooMany(Choice choice, int blocks, int rank) {
            throw new IllegalStateException("threads have no bound");
        }
    };

    /** Cached shapes past this are dropped (a caller of ever new sizes must not grow memory without bound). */
    private static final int MAX_CACHED = 4096;

    private final Tuner tuner;
    private final Config config;
    private final int nranks;
    /** The ranks this process runs: plans hold their steps only. */
    private final RankSet ranks;
    private final Fit fit;
    /** Told each shape's choice once (JCCL_DEBUG=INFO), or null. */
    private final Consumer<String> info;
    private final ConcurrentHashMap<CallKey, Planned> plans = new ConcurrentHashMap<>();

    /** The configuration plans follow: rank 0's shared settings over this rank's own. */
    public Config config() {
        return config;
    }

    /**
     * Plans for the ranks {@code ranks} of a job (those this process runs) from {@code tuner} and
     * the shared {@code config}, fitted by {@code fit}.
     */
    public Planner(Tuner tuner, Config config, RankSet ranks, Fit fit, Consumer<String> info) {
        this.tuner = tuner;
        this.config = config;
        this.nranks = ranks.nranks();
        this.ranks = ranks;
        this.fit = fit;
        this.info = info;
    }

    /** The plan of collective {@code a} (as rank {@code rank} asks: the same on every rank), made once per shape. */
    public Planned plan(CollectiveArgs a, int rank) {
        CallKey key = CallKey.of(a);
        Planned p = plans.get(key);
        if (p == null) {
            if (plans.size() > MAX_CACHED) {
                plans.clear();
            }
            p = plans.computeIfAbsent(key, k -> {
                Planned made = make(tuner, config, ranks, fit, k, rank);
                if (info != null) {
                    info.accept(k.collective().cliName() + " " + CallSize.bytes(k.collective(), k.count(), k.elementSize(), nranks)
                            + " B on " + nranks + " ranks: " + made.choice());
                }
                return made;
            });
        }
        return p;
    }

    /** The tuner that chooses how each shape runs. */
    public Tuner tuner() {
        return tuner;
    }

    /** The ranks it plans for. */
    public int nranks() {
        return nranks;
    }

    /**
     * The plan of a call shape among {@code n} ranks. Given channel bounds (JCCL_MIN/MAX_NCHANNELS)
     * keep the tuner's channels; without them {@code fit} sizes them, and halves them while a
     * rank's executors outnumber what may run at once, which must all run together.
     */
    public static Planned make(Tuner tuner, Config config, int n, Fit fit, CallKey k, int rank) {
        return make(tuner, config, RankSet.all(n), fit, k, rank);
    }

    /** The same, the plan holding the steps of {@code ranks} only. */
    public static Planned make(Tuner tuner, Config config, RankSet ranks, Fit fit, CallKey k, int rank) {
        int n = ranks.nranks();
        Choice c = tuner.choose(k.collective(), k.count(), k.elementSize(), rank);
        Protocol p = c.protocol();
        long bytes = CallSize.bytes(k.collective(), k.count(), k.elementSize(), n);
        if (!config.channelBoundsGiven()) {
            c = withChannels(c, fit.channels(c, bytes));
        }
        Plan plan = plan(tuner, config, ranks, k, c, bytes);
        int blocks = fit.blocks(plan);
        while (blocks > fit.maxBlocks() && !config.channelBoundsGiven() && c.channels() > 1) {
            // an algorithm with more blocks than channels: fewer channels
            c = withChannels(c, Math.max(1, (int) ((long) c.channels() * fit.maxBlocks() / blocks)));
            plan = plan(tuner, config, ranks, k, c, bytes);
            blocks = fit.blocks(plan);
        }
        if (blocks > fit.maxBlocks()) {
            throw fit.tooMany(c, blocks, rank);
        }
        return new Planned(plan, c);
    }

    private static Choice withChannels(Choice c, int channels) {
        return channels == c.channels() ? c : new Choice(c.algorithm(), c.protocol(), channels, c.source(), c.predictedMicros());
    }

    private static Plan plan(Tuner tuner, Config config, RankSet ranks, CallKey k, Choice c, long bytes) {
        Protocol p = c.protocol();
        long message = p.maxMessageBytes(p.buffSize(config));
        if (p == Protocol.SIMPLE && (c.algorithm() == Algorithm.TREE || c.algorithm() == Algorithm.SPLIT_TREE)) {
            message = tuner.treeChunkBytes(message, bytes, c.channels());
        }
        long maxMessage = Math.max(1, message / k.elementSize());
        return Algorithms.plan(new Call(k.collective(), ranks.nranks(), k.count(), k.root(), ranks), c.algorithm(),
                tuner.channelsOf(c.channels()), maxMessage);
    }

    /**
     * The plan of rank {@code rank}'s send/recv group on {@code lanes} lanes, messages of at most
     * {@code slotBytes}: from its own operations alone, so ranks in different processes plan alike
     * (the k-th send a to b meets the k-th receive at b from a). Refused naming the rank where the
     * group is malformed.
     */
    public static Plan sendRecv(int nranks, int rank, List<P2pArgs> p2p, long slotBytes, int lanes) {
        List<P2pOp> ops = new ArrayList<>(p2p.size());
        for (P2pArgs a : p2p) {
            ops.add(new P2pOp(a.send(), a.peer(), a.bytes()));
        }
        List<Segment> mine;
        try {
            mine = P2pPlanner.planRank(nranks, rank, ops, slotBytes, lanes);
        } catch (IllegalArgumentException e) {
            throw new JcclException(ErrorCode.INVALID_ARGUMENT, rank, "send/recv group: " + e.getMessage());
        }
        return Plan.perRank(Algorithm.DIRECT.id(), Collective.SEND_RECV, RankSet.of(nranks, rank), lanes, List.of(mine));
    }

    /** How a send/recv group runs (what {@code jccl perf} prints): the direct algorithm, Simple, the least channels. */
    public Choice sendRecvChoice() {
        return new Choice(Algorithm.DIRECT, Protocol.SIMPLE, config.minChannels(), Choice.Source.FIXED, Double.NaN);
    }
}
