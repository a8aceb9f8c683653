// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import java.util.Arrays;

/**
 * The simulator's agenda: lanes to look at again, by simulated time, earliest first; among equal
 * times the one queued first, so a run is the same every time. A run of a thousand ranks queues a
 * hundred million events among some sixty thousand lanes, so the heap is made for the cache: four
 * children a node (half the levels of a binary heap, the children side by side), and an event is
 * two longs next to each other in one array, no object:
 *
 * <pre>
 *  entries[2i]     the time's bits (a time is never negative, so its bits order as the times do)
 *  entries[2i + 1] (order queued) &lt;&lt; 24 | lane
 * </pre>
 */
final class EventQueue {
    private static final int LANE_BITS = 24;
    private static final long LANE_MASK = (1L << LANE_BITS) - 1;

    private long[] entries = new long[128];
    private int size;
    private long queued;

    boolean isEmpty() {
        return size == 0;
    }

    /** Queues {@code lane} at {@code time} µs. */
    void add(double time, int lane) {
        if (lane < 0 || lane > LANE_MASK || !(time >= 0) || queued >>> (63 - LANE_BITS) != 0) {
            throw new IllegalArgumentException("event of lane " + lane + " at " + time + " µs after " + queued + " events");
        }
        if (2 * size == entries.length) {
            entries = Arrays.copyOf(entries, entries.length * 2);
        }
        long t = Double.doubleToRawLongBits(time);
        long k = queued++ << LANE_BITS | lane;
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long pt = entries[2 * parent];
            if (pt < t || (pt == t && entries[2 * parent + 1] < k)) {
                break;
            }
            entries[2 * i] = pt;
            entries[2 * i + 1] = entries[2 * parent + 1];
            i = parent;
        }
        entries[2 * i] = t;
        entries[2 * i + 1] = k;
    }

    /** The earliest event's time; the queue must not be empty. */
    double peekTime() {
        return Double.longBitsToDouble(entries[0]);
    }

    /** Removes the earliest event and returns its lane ({@link #peekTime} first for its time). */
    int poll() {
        int lane = (int) (entries[1] & LANE_MASK);
        int last = --size;
        long t = entries[2 * last];
        long k = entries[2 * last + 1];
        int i = 0;
        while (true) {
            int first = 4 * i + 1;
            if (first >= size) {
                break;
            }
            int best = first;
            long bt = entries[2 * first];
            long bk = entries[2 * first + 1];
            int end = Math.min(first + 4, size);
            for (int child = first + 1; child < end; child++) {
                long ct = entries[2 * child];
                long ck = entries[2 * child + 1];
                if (ct < bt || (ct == bt && ck < bk)) {
                    best = child;
                    bt = ct;
                    bk = ck;
                }
            }
            if (t < bt || (t == bt && k < bk)) {
                break;
            }
            entries[2 * i] = bt;
            entries[2 * i + 1] = bk;
            i = best;
        }
        entries[2 * i] = t;
        entries[2 * i + 1] = k;
        return lane;
    }
}
