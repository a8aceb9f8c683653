// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import java.util.Arrays;

/**
 * The simulator's agenda: lanes to look at again, by simulated time, earliest first; among equal
 * times the one queued first, so a run is the same every time.
 *
 * <p>A run of a thousand ranks queues a hundred million events among some sixty thousand lanes, and
 * one heap of them all costs more than the rest of a step. So the events are kept as a calendar:
 * a small heap of the earliest ones ({@code near}), then {@link #BUCKETS} buckets, each a span of
 * {@code width} µs from {@code base}, unsorted, then the rest ({@code far}), unsorted. A bucket
 * joins the heap when the heap runs dry, and when the buckets are spent the far events are spread
 * over new ones, {@code width} made so that they cover the far events' span. An event's bucket
 * grows with its time, so every event in the heap is earlier than every event outside it, and
 * events of one time share a bucket: the heap orders them as one heap of all would.
 *
 * <pre>
 *  an event, two longs side by side:
 *    [2i]     the time's bits (a time is never negative, so its bits order as the times do)
 *    [2i + 1] (order queued) &lt;&lt; 24 | lane
 *  near: a 4-ary heap of events            buckets [current, BUCKETS): events of bucket b
 *  (every bucket before current emptied      span [base + b·width, base + (b+1)·width)
 *  into it)                                far: events past the last bucket
 * </pre>
 * Buckets keep their arrays, so a run allocates nothing once they have grown.
 */
final class EventQueue {
    static final int BUCKETS = 4096;
    private static final int LANE_BITS = 24;
    private static final long LANE_MASK = (1L << LANE_BITS) - 1;

    private long[] near = new long[128];
    private int nearSize;
    private final long[][] buckets = new long[BUCKETS][];
    private final int[] bucketSize = new int[BUCKETS];
    private int current = BUCKETS;
    private double base;
    /** At first no bucket: every event goes far, but those at time 0, which are first anyway. */
    private double width = Double.MIN_VALUE;
    private long[] far = new long[128];
    /** The far events' array to be, while they are spread from the other. */
    private long[] spare = new long[128];
    private int farSize;
    private long size;
    private long queued;

    boolean isEmpty() {
        return size == 0;
    }

    /** Queues {@code lane} at {@code time} µs. */
    void add(double time, int lane) {
        if (lane < 0 || lane > LANE_MASK || !(time >= 0) || queued >>> (63 - LANE_BITS) != 0) {
            throw new IllegalArgumentException("event of lane " + lane + " at " + time + " µs after " + queued + " events");
        }
        place(time, Double.doubleToRawLongBits(time), queued++ << LANE_BITS | lane);
        size++;
    }

    /** The earliest event's time; the queue must not be empty. */
    double peekTime() {
        settle();
        return Double.longBitsToDouble(near[0]);
    }

    /** Removes the earliest event and returns its lane ({@link #peekTime} first for its time). */
    int poll() {
        settle();
        size--;
        int lane = (int) (near[1] & LANE_MASK);
        int last = --nearSize;
        long t = near[2 * last];
        long k = near[2 * last + 1];
        int i = 0;
        while (true) {
            int first = 4 * i + 1;
            if (first >= nearSize) {
                break;
            }
            int best = first;
            long bt = near[2 * first];
            long bk = near[2 * first + 1];
            int end = Math.min(first + 4, nearSize);
            for (int child = first + 1; child < end; child++) {
                long ct = near[2 * child];
                long ck = near[2 * child + 1];
                if (ct < bt || (ct == bt && ck < bk)) {
                    best = child;
                    bt = ct;
                    bk = ck;
                }
            }
            if (t < bt || (t == bt && k < bk)) {
                break;
            }
            near[2 * i] = bt;
            near[2 * i + 1] = bk;
            i = best;
        }
        near[2 * i] = t;
        near[2 * i + 1] = k;
        return lane;
    }

    /** Makes the heap hold the earliest event: the next bucket with events joins it, or the far ones are spread anew. */
    private void settle() {
        while (nearSize == 0) {
            if (size == 0) {
                throw new IllegalStateException("no event queued");
            }
            while (current < BUCKETS && bucketSize[current] == 0) {
                current++;
            }
            if (current < BUCKETS) {
                long[] bucket = buckets[current];
                for (int e = 0; e < bucketSize[current]; e++) {
                    pushNear(bucket[2 * e], bucket[2 * e + 1]);
                }
                bucketSize[current++] = 0;
            } else {
                spreadFar();
            }
        }
    }

    /** New buckets over the far events' span, the far events in them. */
    private void spreadFar() {
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (int e = 0; e < farSize; e++) {
            double time = Double.longBitsToDouble(far[2 * e]);
            min = Math.min(min, time);
            max = Math.max(max, time);
        }
        base = min;
        // a little more than the span, so that the latest far event falls in the last bucket
        width = Math.max((max - min) / (BUCKETS - 1), Math.ulp(max) * 4);
        current = 0;
        long[] spread = far;
        int count = farSize;
        far = spare;
        spare = spread;
        farSize = 0;
        for (int e = 0; e < count; e++) {
            place(Double.longBitsToDouble(spread[2 * e]), spread[2 * e], spread[2 * e + 1]);
        }
    }

    /** Puts an event (its time's bits {@code t}, its order and lane {@code k}) where its time belongs. */
    private void place(double time, long t, long k) {
        double b = Math.floor((time - base) / width);
        if (b < current) {
            pushNear(t, k);
        } else if (b < BUCKETS) {
            int i = (int) b;
            if (buckets[i] == null) {
                buckets[i] = new long[16];
            } else if (2 * bucketSize[i] == buckets[i].length) {
                buckets[i] = Arrays.copyOf(buckets[i], buckets[i].length * 2);
            }
            buckets[i][2 * bucketSize[i]] = t;
            buckets[i][2 * bucketSize[i]++ + 1] = k;
        } else {
            if (2 * farSize == far.length) {
                far = Arrays.copyOf(far, far.length * 2);
                spare = new long[far.length];
            }
            far[2 * farSize] = t;
            far[2 * farSize++ + 1] = k;
        }
    }

    private void pushNear(long t, long k) {
        if (2 * nearSize == near.length) {
            near = Arrays.copyOf(near, near.length * 2);
        }
        int i = nearSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long pt = near[2 * parent];
            if (pt < t || (pt == t && near[2 * parent + 1] < k)) {
                break;
            }
            near[2 * i] = pt;
            near[2 * i + 1] = near[2 * parent + 1];
            i = parent;
        }
        near[2 * i] = t;
        near[2 * i + 1] = k;
    }
}
