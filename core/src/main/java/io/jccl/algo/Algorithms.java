package io.jccl.algo;

import io.jccl.plan.Call;
import io.jccl.plan.Collective;
import io.jccl.plan.Plan;
import io.jccl.topo.Channels;

import java.util.List;

/** Which algorithms plan which collectives, and the plan of one call. */
public final class Algorithms {
    private Algorithms() {
    }

    /** The algorithms that can plan {@code collective}, the first being the default. */
    public static List<Algorithm> supported(Collective collective) {
        return switch (collective) {
            case ALL_REDUCE -> List.of(Algorithm.RING, Algorithm.TREE, Algorithm.SPLIT_TREE);
            case BROADCAST, REDUCE, ALL_GATHER, REDUCE_SCATTER -> List.of(Algorithm.RING);
            case ALL_TO_ALL, GATHER, SCATTER, SEND_RECV -> List.of(Algorithm.DIRECT);
        };
    }

    /** The generator of {@code algorithm} for {@code collective}. */
    public static Generator generator(Collective collective, Algorithm algorithm) {
        Generator g = switch (collective) {
            case ALL_REDUCE -> switch (algorithm) {
                case RING -> RingGenerators::allReduce;
                case TREE -> TreeGenerators::upDown;
                case SPLIT_TREE -> TreeGenerators::split;
                default -> null;
            };
            case BROADCAST -> algorithm == Algorithm.RING ? RingGenerators::broadcast : null;
            case REDUCE -> algorithm == Algorithm.RING ? RingGenerators::reduce : null;
            case ALL_GATHER -> algorithm == Algorithm.RING ? RingGenerators::allGather : null;
            case REDUCE_SCATTER -> algorithm == Algorithm.RING ? RingGenerators::reduceScatter : null;
            case ALL_TO_ALL -> algorithm == Algorithm.DIRECT ? DirectGenerators::allToAll : null;
            case GATHER -> algorithm == Algorithm.DIRECT ? DirectGenerators::gather : null;
            case SCATTER -> algorithm == Algorithm.DIRECT ? DirectGenerators::scatter : null;
            case SEND_RECV -> null;
        };
        if (g == null) {
            throw new IllegalArgumentException(algorithm.id() + " does not plan " + collective.cliName()
                    + (collective == Collective.SEND_RECV ? " (use P2pPlanner)" : "; it has " + supported(collective)));
        }
        return g;
    }

    /**
     * The lanes (threads per rank on the host engine) a plan of {@code algorithm} on
     * {@code channels} channels uses: tree algorithms run lanes in pairs (one per tree of the double
     * binary tree), the split tree a reducing and a broadcasting lane for each.
     */
    public static int lanes(Algorithm algorithm, int channels) {
        return switch (algorithm) {
            case TREE -> TreeGenerators.treeLanes(channels);
            case SPLIT_TREE -> 2 * TreeGenerators.treeLanes(channels);
            default -> channels;
        };
    }

    /** Plans one call with one algorithm. */
    public static Plan plan(Call call, Algorithm algorithm, Channels channels, long maxMessage) {
        if (channels.nranks() != call.nranks()) {
            throw new IllegalArgumentException("channels over " + channels.nranks() + " ranks for a call of " + call.nranks());
        }
        if (maxMessage < 1) {
            throw new IllegalArgumentException("maxMessage " + maxMessage);
        }
        return generator(call.collective(), algorithm).plan(call, channels, maxMessage);
    }
}
