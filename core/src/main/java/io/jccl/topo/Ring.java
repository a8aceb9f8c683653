package io.jccl.topo;

import java.util.Arrays;

/** A ring through all ranks: {@code order[i]} is the rank at position i. */
public record Ring(int[] order) {
    public Ring {
        order = order.clone();
        boolean[] seen = new boolean[order.length];
        for (int r : order) {
            if (r < 0 || r >= order.length || seen[r]) {
                throw new IllegalArgumentException("not a ring over all ranks: " + Arrays.toString(order));
            }
            seen[r] = true;
        }
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
        return order[Math.floorMod(i, order.length)];
    }

    /** The same ring, turned so that {@code rank} is at position 0. */
    public Ring startingAt(int rank) {
        int start = positionOf(rank);
        int[] o = new int[order.length];
        Arrays.setAll(o, i -> at(start + i));
        return new Ring(o);
    }

    /** The position of a rank. */
    public int positionOf(int rank) {
        for (int i = 0; i < order.length; i++) {
            if (order[i] == rank) {
                return i;
            }
        }
        throw new IllegalArgumentException("rank " + rank + " is not on the ring");
    }

    @Override
    public int[] order() {
        return order.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Ring r && Arrays.equals(r.order, order);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(order);
    }

    @Override
    public String toString() {
        return Arrays.toString(order);
    }
}
