// SPDX-License-Identifier: Apache-2.0
package io.jccl.topo;

import java.util.Arrays;

/**
 * A ring through all ranks: the rank at each position. It keeps the inverse too, so that a rank
 * finds its place (and its neighbours) in O(1), and turning the ring to start at a rank (what a
 * rooted collective does per call) shares both arrays instead of copying n ranks.
 */
public final class Ring {
    /** order[i]: the rank at position i of the ring as built; never modified. */
    private final int[] order;
    /** position[r]: where rank r is in {@link #order}; never modified. */
    private final int[] position;
    /** The position of {@link #order} this ring's position 0 is. */
    private final int start;

    /** The ring whose position i holds {@code order[i]}; every rank 0..n-1 once. */
    public Ring(int[] order) {
        this.order = order.clone();
        this.position = new int[order.length];
        Arrays.fill(position, -1);
        for (int i = 0; i < order.length; i++) {
            int r = order[i];
            if (r < 0 || r >= order.length || position[r] >= 0) {
                throw new IllegalArgumentException("not a ring over all ranks: " + Arrays.toString(order));
            }
            position[r] = i;
        }
        this.start = 0;
    }

    private Ring(Ring of, int start) {
        this.order = of.order;
        this.position = of.position;
        this.start = start;
    }

    /** The ring 0, 1, ..., n-1. */
    public static Ring identity(int n) {
        int[] o = new int[n];
        Arrays.setAll(o, i -> i);
        return new Ring(o);
    }

    public int size() {
        return order.length;
    }

    /** The rank at position {@code i}, any integer taken modulo the ring's size. */
    public int at(int i) {
        return order[Math.floorMod(start + i, order.length)];
    }

    /** The same ring, turned so that {@code rank} is at position 0. */
    public Ring startingAt(int rank) {
        return new Ring(this, Math.floorMod(start + positionOf(rank), order.length));
    }

    /** The position of a rank. */
    public int positionOf(int rank) {
        if (rank < 0 || rank >= position.length) {
            throw new IllegalArgumentException("rank " + rank + " is not on the ring");
        }
        return Math.floorMod(position[rank] - start, order.length);
    }

    /** The ranks in ring order, from position 0. */
    public int[] order() {
        int[] o = new int[order.length];
        Arrays.setAll(o, this::at);
        return o;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Ring r) || r.order.length != order.length) {
            return false;
        }
        for (int i = 0; i < order.length; i++) {
            if (r.at(i) != at(i)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(order());
    }

    @Override
    public String toString() {
        return Arrays.toString(order());
    }
}
