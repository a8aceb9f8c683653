// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import io.jccl.Collective;
import io.jccl.DataType;
import io.jccl.algo.Algorithm;
import io.jccl.proto.Protocol;

import java.util.function.IntFunction;

/**
 * A call on more nodes than an exact simulation can play, predicted from two exact ones on fewer
 * nodes by the law the algorithm's schedule follows as nodes are added at a fixed call size:
 * <ul>
 *   <li>ring: {@code 2(N−1)} (all-reduce) or {@code N−1} steps, each a hop and {@code S/N} bytes per
 *   rank, so {@code T(N) = a·(N−1) + b·(N−1)/N}: a hop's cost and the bytes' cost;</li>
 *   <li>tree and split tree: every rank moves the whole buffer, the pipeline is as deep as the
 *   tree, which grows by one level each time the nodes double: {@code T = a + b·log2(nodes)}.</li>
 * </ul>
 * The two exact runs fix {@code a} and {@code b} (plans, channels and chunks as the engine makes
 * them at those sizes, contention included); the law carries them to the target. The laws hold
 * where adding nodes adds hops and nothing else: the nodes alike, the network non-blocking for
 * the ring's and trees' few flows between leaves (a ring leaves a leaf once per channel).
 * {@code jccl simscale} checks them against exact runs at 1,024 ranks; docs/simulator.md has the
 * figures.
 *
 * <pre>{@code
 * ScaledPrediction s = new ScaledPrediction(nodes -> CallSimulator.gpu(new ClusterFabric(nodes, 8, 450, 8, 400,
 *         ClusterFabric.Net.parse("fat-tree")), Calibration.bundled().costs("gpu"), Config.defaults()), 64, 128);
 * double us = s.micros(2048, Collective.ALL_REDUCE, 1L << 28, DataType.FLOAT32, Algorithm.RING, Protocol.SIMPLE);
 * }</pre>
 */
public final class ScaledPrediction {
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

    /** Whether {@code a}'s time follows a law this class knows. */
    public static boolean scales(Algorithm a) {
        return a == Algorithm.RING || a == Algorithm.TREE || a == Algorithm.SPLIT_TREE;
    }

    /**
     * µs of {@code c} of {@code bytes} (perf's size column: the larger of a rank's buffers) by
     * {@code a} in {@code p} on {@code nodes} nodes.
     */
    public double micros(int nodes, Collective c, long bytes, DataType type, Algorithm a, Protocol p) {
        return fit(c, bytes, type, a, p).at(nodes);
    }

    /** The law of {@code c} of {@code bytes} by {@code a} in {@code p}, fixed by the two exact runs, for any node count. */
    public Fit fit(Collective c, long bytes, DataType type, Algorithm a, Protocol p) {
        if (!scales(a)) {
            throw new IllegalArgumentException(a.id() + " has no law for more nodes; simulate it exactly");
        }
        CallSimulator small = simulatorOf.apply(smallNodes);
        CallSimulator large = simulatorOf.apply(largeNodes);
        int perNode = small.simulator().fabric().nranks() / smallNodes;
        double t1 = small.predict(c, count(c, bytes, type, smallNodes * perNode), type, a, p).micros();
        double t2 = large.predict(c, count(c, bytes, type, largeNodes * perNode), type, a, p).micros();
        return new Fit(a, perNode, smallNodes, t1, largeNodes, t2);
    }

    /**
     * The law of {@code a} through two exact runs' times: {@code t1} µs on {@code nodes1} nodes,
     * {@code t2} on {@code nodes2} (more), {@code perNode} ranks a node.
     */
    public record Fit(Algorithm algorithm, int perNode, int nodes1, double t1, int nodes2, double t2) {
        public Fit {
            if (!scales(algorithm) || perNode < 1 || nodes1 < 1 || nodes2 <= nodes1) {
                throw new IllegalArgumentException("a law of " + algorithm.id() + " through " + nodes1 + " and " + nodes2
                        + " nodes of " + perNode + " ranks");
            }
        }

        /** µs on {@code nodes} nodes. */
        public double at(int nodes) {
            if (algorithm == Algorithm.RING) {
                double n1 = nodes1 * (double) perNode;
                double n2 = nodes2 * (double) perNode;
                double n = nodes * (double) perNode;
                // T = x·(N−1) + y·(N−1)/N, solved for x and y
                double p1 = n1 - 1;
                double q1 = (n1 - 1) / n1;
                double p2 = n2 - 1;
                double q2 = (n2 - 1) / n2;
                double det = p1 * q2 - p2 * q1;
                double x = (t1 * q2 - t2 * q1) / det;
                double y = (p1 * t2 - p2 * t1) / det;
                return x * (n - 1) + y * (n - 1) / n;
            }
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
        return switch (c) {
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, GATHER, SCATTER -> Math.max(1, elements / nranks);
            default -> elements;
        };
    }
}
