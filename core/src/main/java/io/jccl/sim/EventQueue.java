// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import java.util.Arrays;

/**
 * The simulator's agenda: lanes to look at again, by simulated time, earliest first; among equal
 * times the one queued first, so a run is the same every time. A binary heap over primitive arrays:
 * a run of a thousand ranks queues millions of events and none of them allocates.
 */
final class EventQueue {
    private double[] times = new double[64];
    private long[] orders = new long[64];
    private int[] lanes = new int[64];
    private int size;
    private long queued;

    boolean isEmpty() {
        return size == 0;
    }

    /** Queues {@code lane} at {@code time} µs. */
    void add(double time, int lane) {
        if (size == times.length) {
            times = Arrays.copyOf(times, size * 2);
            orders = Arrays.copyOf(orders, size * 2);
            lanes = Arrays.copyOf(lanes, size * 2);
        }
        int i = size++;
        long order = queued++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(time, order, times[parent], orders[parent])) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        times[i] = time;
        orders[i] = order;
        lanes[i] = lane;
    }

    /** The earliest event's time; the queue must not be empty. */
    double peekTime() {
        return times[0];
    }

    /** Removes the earliest event and returns its lane ({@link #peekTime} first for its time). */
    int poll() {
        int lane = lanes[0];
        int last = --size;
        double t = times[last];
        long o = orders[last];
        int l = lanes[last];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(times[child + 1], orders[child + 1], times[child], orders[child])) {
                child++;
            }
            if (!before(times[child], orders[child], t, o)) {
                break;
            }
            move(child, i);
            i = child;
        }
        times[i] = t;
        orders[i] = o;
        lanes[i] = l;
        return lane;
    }

    private void move(int from, int to) {
        times[to] = times[from];
        orders[to] = orders[from];
        lanes[to] = lanes[from];
    }

    private static boolean before(double t1, long o1, double t2, long o2) {
        return t1 < t2 || (t1 == t2 && o1 < o2);
    }
}
