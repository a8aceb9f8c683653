// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

import io.jccl.plan.Call;
import io.jccl.Collective;
import io.jccl.plan.Plan;
import io.jccl.topo.Channels;
import io.jccl.topo.ServerLayout;

import java.util.List;

/** Which algorithms plan which collectives, and the plan of one call. */
public final class Algorithms {
    private Algorithms() {
    }

    /**
     * The algorithms that can plan {@code collective}, the first being the default. Those that
     * {@link Algorithm#needsServers() need servers} plan only on a uniform layout (see
     * {@link #fits}).
     */
    public static List<Algorithm> supported(Collective collective) {
        return switch (collective) {
            case ALL_REDUCE -> List.of(Algorithm.RING, Algorithm.TREE, Algorithm.SPLIT_TREE, Algorithm.HIER_RING,
                    Algorithm.TORUS_2D, Algorithm.RHD, Algorithm.BUTTERFLY);
            case ALL_GATHER, REDUCE_SCATTER -> List.of(Algorithm.RING, Algorithm.PIPELINE, Algorithm.HIER_2PHASE, Algorithm.PAT);
            case BROADCAST, REDUCE -> List.of(Algorithm.RING);
            case ALL_TO_ALL -> List.of(Algorithm.DIRECT, Algorithm.PIPELINE);
            case GATHER, SCATTER, SEND_RECV -> List.of(Algorithm.DIRECT);
        };
    }

    /** Whether {@code algorithm} can plan on ranks laid out as {@code layout}: a uniform one if it needs servers. */
    public static boolean fits(Algorithm algorithm, ServerLayout layout) {
        return !algorithm.needsServers() || layout.uniform();
    }

    /**
     * Whether a cost model should weigh {@code algorithm} on {@code layout}: the layered algorithms
     * on two levels (several servers of several ranks, uniform), recursive halving-doubling across
     * servers, PAT at one rank per server (NCCL's condition); the others, the butterfly among them,
     * always: its log2 N exchanges are the fewest hops a small all-reduce can take, on one host too
     * (docs/results.md, "Numbers behind the code"). Forcing any algorithm
     * that {@link #fits} still runs it.
     */
    public static boolean weighs(Algorithm algorithm, ServerLayout layout) {
        boolean servers = layout.servers() > 1;
        return switch (algorithm) {
            case HIER_RING, TORUS_2D, PIPELINE, HIER_2PHASE -> servers && layout.uniform() && layout.perServer() > 1;
            case RHD -> servers;
            case PAT -> servers && layout.uniform() && layout.perServer() == 1;
            default -> true;
        };
    }

    /** The algorithms of {@code collective} worth weighing (and measuring, sweeping) on {@code layout}. */
    public static List<Algorithm> weighed(Collective collective, ServerLayout layout) {
        return supported(collective).stream().filter(a -> weighs(a, layout)).toList();
    }

    /** The generator of {@code algorithm} for {@code collective}. */
    public static Generator generator(Collective collective, Algorithm algorithm) {
        Generator g = switch (collective) {
            case ALL_REDUCE -> switch (algorithm) {
                case RING -> RingGenerators::allReduce;
                case TREE -> TreeGenerators::upDown;
                case SPLIT_TREE -> TreeGenerators::split;
                case HIER_RING -> HierarchicalGenerators::hierRing;
                case TORUS_2D -> HierarchicalGenerators::torus2d;
                case RHD -> RecursiveGenerators::rhd;
                case BUTTERFLY -> RecursiveGenerators::butterfly;
                default -> null;
            };
            case BROADCAST -> algorithm == Algorithm.RING ? RingGenerators::broadcast : null;
            case REDUCE -> algorithm == Algorithm.RING ? RingGenerators::reduce : null;
            case ALL_GATHER -> switch (algorithm) {
                case RING -> RingGenerators::allGather;
                case PIPELINE -> PipelineGenerators::allGather;
                case HIER_2PHASE -> TwoPhaseGenerators::allGather;
                case PAT -> PatGenerators::allGather;
                default -> null;
            };
            case REDUCE_SCATTER -> switch (algorithm) {
                case RING -> RingGenerators::reduceScatter;
                case PIPELINE -> PipelineGenerators::reduceScatter;
                case HIER_2PHASE -> TwoPhaseGenerators::reduceScatter;
                case PAT -> PatGenerators::reduceScatter;
                default -> null;
            };
            case ALL_TO_ALL -> switch (algorithm) {
                case DIRECT -> DirectGenerators::allToAll;
                case PIPELINE -> PipelineGenerators::allToAll;
                default -> null;
            };
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
        if (!fits(algorithm, channels.layout())) {
            throw new IllegalArgumentException(algorithm.id() + " needs the same number of ranks on every server; the layout is "
                    + channels.layout());
        }
        return generator(call.collective(), algorithm).plan(call, channels, maxMessage);
    }
}
