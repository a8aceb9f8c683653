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
    DIRECT("direct");

    private final String id;

    Algorithm(String id) {
        this.id = id;
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
        throw new IllegalArgumentException("'" + name + "' is not an algorithm (ring, tree, splittree, direct)");
    }
}
