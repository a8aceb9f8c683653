// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import io.jccl.Collective;
import io.jccl.DataType;
import io.jccl.algo.Algorithm;
import io.jccl.proto.Protocol;

import java.util.function.IntFunction;

/**
 * A call on more nodes than an exact simulation can play, predicted from exact ones on fewer nodes
 * where the ranks behave alike:
 * <ul>
 *   <li>ring ({@link #micros}): every rank makes {@code 2(N−1)} (all-reduce) or {@code N−1} steps
 *   of one chunk each, and a step's cost depends on its chunk, its channels and its protocol, not
 *   on N (the share of hops that leave a node is {@code 1/ranks per node} at any N; broadcast and
 *   reduce pipeline the buffer's chunks along the ring, {@code chunks + N − 2} steps). So two exact
 *   rings on the target's channels moving the target's bytes per step give the step's cost and the
 *   pipeline's fill, {@code T = x + y·(N−1)}, exact up to the fill; the hierarchical ring, the 2D
 *   torus and the fine-grained pipeline's all-gather and reduce-scatter are rings of nodes whose
 *   steps each move a rank's share too, and take the same law ({@link #atItsStep});</li>
 *   <li>tree and split tree ({@link #fit}): every rank moves the whole buffer through a pipeline as
 *   deep as the tree, which grows by one level each time the nodes double, so at a fixed size
 *   {@code T = a + b·log2(nodes)} through two exact runs. It holds where a level adds its fill and
 *   nothing else; the chunks shrinking as the tree deepens (DESIGN.md's chunking) and the links a
 *   deeper tree shares bend it, by the percent docs/simulator.md gives.</li>
 * </ul>
 * {@code jccl simscale} checks both against exact runs at 1,024 ranks.
 *
 * <pre>{@code
 * ScaledPrediction s = new ScaledPrediction(nodes -> CallSimulator.gpu(new ClusterFabric(nodes, 8, 450, 8, 400,
 *         ClusterFabric.Net.parse("fat-tree")), Calibration.bundled().costs("gpu"), Config.defaults()), 64, 128);
 * double us = s.micros(2048, Collective.ALL_REDUCE, 1L << 28, DataType.FLOAT32, Algorithm.RING, Protocol.SIMPLE);
 * }</pre>
 */
public final class ScaledPrediction {
    /**
     * The fewest nodes a probe of the hierarchical ring or the pipeline's reduce-scatter has: a
     * step of theirs costs a little less on few nodes than on many (docs/simulator.md, "Ports
     * booked hop by hop": 1 GiB on 128 nodes, from 4 and 8 nodes the hierarchical ring lands
     * 4.3 % low, the reduce-scatter 1.4 %; from 8 and 16 both within 1 %).
     */
    static final int LEAST_RING_OF_NODES = 8;

    /** What has a law ({@link #scales}), for messages that name them. */
    public static final String LAWS = "ring, hierring, torus2d, tree, splittree; pipeline's all-gather and reduce-scatter";

    private final IntFunction<CallSimulator> simulatorOf;
    private final int smallNodes;
    private final int largeNodes;

    /**
     * Predictions from exact runs on {@code smallNodes} and {@code largeNodes} nodes (the larger
     * at least twice the smaller), each by the simulator {@code simulatorOf} makes for that many.
     */
    public ScaledPrediction(IntFunction<CallSimulator> simulatorOf, int smallNodes, int largeNodes) {
        if (smallNodes < 2 || largeNodes < 2 * smallNodes) {
            throw new IllegalArgumentException("exact runs on " + smallNodes + " and " + largeNodes
                    + " nodes: at least 2, the larger at least twice the smaller");
        }
        this.simulatorOf = simulatorOf;
        this.smallNodes = smallNodes;
        this.largeNodes = largeNodes;
    }

    /**
     * The prediction of {@code a}'s call on {@code nodes} nodes from the largest exact runs that
     * {@code budget} steps pay for: on {@code n} and {@code 2n} nodes, {@code n} the least below
     * times a power of two, {@code 2n} at most half of {@code nodes}, the two playing at most
     * {@code budget} steps together (as
     * {@link CallSimulator#steps} counts them, on the channels and bytes per step
     * {@link #micros} gives them). The larger the probes, the closer their regime to the
     * target's (docs/simulator.md, Scale). The 2D torus and the pipeline's all-gather start at 4
     * nodes (a ring of two nodes is a pair, not a ring), the hierarchical ring and the pipeline's
     * reduce-scatter at {@link #LEAST_RING_OF_NODES}. A tree on a fat-tree of 8 leaves or more
     * starts at 2 leaves, so that the probes' messages cross the spine as the target's do (from
     * one leaf the law lands 6 % off at 1,024 ranks).
     *
     * @throws IllegalArgumentException where {@code a} has no law, or no two such runs fit the budget
     */
    public static ScaledPrediction within(IntFunction<CallSimulator> simulatorOf, int nodes, Collective c, long bytes,
                                          DataType type, Algorithm a, Protocol p, long budget) {
        if (!scales(c, a)) {
            throw noLaw(c, a);
        }
        int least = switch (a) {
            case HIER_RING -> LEAST_RING_OF_NODES;
            case PIPELINE -> c == Collective.REDUCE_SCATTER ? LEAST_RING_OF_NODES : 4;
            case TORUS_2D -> 4;
            default -> 2;
        };
        if (!atItsStep(a) && simulatorOf.apply(nodes).simulator().fabric() instanceof ClusterFabric f
                && f.net().kind() == ClusterFabric.Net.Kind.FAT_TREE && nodes >= 8 * f.net().nodesPerLeaf()) {
            least = Math.max(least, 2 * f.net().nodesPerLeaf());
        }
        int channels = atItsStep(a) ? targetChannels(simulatorOf, nodes, c, bytes, type, a, p) : 0;
        // pairs from the least up, doubling: whole leaves wherever the least is, on any node count
        ScaledPrediction best = null;
        long first = -1;
        for (int small = least; 4L * small <= nodes; small *= 2) {
            long spent = probeSteps(simulatorOf, nodes, small, channels, c, bytes, type, a, p)
                    + probeSteps(simulatorOf, nodes, 2 * small, channels, c, bytes, type, a, p);
            if (spent > budget) {
                first = spent;
                break;
            }
            best = new ScaledPrediction(simulatorOf, small, 2 * small);
        }
        if (best != null) {
            return best;
        }
        throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                "%s on %d nodes: no two exact runs on fewer nodes (at least %d, the larger at most half) fit a budget of %,d steps%s",
                a.id(), nodes, least, budget, first < 0 ? "" : String.format(java.util.Locale.ROOT,
                        " (the smallest pair, on %d and %d nodes, plays %,d: a budget of as many steps predicts from them)",
                        least, 2 * least, first)));
    }

    /**
     * The steps an exact run on {@code probe} nodes plays to predict the call on {@code nodes}; a
     * ring's on the target's {@code channels}.
     */
    private static long probeSteps(IntFunction<CallSimulator> simulatorOf, int nodes, int probe, int channels, Collective c,
                                   long bytes, DataType type, Algorithm a, Protocol p) {
        CallSimulator s = simulatorOf.apply(probe);
        int perNode = s.simulator().fabric().nranks() / probe;
        int ranks = probe * perNode;
        if (!atItsStep(a)) {
            return s.steps(c, count(c, bytes, type, ranks), type.size(), a, p);
        }
        long target = (long) nodes * perNode;
        return s.withChannels(channels).steps(c, count(c, probeBytes(c, bytes, type, ranks, target), type, ranks), type.size(), a, p);
    }

    /**
     * The channels the target's own tuner gives the call: the probes run on them, whatever their
     * own tuners would give a call of theirs (a communicator's tuner and the probes' may differ).
     */
    private static int targetChannels(IntFunction<CallSimulator> simulatorOf, int nodes, Collective c, long bytes, DataType type,
                                      Algorithm a, Protocol p) {
        CallSimulator target = simulatorOf.apply(nodes);
        return target.choice(c, count(c, bytes, type, target.simulator().fabric().nranks()), type, a, p).channels();
    }

    /**
     * The bytes a ring on {@code ranks} moves per step where the target's {@code bytes} on
     * {@code target} ranks do: the call's bytes scaled by the ranks, where a step moves the buffer
     * cut in as many chunks as there are ranks; the call's own for broadcast and reduce, whose
     * ring pipelines the buffer's chunks whatever the ranks, so that at a fixed size it makes
     * {@code chunks + N − 2} steps of the same chunk, the same line in N.
     */
    private static long probeBytes(Collective c, long bytes, DataType type, long ranks, long target) {
        return chunked(c) ? bytes : Math.max(type.size(), (long) (bytes * ((double) ranks / target)));
    }

    private static IllegalArgumentException noLaw(Collective c, Algorithm a) {
        return new IllegalArgumentException(a.id() + " has no scaled prediction of " + c.cliName() + " (" + LAWS + ")");
    }

    /** Whether {@code c}'s ring pipelines the buffer's chunks rather than cutting it by the ranks. */
    private static boolean chunked(Collective c) {
        return c == Collective.BROADCAST || c == Collective.REDUCE;
    }

    /** Nodes of the smaller exact run. */
    public int smallNodes() {
        return smallNodes;
    }

    /** Nodes of the larger exact run. */
    public int largeNodes() {
        return largeNodes;
    }

    /**
     * Whether {@code c}'s time by {@code a} follows a law this class knows. The pipeline's
     * all-to-all does not: its ring steps go to every other node in turn, near and far on the
     * fat-tree, so a step's cost is not the same at every node count.
     */
    public static boolean scales(Collective c, Algorithm a) {
        return a == Algorithm.PIPELINE ? c == Collective.ALL_GATHER || c == Collective.REDUCE_SCATTER
                : atItsStep(a) || a == Algorithm.TREE || a == Algorithm.SPLIT_TREE;
    }

    /**
     * Whether {@code a} is a ring between nodes whose steps each move one chunk of the buffer cut in
     * as many as there are ranks: the ring, the hierarchical ring (a ring of nodes, a node's ranks
     * each carrying a slice), the 2D torus (the same, a ring inside the node per chunk) and the
     * fine-grained pipeline (a ring of nodes per local index, each step's block also crossing the
     * node's mesh).
     */
    public static boolean atItsStep(Algorithm a) {
        return a == Algorithm.RING || a == Algorithm.HIER_RING || a == Algorithm.TORUS_2D || a == Algorithm.PIPELINE;
    }

    /**
     * µs of {@code c} of {@code bytes} (perf's size column: the larger of a rank's buffers) by
     * {@code a} in {@code p} on {@code nodes} nodes.
     */
    public double micros(int nodes, Collective c, long bytes, DataType type, Algorithm a, Protocol p) {
        if (!scales(c, a)) {
            throw noLaw(c, a);
        }
        return atItsStep(a) ? ringAtItsStep(nodes, c, bytes, type, a, p) : fit(c, bytes, type, a, p).at(nodes);
    }

    /**
     * A ring on {@code nodes} nodes from two exact rings that make the same steps: each on the
     * target's channels, moving the target's bytes per step (the call's bytes scaled by their
     * ranks over the target's). Every step of a ring then costs what it costs at the target, the
     * share of steps that cross nodes is the same ({@code 1/perNode}), and the time is
     * {@code x + y·(N−1)}: the steps, plus the pipeline's fill and the launch. Unlike
     * {@link Fit}'s law at a fixed size, it holds where the steps go from bandwidth-bound (few
     * ranks, large chunks) to latency-bound (many ranks, small chunks); not where a step would
     * move under one element, which it refuses.
     */
    private double ringAtItsStep(int nodes, Collective c, long bytes, DataType type, Algorithm a, Protocol p) {
        CallSimulator small = simulatorOf.apply(smallNodes);
        int perNode = small.simulator().fabric().nranks() / smallNodes;
        long target = (long) nodes * perNode;
        int channels = targetChannels(simulatorOf, nodes, c, bytes, type, a, p);
        if ((chunked(c) ? bytes : (double) bytes / target) / channels < type.size()) {
            // steps of no element are not made, so the probes' steps and the target's would differ
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                    "%s of %d B on %d ranks and %d channels moves under one element a step; simulate it exactly", a.id(), bytes,
                    target, channels));
        }
        double[] t = new double[2];
        int[] sizes = {smallNodes, largeNodes};
        for (int i = 0; i < 2; i++) {
            long ranks = (long) sizes[i] * perNode;
            long probe = probeBytes(c, bytes, type, ranks, target);
            CallSimulator s = (i == 0 ? small : simulatorOf.apply(sizes[i])).withChannels(channels);
            t[i] = s.predict(c, count(c, probe, type, (int) ranks), type, a, p).micros();
        }
        double n1 = (double) smallNodes * perNode - 1;
        double n2 = (double) largeNodes * perNode - 1;
        return t[0] + (t[1] - t[0]) * (target - 1 - n1) / (n2 - n1);
    }

    /** The tree's law for {@code c} of {@code bytes} by {@code a} in {@code p} through the two exact runs, for any node count. */
    public Fit fit(Collective c, long bytes, DataType type, Algorithm a, Protocol p) {
        if (!scales(c, a) || atItsStep(a)) {
            throw new IllegalArgumentException(a.id() + " has no law at a fixed size" + (atItsStep(a)
                    ? "; a ring is predicted at its step (micros)" : "; simulate it exactly"));
        }
        CallSimulator small = simulatorOf.apply(smallNodes);
        CallSimulator large = simulatorOf.apply(largeNodes);
        int perNode = small.simulator().fabric().nranks() / smallNodes;
        double t1 = small.predict(c, count(c, bytes, type, smallNodes * perNode), type, a, p).micros();
        double t2 = large.predict(c, count(c, bytes, type, largeNodes * perNode), type, a, p).micros();
        return new Fit(a, perNode, smallNodes, t1, largeNodes, t2);
    }

    /**
     * The tree's law through two exact runs' times: {@code t1} µs on {@code nodes1} nodes,
     * {@code t2} on {@code nodes2} (more), {@code perNode} ranks a node: {@code T = a + b·log2(nodes)}.
     */
    public record Fit(Algorithm algorithm, int perNode, int nodes1, double t1, int nodes2, double t2) {
        public Fit {
            if (algorithm != Algorithm.TREE && algorithm != Algorithm.SPLIT_TREE || perNode < 1 || nodes1 < 1 || nodes2 <= nodes1) {
                throw new IllegalArgumentException("a tree's law of " + algorithm.id() + " through " + nodes1 + " and " + nodes2
                        + " nodes of " + perNode + " ranks");
            }
        }

        /** µs on {@code nodes} nodes. */
        public double at(int nodes) {
            double d1 = log2(nodes1);
            double d2 = log2(nodes2);
            double b = (t2 - t1) / (d2 - d1);
            return t1 + b * (log2(nodes) - d1);
        }
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }

    /** The call's element count for {@code bytes} of its size on {@code nranks} ranks (all-reduce: the buffer; the others: a rank's block). */
    static long count(Collective c, long bytes, DataType type, int nranks) {
        long elements = bytes / type.size();
        return perRank(c) ? Math.max(1, elements / nranks) : elements;
    }

    /** The call's size (perf's column) for {@code count} elements on {@code nranks} ranks: {@link #count}'s inverse. */
    static long bytes(Collective c, long count, DataType type, int nranks) {
        return type.bytes(count) * (perRank(c) ? nranks : 1);
    }

    /** Whether a call's count is a rank's block rather than the whole buffer. */
    private static boolean perRank(Collective c) {
        return switch (c) {
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, GATHER, SCATTER -> true;
            default -> false;
        };
    }
}
