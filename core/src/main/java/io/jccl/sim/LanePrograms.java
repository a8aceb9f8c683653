// SPDX-License-Identifier: Apache-2.0
package io.jccl.sim;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Every lane of every rank of a plan as the simulator walks them, in a few primitive arrays: each
 * lane's segments (run {@code repeat} times over consecutive tiles), each segment's steps, each
 * step's cost on the lane, its bytes per message, the connections it takes messages from and sends
 * them on, and how many times in a row it runs.
 *
 * <p>A thousand ranks' lanes run a hundred million steps, in whatever order simulated time takes
 * them, so what a step needs must stay in cache. Two things make it small. A ring's lane repeats
 * one step for most of its 2(N−1) (the same cost, bytes and connections on every chunk), so a run
 * of equal steps is held once. And lanes alike (every lane of a ring; a tree's leaves, its inner
 * ranks) share one <em>shape</em>: its segments and steps, naming connections by the lane's own
 * numbers; a lane holds only its shape and its connections.
 *
 * <pre>
 *  lane l:    rank[l], its lane lane[l] of that rank, shape[l], connections conns[connBase[l] ..]
 *  shape s:   segments [firstSegment[s], endSegment[s])
 *  segment g: steps [segmentStart[g], segmentStart[g+1]), repeated segmentRepeat[g] times
 *  step i:    steps[4i ..]  | RUNS: times in a row | RECVS | FIRST_SLOT | END_SLOT |
 *             costs[2i ..]  | MICROS on the lane | BYTES per message |
 *             slots[FIRST_SLOT .. FIRST_SLOT + RECVS)  received from: conns[connBase[l] + slot]
 *             slots[FIRST_SLOT + RECVS .. END_SLOT)    sent on
 * </pre>
 * Lanes are numbered lane by lane of the ranks (every rank's lane 0, then every rank's lane 1...),
 * and the connections by channel and sender, so that a ring's neighbours, whom a step wakes, are
 * neighbours in memory too.
 */
final class LanePrograms {
    static final int STEP_INTS = 4;
    static final int RUNS = 0;
    static final int RECVS = 1;
    static final int FIRST_SLOT = 2;
    static final int END_SLOT = 3;
    static final int COST_DOUBLES = 2;
    static final int MICROS = 0;
    static final int BYTES = 1;

    final int[] rank;
    final int[] lane;
    private final int[] shape;
    private final int[] connBase;
    private final int[] conns;
    private final int[] firstSegment;
    private final int[] endSegment;
    final int[] segmentStart;
    final long[] segmentRepeat;
    final int[] steps;
    final double[] costs;
    private final int[] slots;

    private LanePrograms(Builder b, int[] connectionNumber) {
        Integer[] order = new Integer[b.lanes];
        for (int l = 0; l < b.lanes; l++) {
            order[l] = l;
        }
        Arrays.sort(order, (x, y) -> b.lane[x] != b.lane[y] ? Integer.compare(b.lane[x], b.lane[y]) : Integer.compare(b.rank[x], b.rank[y]));
        rank = new int[b.lanes];
        lane = new int[b.lanes];
        shape = new int[b.lanes];
        connBase = new int[b.lanes];
        conns = new int[b.laneConns.count];
        int next = 0;
        for (int l = 0; l < b.lanes; l++) {
            int built = order[l];
            rank[l] = b.rank[built];
            lane[l] = b.lane[built];
            shape[l] = b.shape[built];
            connBase[l] = next;
            int end = built + 1 < b.lanes ? b.connBase[built + 1] : b.laneConns.count;
            for (int k = b.connBase[built]; k < end; k++) {
                conns[next++] = connectionNumber[b.laneConns.at(k)];
            }
        }
        firstSegment = Arrays.copyOf(b.shapeFirstSegment, b.shapes);
        endSegment = Arrays.copyOf(b.shapeEndSegment, b.shapes);
        segmentStart = Arrays.copyOf(b.segmentStart, b.segments + 1);
        segmentStart[b.segments] = b.count;
        segmentRepeat = Arrays.copyOf(b.segmentRepeat, b.segments);
        steps = Arrays.copyOf(b.steps, b.count * STEP_INTS);
        costs = Arrays.copyOf(b.costs, b.count * COST_DOUBLES);
        slots = Arrays.copyOf(b.slots.values, b.slots.count);
    }

    /** Lanes, all ranks'. */
    int lanes() {
        return rank.length;
    }

    /** Distinct shapes among the lanes. */
    int shapes() {
        return firstSegment.length;
    }

    /** Lane {@code l}'s first segment. */
    int firstSegment(int l) {
        return firstSegment[shape[l]];
    }

    /** Past lane {@code l}'s last segment. */
    int endSegment(int l) {
        return endSegment[shape[l]];
    }

    /** The connection slot {@code k} of a step of lane {@code l} names. */
    int connection(int l, int k) {
        return conns[connBase[l] + slots[k]];
    }

    /** A growable int array. */
    private static final class Ints {
        int[] values = new int[64];
        int count;

        void add(int v) {
            if (count == values.length) {
                values = Arrays.copyOf(values, count * 2);
            }
            values[count++] = v;
        }

        int at(int i) {
            return values[i];
        }
    }

    /** Builds the programs lane by lane, segment by segment, step by step, folding a step equal to the one before into its run. */
    static final class Builder {
        // lanes
        private int[] rank = new int[16];
        private int[] lane = new int[16];
        private int[] shape = new int[16];
        private int[] connBase = new int[16];
        private int lanes;
        private final Ints laneConns = new Ints();
        // shapes, their segments and steps
        private final Map<Shape, Integer> shapeIds = new HashMap<>();
        private int[] shapeFirstSegment = new int[4];
        private int[] shapeEndSegment = new int[4];
        private int shapes;
        private int[] segmentStart = new int[16];
        private long[] segmentRepeat = new long[16];
        private int segments;
        private int[] steps = new int[64 * STEP_INTS];
        private double[] costs = new double[64 * COST_DOUBLES];
        private int count;
        private final Ints slots = new Ints();
        // the lane being built: its segments and steps, connections as the job numbers them
        private final Ints curSegments = new Ints();
        private long[] curRepeat = new long[4];
        private final Ints curSteps = new Ints();
        private double[] curCosts = new double[32];
        private final Ints curIds = new Ints();
        private boolean open;
        private final Map<Integer, Integer> slotOf = new HashMap<>();

        /** Starts lane {@code laneOfRank} of rank {@code r}; its index among all lanes as built. */
        int lane(int r, int laneOfRank) {
            close();
            if (lanes == rank.length) {
                rank = Arrays.copyOf(rank, lanes * 2);
                lane = Arrays.copyOf(lane, lanes * 2);
                shape = Arrays.copyOf(shape, lanes * 2);
                connBase = Arrays.copyOf(connBase, lanes * 2);
            }
            rank[lanes] = r;
            lane[lanes] = laneOfRank;
            open = true;
            return lanes++;
        }

        /** Starts a segment of the current lane, run {@code repeat} times; its steps follow. */
        void segment(long repeat) {
            if (curSegments.count == curRepeat.length) {
                curRepeat = Arrays.copyOf(curRepeat, curRepeat.length * 2);
            }
            curRepeat[curSegments.count] = repeat;
            curSegments.add(curSteps.count / STEP_INTS);
        }

        /**
         * Adds a step of {@code stepMicros} moving {@code stepBytes} per message to the current
         * segment, taking from connections {@code ids[0 .. nrecv)} and sending on {@code ids[nrecv .. nids)}.
         */
        void step(double stepMicros, long stepBytes, int[] ids, int nrecv, int nids) {
            int n = curSteps.count / STEP_INTS;
            int segmentFirst = curSegments.at(curSegments.count - 1);
            if (n > segmentFirst && sameAsLast(stepMicros, stepBytes, ids, nrecv, nids)) {
                curSteps.values[(n - 1) * STEP_INTS + RUNS]++;
                return;
            }
            curSteps.add(1);
            curSteps.add(nrecv);
            curSteps.add(curIds.count);
            curSteps.add(curIds.count + nids);
            for (int k = 0; k < nids; k++) {
                curIds.add(ids[k]);
            }
            if (2 * n + 2 > curCosts.length) {
                curCosts = Arrays.copyOf(curCosts, curCosts.length * 2);
            }
            curCosts[2 * n + MICROS] = stepMicros;
            curCosts[2 * n + BYTES] = stepBytes;
        }

        private boolean sameAsLast(double stepMicros, long stepBytes, int[] ids, int nrecv, int nids) {
            int last = curSteps.count / STEP_INTS - 1;
            int[] s = curSteps.values;
            int first = s[last * STEP_INTS + FIRST_SLOT];
            return curCosts[2 * last + MICROS] == stepMicros && curCosts[2 * last + BYTES] == stepBytes
                    && s[last * STEP_INTS + RECVS] == nrecv && s[last * STEP_INTS + END_SLOT] - first == nids
                    && Arrays.equals(curIds.values, first, first + nids, ids, 0, nids);
        }

        /** Ends the current lane: its connections numbered as the lane meets them, its shape found or added. */
        private void close() {
            if (!open) {
                return;
            }
            open = false;
            int l = lanes - 1;
            connBase[l] = laneConns.count;
            // the lane's own numbers for its connections, in the order it meets them
            int[] local = new int[curIds.count];
            slotOf.clear();
            for (int k = 0; k < curIds.count; k++) {
                int id = curIds.at(k);
                Integer slot = slotOf.get(id);
                if (slot == null) {
                    slot = laneConns.count - connBase[l];
                    slotOf.put(id, slot);
                    laneConns.add(id);
                }
                local[k] = slot;
            }
            Shape key = new Shape(Arrays.copyOf(curRepeat, curSegments.count), Arrays.copyOf(curSegments.values, curSegments.count),
                    Arrays.copyOf(curSteps.values, curSteps.count), Arrays.copyOf(curCosts, curSteps.count / STEP_INTS * 2), local);
            Integer id = shapeIds.get(key);
            if (id == null) {
                id = addShape(key);
                shapeIds.put(key, id);
            }
            shape[l] = id;
            curSegments.count = 0;
            curSteps.count = 0;
            curIds.count = 0;
        }

        private int addShape(Shape s) {
            if (shapes == shapeFirstSegment.length) {
                shapeFirstSegment = Arrays.copyOf(shapeFirstSegment, shapes * 2);
                shapeEndSegment = Arrays.copyOf(shapeEndSegment, shapes * 2);
            }
            shapeFirstSegment[shapes] = segments;
            int stepBase = count;
            int slotBase = slots.count;
            for (int g = 0; g < s.repeat.length; g++) {
                if (segments + 1 >= segmentStart.length) {
                    segmentStart = Arrays.copyOf(segmentStart, segmentStart.length * 2);
                    segmentRepeat = Arrays.copyOf(segmentRepeat, segmentRepeat.length * 2);
                }
                segmentStart[segments] = stepBase + s.segmentStart[g];
                segmentRepeat[segments++] = s.repeat[g];
            }
            int n = s.steps.length / STEP_INTS;
            if ((count + n) * STEP_INTS > steps.length) {
                steps = Arrays.copyOf(steps, Math.max(steps.length * 2, (count + n) * STEP_INTS));
                costs = Arrays.copyOf(costs, Math.max(costs.length * 2, (count + n) * COST_DOUBLES));
            }
            for (int i = 0; i < n; i++) {
                int at = (count + i) * STEP_INTS;
                steps[at + RUNS] = s.steps[i * STEP_INTS + RUNS];
                steps[at + RECVS] = s.steps[i * STEP_INTS + RECVS];
                steps[at + FIRST_SLOT] = slotBase + s.steps[i * STEP_INTS + FIRST_SLOT];
                steps[at + END_SLOT] = slotBase + s.steps[i * STEP_INTS + END_SLOT];
                costs[(count + i) * COST_DOUBLES + MICROS] = s.costs[2 * i + MICROS];
                costs[(count + i) * COST_DOUBLES + BYTES] = s.costs[2 * i + BYTES];
            }
            count += n;
            for (int slot : s.slots) {
                slots.add(slot);
            }
            // a segment's end is the next one's start: the shape's steps end where the next shape's begin
            if (segments >= segmentStart.length) {
                segmentStart = Arrays.copyOf(segmentStart, segmentStart.length * 2);
            }
            segmentStart[segments] = count;
            shapeEndSegment[shapes] = segments;
            return shapes++;
        }

        /** The programs, connection {@code c} as the steps named it renumbered {@code connectionNumber[c]}. */
        LanePrograms build(int[] connectionNumber) {
            close();
            return new LanePrograms(this, connectionNumber);
        }
    }

    /** A lane's segments and steps with its connections as its own numbers: what lanes alike share. */
    private record Shape(long[] repeat, int[] segmentStart, int[] steps, double[] costs, int[] slots) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Shape s && Arrays.equals(repeat, s.repeat) && Arrays.equals(segmentStart, s.segmentStart)
                    && Arrays.equals(steps, s.steps) && Arrays.equals(costs, s.costs) && Arrays.equals(slots, s.slots);
        }

        @Override
        public int hashCode() {
            return ((Arrays.hashCode(repeat) * 31 + Arrays.hashCode(segmentStart)) * 31 + Arrays.hashCode(steps)) * 31
                    + Arrays.hashCode(costs) * 7 + Arrays.hashCode(slots);
        }
    }
}
