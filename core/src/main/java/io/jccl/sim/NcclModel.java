// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import io.jccl.algo.Algorithm;
import io.jccl.proto.Protocol;
import io.jccl.tune.CostModel;

/**
 * NCCL's analytical model (src/graph/tuning.cc's constants, as DESIGN.md lists them) for a GPU
 * cluster: the base latencies per algorithm and protocol, the per-hop latencies of NVLink inside a
 * node and of the network between nodes, a channel's bandwidth per protocol, the node's NVLink and
 * the GPU's NIC as the caps, and the tree's and PAT's shares of them ({@link #share}). It is what
 * the simulator's GPU runs plan with (the tuner's choice of algorithm, protocol and channels, as
 * NCCL would choose) and what docs/simulator.md sets the simulation beside.
 */
public final class NcclModel {
    private NcclModel() {
    }

    /** Base latency, µs, LL / LL128 / Simple. */
    static final double[] RING_BASE = {6.6, 14.0, 8.4};
    static final double[] TREE_BASE = {6.8, 14.0, 8.4};
    /** Per NVLink hop, µs. */
    static final double[] RING_NVLINK = {0.6, 1.9, 3.4};
    static final double[] TREE_NVLINK = {0.6, 1.25, 4.0};
    /** Per network hop, µs. */
    static final double[] RING_NET = {2.7, 4.0, 14};
    static final double[] TREE_NET = {5.0, 8.5, 14};
    /** Of a link's bandwidth, what each protocol carries on a ring (LL: half its bytes are flags; LL128 0.92). */
    static final double[] RING_SHARE = {0.5, 0.92, 1.0};
    /** NCCL's tree all-reduce gets 0.92 of its bus bandwidth, whatever the protocol. */
    static final double TREE_ALL_REDUCE = 0.92;
    /** The tree's LL: its bus bandwidth over 3.8 (in place of the ring's half). */
    static final double TREE_LL = 1 / 3.8;
    /** The tree's LL128 on one node (a chain through its GPUs) and on several. */
    static final double TREE_LL128_ONE_NODE = 7.0 / 9.0;
    static final double TREE_LL128 = 120.0 / 128.0;
    /** PAT's bus bandwidth. */
    static final double PAT = 0.75;

    /**
     * NCCL's refinements of the tree's and PAT's bandwidth (tuning.cc), as a share of what the
     * protocol's ring share ({@link #RING_SHARE}) leaves them: the tree's are in place of the ring's.
     */
    static double share(io.jccl.Collective c, Algorithm a, Protocol p, int nNodes) {
        return switch (a) {
            case TREE, SPLIT_TREE -> {
                double all = c == io.jccl.Collective.ALL_REDUCE ? TREE_ALL_REDUCE : 1.0;
                double proto = switch (p) {
                    case LL -> TREE_LL;
                    case LL128 -> nNodes <= 1 ? TREE_LL128_ONE_NODE : TREE_LL128;
                    case SIMPLE -> 1.0;
                };
                yield all * proto / RING_SHARE[p.ordinal()];
            }
            case PAT -> PAT;
            default -> 1.0;
        };
    }

    /**
     * The model for GPUs of {@code nvlinkGBps} inside a node and {@code nicGBps} (bytes) each to
     * the network, channels of {@code channelGBps} (Simple's; the other protocols their share).
     */
    public static CostModel of(double nvlinkGBps, double nicGBps, double channelGBps) {
        int na = Algorithm.values().length;
        int np = Protocol.values().length;
        double[][] base = new double[na][];
        double[][] hop = new double[na][];
        double[][] net = new double[na][];
        for (Algorithm a : Algorithm.values()) {
            boolean tree = a == Algorithm.TREE || a == Algorithm.SPLIT_TREE;
            base[a.ordinal()] = (tree ? TREE_BASE : RING_BASE).clone();
            hop[a.ordinal()] = (tree ? TREE_NVLINK : RING_NVLINK).clone();
            net[a.ordinal()] = (tree ? TREE_NET : RING_NET).clone();
        }
        double[] channel = new double[np];
        double[] max = new double[np];
        double[] inter = new double[np];
        for (int p = 0; p < np; p++) {
            channel[p] = channelGBps * RING_SHARE[p];
            max[p] = nvlinkGBps * RING_SHARE[p];
            inter[p] = nicGBps * RING_SHARE[p];
        }
        return new CostModel(base, hop, net, new double[np], channel, max, inter, Double.POSITIVE_INFINITY, new double[2],
                NcclModel::share);
    }
}
