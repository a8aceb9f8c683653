// SPDX-License-Identifier: Apache-2.0
package io.jccl.algo;

import java.util.Locale;

/** The algorithms of jccl; each is a schedule generator for the collectives it supports. */
public enum Algorithm {
    /** Rings: all-reduce as reduce-scatter then all-gather, pipelines for broadcast and reduce. */
    RING("ring"),
    /** The double binary tree, whole buffer up (reduce) then down (broadcast). */
    TREE("tree"),
    /** The double binary tree with separate lanes reducing up and broadcasting down at once. */
    SPLIT_TREE("splittree"),
    /** Every rank exchanges directly with every peer: all-to-all, gather, scatter, send/recv. */
    DIRECT("direct"),
    /**
     * Hierarchical ring all-reduce: each rank of a server reduces its R-th of the buffer from the
     * server's ranks (full mesh), the ranks of one local index run a ring all-reduce across the
     * servers, and each broadcasts its part inside the server. Needs a uniform server layout.
     */
    HIER_RING("hierring", true),
    /**
     * 2D torus all-reduce: reduce-scatter along the server's ring, all-reduce across servers along
     * each column's ring, all-gather along the server's ring. Needs a uniform server layout.
     */
    TORUS_2D("torus2d", true),
    /** Rabenseifner's all-reduce: reduce-scatter by recursive halving, all-gather by recursive doubling. */
    RHD("rhd"),
    /** Butterfly all-reduce: recursive doubling, every step exchanging the whole buffer. */
    BUTTERFLY("butterfly"),
    /**
     * HCCL's fine-grained hierarchical pipeline (all-gather, reduce-scatter, all-to-all): the
     * inter-server ring step and the intra-server full mesh of each block at once. Needs a uniform
     * server layout.
     */
    PIPELINE("pipeline", true),
    /**
     * The two-phase hierarchical all-gather (across servers, then inside) and reduce-scatter
     * (inside, then across). Needs a uniform server layout.
     */
    HIER_2PHASE("hier2phase", true),
    /** NCCL's PAT (Parallel Aggregated Trees): all-gather and reduce-scatter in log2 n steps of doubling distance. */
    PAT("pat");

    private final String id;
    private final boolean needsServers;

    Algorithm(String id) {
        this(id, false);
    }

    Algorithm(String id, boolean needsServers) {
        this.id = id;
        this.needsServers = needsServers;
    }

    /** Whether the algorithm is laid on the servers of the layout, which must then be uniform. */
    public boolean needsServers() {
        return needsServers;
    }

    /** The name {@code JCCL_ALGO} and the tools use. */
    public String id() {
        return id;
    }

    public static Algorithm parse(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
        for (Algorithm a : values()) {
            if (a.id.equals(n)) {
                return a;
            }
        }
        throw new IllegalArgumentException("'" + name + "' is not an algorithm " + java.util.Arrays.stream(values()).map(Algorithm::id).toList());
    }
}
